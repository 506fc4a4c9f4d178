import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { Queues, SERVICES, type JobOf } from '@lv/contracts';
import { BackupError, backupOverdue, backupSecrets, readBackupStatus, registerBackupMetrics, Restic, runBackup, runVerify, serviceDatabase, verifyProblems, writeBackupStatus, writeBackupVerifyStatus, type BackupRun, type BackupSettings, type BackupVerifyRun, type RetentionPolicy } from '@lv/platform/backup';
import { ConfigError } from '@lv/platform/config';
import type { Logger } from '@lv/platform/logging';
import { createQueue, createWorker, queuePrefix, type QueueWorker, type TypedQueue } from '@lv/platform/queues';
import { nextBackupAt, schedulerRepeat, type BackupSchedule } from './backup-schedule.js';
import type { WorkerConfig } from './config.js';

/** The job schedulers' ids: one schedule each per stack, replaced (not added to) when the worker restarts with another. */
export const BACKUP_SCHEDULER_ID = 'scheduled-backup';
export const BACKUP_VERIFY_SCHEDULER_ID = 'scheduled-backup-verify';

const isLocalPath = (repository: string) => !/^[a-z0-9]+:/i.test(repository);

/**
 * What the scheduled backup takes, from the worker's configuration: the same settings the CLI builds
 * (tools/cli backup-settings.ts), without its developer defaults. Null when no repository is configured.
 */
export function scheduledBackupSettings(config: WorkerConfig, env: NodeJS.ProcessEnv, cwd = process.cwd()): BackupSettings | null {
  if (!config.BACKUP_REPOSITORY) return null;
  const password = config.BACKUP_PASSWORD ?? (config.BACKUP_PASSWORD_FILE ? readFileSync(resolve(cwd, config.BACKUP_PASSWORD_FILE), 'utf8').trim() : '');
  if (!password) throw new ConfigError('CONFIG_INVALID', 'BACKUP_PASSWORD: missing: BACKUP_REPOSITORY is set, so set BACKUP_PASSWORD or BACKUP_PASSWORD_FILE to its password');
  if (!config.POSTGRES_URL) throw new ConfigError('CONFIG_INVALID', 'POSTGRES_URL: missing: BACKUP_REPOSITORY is set, so the worker needs a database URL that reads every service\'s database');
  const services = config.BACKUP_SERVICES ? config.BACKUP_SERVICES.split(',').map((s) => s.trim()).filter(Boolean) : [...SERVICES];
  const unknown = services.filter((s) => !(SERVICES as readonly string[]).includes(s));
  if (unknown.length) throw new ConfigError('CONFIG_INVALID', `BACKUP_SERVICES: unknown service ${unknown.join(', ')} (the services are ${SERVICES.join(', ')})`);
  return {
    repository: { repository: isLocalPath(config.BACKUP_REPOSITORY) && !isAbsolute(config.BACKUP_REPOSITORY) ? resolve(cwd, config.BACKUP_REPOSITORY) : config.BACKUP_REPOSITORY, password, env },
    serverUrl: config.POSTGRES_URL,
    databases: services.map((service) => ({ service, name: serviceDatabase(config.DATABASE_PREFIX, service) })),
    databasePrefix: config.DATABASE_PREFIX,
    storage: { S3_ENDPOINT: config.S3_ENDPOINT, S3_REGION: config.S3_REGION, S3_ACCESS_KEY: config.S3_ACCESS_KEY, S3_SECRET_KEY: config.S3_SECRET_KEY },
    keysDir: resolve(cwd, config.BACKUP_KEYS_DIR),
    secrets: backupSecrets(env),
    stagingDir: config.BACKUP_STAGING_DIR ? resolve(cwd, config.BACKUP_STAGING_DIR) : tmpdir(),
  };
}

export interface ScheduledBackupDeps {
  settings: BackupSettings;
  retention: RetentionPolicy;
  schedule: BackupSchedule;
  /** Where the run's record goes (the worker's connection). */
  redis: Redis;
  prefix: string;
  logger: Logger;
  now?: () => Date;
}

/** The schedule as the record keeps it: its interval (or longest gap), its cron expression, its next run after `at`. */
const scheduleRecord = (schedule: BackupSchedule, at: Date) => ({
  everyMs: schedule.everyMs,
  pattern: schedule.pattern,
  nextRunAt: nextBackupAt(schedule, at.getTime())?.toISOString() ?? null,
});

/**
 * One scheduled run: the CLI's backup, then retention (restic forget --prune), then its record in
 * Redis. A failure is recorded with its code, logged at error level and fails the job for good (the
 * next scheduled run is the retry; the failed job stays in the queue's failed set).
 */
export function scheduledBackupProcessor(deps: ScheduledBackupDeps) {
  const now = deps.now ?? (() => new Date());
  return async (): Promise<BackupRun> => {
    const started = now();
    let run: BackupRun;
    try {
      const summary = await runBackup(deps.settings);
      const { removed } = await new Restic(deps.settings.repository).forget(deps.retention);
      const finished = now();
      run = {
        startedAt: started.toISOString(), finishedAt: finished.toISOString(), durationMs: finished.getTime() - started.getTime(), ok: true,
        snapshot: summary.snapshot, sizeBytes: summary.totalBytes, removedSnapshots: removed, errorCode: null, error: null,
      };
    } catch (error) {
      const finished = now();
      const code = error instanceof BackupError ? error.code : 'BACKUP_FAILED';
      run = {
        startedAt: started.toISOString(), finishedAt: finished.toISOString(), durationMs: finished.getTime() - started.getTime(), ok: false,
        snapshot: null, sizeBytes: null, removedSnapshots: null, errorCode: code, error: error instanceof Error ? error.message : String(error),
      };
      await writeBackupStatus(deps.redis, deps.prefix, { ...scheduleRecord(deps.schedule, finished), run });
      deps.logger.error({ code, durationMs: run.durationMs, err: error }, 'scheduled backup failed');
      throw new UnrecoverableError(`${code}: scheduled backup failed`);
    }
    await writeBackupStatus(deps.redis, deps.prefix, { ...scheduleRecord(deps.schedule, now()), run });
    deps.logger.info({ snapshot: run.snapshot, sizeBytes: run.sizeBytes, durationMs: run.durationMs, removedSnapshots: run.removedSnapshots }, 'scheduled backup done');
    return run;
  };
}

/** The drill's record keeps this many of its differences in words (the log has them all). */
const RECORDED_MISMATCHES = 20;

export interface ScheduledVerifyDeps {
  settings: BackupSettings;
  schedule: BackupSchedule;
  redis: Redis;
  prefix: string;
  logger: Logger;
  now?: () => Date;
}

/**
 * One scheduled drill: `backup:verify latest` (the newest snapshot restored into scratch databases and
 * buckets, every object, table and key read back against its manifest, the scratch copies removed),
 * then its record. A snapshot that differs from its manifest, or one that cannot be read, is recorded
 * with its code, logged at error level and fails the job for good (the next scheduled run is the retry).
 */
export function scheduledVerifyProcessor(deps: ScheduledVerifyDeps) {
  const now = deps.now ?? (() => new Date());
  const record = (run: BackupVerifyRun) => writeBackupVerifyStatus(deps.redis, deps.prefix, { schedule: scheduleRecord(deps.schedule, now()), run });
  return async (): Promise<BackupVerifyRun> => {
    const started = now();
    const timing = () => {
      const finished = now();
      return { startedAt: started.toISOString(), finishedAt: finished.toISOString(), durationMs: finished.getTime() - started.getTime() };
    };
    let run: BackupVerifyRun;
    try {
      const report = await runVerify(deps.settings, 'latest');
      const mismatches = verifyProblems(report);
      run = {
        ...timing(), ok: report.ok, snapshot: report.snapshot,
        objects: report.buckets.reduce((sum, b) => sum + b.objects, 0), rows: report.databases.reduce((sum, d) => sum + d.rows, 0),
        mismatches: mismatches.slice(0, RECORDED_MISMATCHES),
        errorCode: report.ok ? null : 'BACKUP_VERIFY_FAILED',
        error: report.ok ? null : `snapshot ${report.snapshot} does not restore as its manifest says (${mismatches.length} differences)`,
      };
      if (!report.ok) deps.logger.error({ code: 'BACKUP_VERIFY_FAILED', snapshot: report.snapshot, mismatches }, 'scheduled backup verify failed: the newest snapshot does not restore as its manifest says');
    } catch (error) {
      const code = error instanceof BackupError ? error.code : 'BACKUP_FAILED';
      run = { ...timing(), ok: false, snapshot: null, objects: null, rows: null, mismatches: [], errorCode: code, error: error instanceof Error ? error.message : String(error) };
      deps.logger.error({ code, durationMs: run.durationMs, err: error }, 'scheduled backup verify failed');
    }
    await record(run);
    if (!run.ok) throw new UnrecoverableError(`${run.errorCode}: scheduled backup verify failed`);
    deps.logger.info({ snapshot: run.snapshot, objects: run.objects, rows: run.rows, durationMs: run.durationMs }, 'scheduled backup verify held');
    return run;
  };
}

type ScheduledBackupJob = JobOf<typeof Queues.ScheduledBackups>;

export interface ScheduledBackups {
  worker: QueueWorker;
  queue: TypedQueue<ScheduledBackupJob>;
  /** Reads the record and logs an error when a backup is overdue (once until one succeeds again); true when overdue. */
  checkMissed(): Promise<boolean>;
  close(): Promise<void>;
}

/** How often the worker looks for a missed backup: a tenth of the interval, between 1 and 10 minutes. */
const missedCheckMs = (everyMs: number) => Math.min(10 * 60_000, Math.max(60_000, Math.round(everyMs / 10)));

export interface ScheduledBackupOptions {
  settings: BackupSettings;
  schedule: BackupSchedule;
  /** When the newest snapshot is verified (BACKUP_VERIFY_SCHEDULE); null: never on a schedule. */
  verifySchedule: BackupSchedule | null;
  retention: RetentionPolicy;
  connection: Redis;
  logger: Logger;
  /** The stack's queue prefix (queuePrefix()): the job scheduler and the record live under it. */
  prefix?: string;
}

/**
 * Starts the scheduled backup: the job schedulers (the backup every BACKUP_SCHEDULE, its drill every
 * BACKUP_VERIFY_SCHEDULE: an interval's first run is at once, a cron expression's at its first time),
 * their worker (one job at a time), and the backup gauges on this process's metrics.
 */
export async function startScheduledBackups(options: ScheduledBackupOptions): Promise<ScheduledBackups> {
  const { settings, schedule, verifySchedule, retention, connection, logger } = options;
  const { everyMs } = schedule;
  const prefix = options.prefix ?? queuePrefix();
  await writeBackupStatus(connection, prefix, scheduleRecord(schedule, new Date()));
  await writeBackupVerifyStatus(connection, prefix, { schedule: verifySchedule && scheduleRecord(verifySchedule, new Date()) });
  registerBackupMetrics(() => readBackupStatus(connection, prefix));
  const queue = createQueue(Queues.ScheduledBackups, connection, { prefix });
  const jobOptions = { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } };
  await queue.upsertJobScheduler(BACKUP_SCHEDULER_ID, schedulerRepeat(schedule), { name: Queues.ScheduledBackups.name, data: { task: 'backup' }, opts: jobOptions });
  if (verifySchedule) await queue.upsertJobScheduler(BACKUP_VERIFY_SCHEDULER_ID, schedulerRepeat(verifySchedule), { name: Queues.ScheduledBackups.name, data: { task: 'verify' }, opts: jobOptions });
  else await queue.removeJobScheduler(BACKUP_VERIFY_SCHEDULER_ID);
  const log = logger.child({ queue: Queues.ScheduledBackups.name });
  const backup = scheduledBackupProcessor({ settings, retention, schedule, redis: connection, prefix, logger: log });
  // Without a drill schedule a verify job cannot be queued, except one scheduled before it was turned off: it ends at once.
  const verify = verifySchedule ? scheduledVerifyProcessor({ settings, schedule: verifySchedule, redis: connection, prefix, logger: log }) : () => Promise.resolve(null);
  const worker = createWorker(Queues.ScheduledBackups, (data: ScheduledBackupJob) => (data.task === 'verify' ? verify() : backup()), connection, {
    prefix,
    // A backup of a large vault runs for a while: BullMQ must not take it for stalled.
    lockDuration: 10 * 60_000,
  });
  worker.on('error', (error) => log.warn({ err: error }, 'scheduled backup worker error'));
  await worker.waitUntilReady();
  let reported = false;
  const checkMissed = async (): Promise<boolean> => {
    const status = await readBackupStatus(connection, prefix);
    const overdue = status ? backupOverdue(status, Date.now()) : false;
    if (overdue && !reported) log.error({ code: 'BACKUP_MISSED', everyMs, lastSuccess: status?.lastSuccess?.finishedAt ?? null, since: status?.since }, 'scheduled backup missed: no backup succeeded within 1.5 intervals');
    reported = overdue;
    return overdue;
  };
  const watch = setInterval(() => void checkMissed().catch((error: unknown) => log.warn({ err: error }, 'could not read the backup record')), missedCheckMs(everyMs));
  watch.unref();
  log.info({ everyMs, pattern: schedule.pattern, verify: verifySchedule ? (verifySchedule.pattern ?? verifySchedule.everyMs) : 'off', retention, repository: isLocalPath(settings.repository.repository) ? 'local' : settings.repository.repository.split(':')[0] }, 'scheduled backups are on');
  return {
    worker,
    queue,
    checkMissed,
    async close() {
      clearInterval(watch);
      await worker.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
    },
  };
}
