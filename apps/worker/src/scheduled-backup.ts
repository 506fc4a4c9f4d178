import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { Queues, SERVICES, type JobOf } from '@lv/contracts';
import { BackupError, backupOverdue, backupSecrets, readBackupStatus, registerBackupMetrics, Restic, runBackup, serviceDatabase, writeBackupStatus, type BackupRun, type BackupSettings, type RetentionPolicy } from '@lv/platform/backup';
import { ConfigError } from '@lv/platform/config';
import type { Logger } from '@lv/platform/logging';
import { createQueue, createWorker, queuePrefix, type QueueWorker, type TypedQueue } from '@lv/platform/queues';
import { nextBackupAt, schedulerRepeat, type BackupSchedule } from './backup-schedule.js';
import type { WorkerConfig } from './config.js';

/** The job scheduler's id: one schedule per stack, replaced (not added to) when the worker restarts with another. */
export const BACKUP_SCHEDULER_ID = 'scheduled-backup';

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
  retention: RetentionPolicy;
  connection: Redis;
  logger: Logger;
  /** The stack's queue prefix (queuePrefix()): the job scheduler and the record live under it. */
  prefix?: string;
}

/**
 * Starts the scheduled backup: the job scheduler (every BACKUP_SCHEDULE: an interval's first run is at
 * once, a cron expression's at its first time), its worker, and the backup gauges on this process's metrics.
 */
export async function startScheduledBackups(options: ScheduledBackupOptions): Promise<ScheduledBackups> {
  const { settings, schedule, retention, connection, logger } = options;
  const { everyMs } = schedule;
  const prefix = options.prefix ?? queuePrefix();
  await writeBackupStatus(connection, prefix, scheduleRecord(schedule, new Date()));
  registerBackupMetrics(() => readBackupStatus(connection, prefix));
  const queue = createQueue(Queues.ScheduledBackups, connection, { prefix });
  await queue.upsertJobScheduler(BACKUP_SCHEDULER_ID, schedulerRepeat(schedule), { name: Queues.ScheduledBackups.name, data: {}, opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } });
  const log = logger.child({ queue: Queues.ScheduledBackups.name });
  const worker = createWorker(Queues.ScheduledBackups, scheduledBackupProcessor({ settings, retention, schedule, redis: connection, prefix, logger: log }), connection, {
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
  log.info({ everyMs, pattern: schedule.pattern, retention, repository: isLocalPath(settings.repository.repository) ? 'local' : settings.repository.repository.split(':')[0] }, 'scheduled backups are on');
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
