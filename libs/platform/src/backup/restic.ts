import { BackupError } from './backup-error.js';
import { lastLines, runTool, type ToolResult } from './run-tool.js';

/** One restic repository: where it is and its password (given to restic through its environment, never its arguments). */
export interface ResticRepository {
  repository: string;
  password: string;
  /** Extra environment for restic: RESTIC_CACHE_DIR, AWS_* of an s3: repository... (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** How many daily, weekly and monthly snapshots retention keeps (restic forget --keep-daily/-weekly/-monthly). */
export interface RetentionPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

export interface SnapshotInfo {
  id: string;
  short_id: string;
  time: string;
  paths: string[];
  tags?: string[];
}

/** Every snapshot of Legacy Vault carries this tag and host, so retention groups them whatever machine ran the backup. */
const SNAPSHOT_TAG = 'legacy-vault';
const SNAPSHOT_HOST = 'legacy-vault';

/**
 * What restic's refusals mean, from its messages (restic 0.14 exits 1 for all of them). The first
 * match wins: a lock held elsewhere or a refused password is named before the symptoms it also causes.
 */
const REFUSALS: { pattern: RegExp; error: (repository: string) => BackupError }[] = [
  {
    pattern: /repository is already locked|unable to create lock/i,
    error: (repository) => new BackupError('BACKUP_BUSY', `another restic process (a backup, check or prune) holds the lock of ${repository}: try again when it ends, or \`restic unlock\` if it died`),
  },
  { pattern: /wrong password or no key found/i, error: () => new BackupError('BACKUP_WRONG_PASSWORD', 'the backup repository refused the password (BACKUP_PASSWORD or BACKUP_PASSWORD_FILE)') },
  { pattern: /unable to open config file|Is there a repository at the following location/i, error: (repository) => new BackupError('BACKUP_NO_REPOSITORY', `there is no backup repository at ${repository} (BACKUP_REPOSITORY)`) },
  {
    pattern: /repository contains errors|ciphertext verification failed|hash mismatch|does not match|not found in index|no such file or directory|unexpected EOF|invalid data returned|There were \d+ errors|decrypting .* failed/i,
    error: (repository) => new BackupError('BACKUP_DAMAGED', `the backup repository at ${repository} is damaged: restic could not read the snapshot back intact (run \`restic check --read-data\` on it)`),
  },
];

const SNAPSHOT_ID = /^([0-9a-f]{8,64}|latest)$/;

/** Runs restic with the repository's location and password in its environment. */
export class Restic {
  constructor(private readonly repo: ResticRepository) {}

  private async run(args: string[], options: { cwd?: string } = {}): Promise<ToolResult> {
    const env: NodeJS.ProcessEnv = { ...(this.repo.env ?? process.env), RESTIC_REPOSITORY: this.repo.repository, RESTIC_PASSWORD: this.repo.password };
    delete env.RESTIC_PASSWORD_FILE;
    delete env.RESTIC_PASSWORD_COMMAND;
    const result = await runTool('restic', args, { cwd: options.cwd, env });
    if (result.code === 0) return result;
    const refusal = REFUSALS.find((r) => r.pattern.test(result.stderr));
    if (refusal) throw refusal.error(this.repo.repository);
    throw new BackupError('BACKUP_TOOL_FAILED', `restic ${args[0]} failed (exit ${result.code}): ${lastLines(result.stderr)}`);
  }

  /** Opens the repository (the password is checked here); creates it first when `create` and there is none. */
  async open(create = false): Promise<void> {
    try {
      await this.run(['cat', 'config']);
    } catch (error) {
      if (!(create && error instanceof BackupError && error.code === 'BACKUP_NO_REPOSITORY')) throw error;
      await this.run(['init']);
    }
  }

  /** The snapshot an operator named (an id, a unique prefix of one, or `latest`). */
  async snapshot(id: string): Promise<SnapshotInfo> {
    if (!SNAPSHOT_ID.test(id)) throw new BackupError('BACKUP_UNKNOWN_SNAPSHOT', `"${id}" is not a snapshot id (8 to 64 hex digits as \`restic snapshots\` lists them, or latest)`);
    const unknown = () => new BackupError('BACKUP_UNKNOWN_SNAPSHOT', `the repository has no snapshot ${id}`);
    let listed: SnapshotInfo[];
    try {
      const { stdout } = await this.run(id === 'latest' ? ['snapshots', '--json', '--tag', SNAPSHOT_TAG, '--latest', '1'] : ['snapshots', '--json', id]);
      listed = JSON.parse(stdout || '[]') as SnapshotInfo[];
    } catch (error) {
      // `snapshots <id>` for an id that is not there: "no matching ID found for prefix".
      if (error instanceof BackupError && /no matching ID|ambiguous|invalid id/i.test(error.message)) throw unknown();
      throw error;
    }
    const found = listed.filter((s) => id === 'latest' || s.id.startsWith(id)).at(-1);
    if (!found) throw unknown();
    return found;
  }

  /** Backs up the contents of `directory` (as the snapshot's root) and returns the new snapshot. */
  async backup(directory: string): Promise<{ snapshot: SnapshotInfo; addedBytes: number; totalBytes: number }> {
    const { stdout } = await this.run(['backup', '--json', '--host', SNAPSHOT_HOST, '--tag', SNAPSHOT_TAG, '.'], { cwd: directory });
    const summary = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message_type?: string; snapshot_id?: string; data_added?: number; total_bytes_processed?: number })
      .find((message) => message.message_type === 'summary');
    if (!summary?.snapshot_id) throw new BackupError('BACKUP_TOOL_FAILED', 'restic backup reported no snapshot');
    return { snapshot: await this.snapshot(summary.snapshot_id), addedBytes: summary.data_added ?? 0, totalBytes: summary.total_bytes_processed ?? 0 };
  }

  /**
   * The repository's structure: every pack the index names is there at its size, every tree of every
   * snapshot loads. It reads no file data (restore authenticates that), so a pack cut short or gone
   * is found in a second, where a restore would retry each missing read for most of a minute.
   */
  async check(): Promise<void> {
    await this.run(['check']);
  }

  /**
   * Retention: keeps the newest snapshot of each of the last `daily` days, `weekly` weeks and `monthly`
   * months (restic's --keep-* rules, over Legacy Vault's snapshots only) and prunes the data no kept
   * snapshot needs. Returns how many snapshots it removed.
   */
  async forget(policy: RetentionPolicy): Promise<{ removed: number }> {
    const { stdout } = await this.run([
      'forget', '--json', '--prune', '--tag', SNAPSHOT_TAG, '--group-by', 'host,tags',
      '--keep-daily', String(policy.daily), '--keep-weekly', String(policy.weekly), '--keep-monthly', String(policy.monthly),
    ]);
    const groups = stdout.split('\n').filter((line) => line.startsWith('[')).flatMap((line) => JSON.parse(line) as { remove?: unknown[] | null }[]);
    return { removed: groups.reduce((sum, group) => sum + (group.remove?.length ?? 0), 0) };
  }

  /** Restores the whole snapshot under `target`; any blob that does not decrypt and authenticate fails it. */
  async restore(snapshotId: string, target: string): Promise<void> {
    await this.run(['restore', snapshotId, '--target', target]);
  }
}
