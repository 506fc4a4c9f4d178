import type { CommandSpec } from '../commands.js';
import { UsageError } from '../usage-error.js';
import { BackupError, runBackup, runRestore, runVerify, verifyProblems } from '@lv/platform/backup';
import { backupSettings } from './backup-settings.js';

const snapshotArg = (args: string[]): string => {
  const snapshot = args[0];
  if (!snapshot) throw new UsageError('missing <snapshot> (an id as `npm run vault -- backup` printed it, or latest)');
  if (args.length > 1) throw new UsageError(`unexpected "${args[1]}"`);
  return snapshot;
};

const NETWORK_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);

/** A server that does not answer is named as such, not as a stack trace. */
async function reachable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && NETWORK_FAILURES.has(code)) throw new BackupError('BACKUP_UNREACHABLE', `${(error as Error).message}: is the stack running? (POSTGRES_URL, S3_ENDPOINT)`);
    throw error;
  }
}

/**
 * Backups: PostgreSQL's own dump, the buckets' objects and the key material in a restic repository
 * (README, "Backups and restores"). They act on the databases and the object storage directly, not
 * through the services, so they need no running stack and no NATS.
 */
export const backupCommands: Record<string, CommandSpec> = {
  backup: {
    usage: 'backup',
    summary: 'snapshot every database, bucket and key into the restic repository (BACKUP_REPOSITORY, default .data/backups); prints the snapshot id',
    local: true,
    async run(args) {
      if (args.length) throw new UsageError(`unexpected "${args[0]}"`);
      return reachable(runBackup(backupSettings(process.env, process.cwd(), { generatePassword: true })));
    },
  },
  restore: {
    usage: 'restore <snapshot>',
    summary: 'restore a snapshot into an empty stack: databases recreated, buckets refilled, keys written (checked against its manifest first)',
    local: true,
    async run(args) {
      const snapshot = snapshotArg(args);
      return reachable(runRestore(backupSettings(), snapshot));
    },
  },
  'backup:verify': {
    usage: 'backup:verify <snapshot>',
    summary: "restore a snapshot into scratch databases and buckets, check every object's SHA-256 and every table's rows against its manifest, clean up",
    local: true,
    async run(args) {
      const snapshot = snapshotArg(args);
      const report = await reachable(runVerify(backupSettings(), snapshot));
      if (report.ok) return report;
      throw new BackupError('BACKUP_VERIFY_FAILED', `snapshot ${report.snapshot} does not restore as its manifest says:\n  ${verifyProblems(report).join('\n  ')}`);
    },
  },
};
