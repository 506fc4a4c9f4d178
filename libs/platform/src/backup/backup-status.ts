import type { Redis } from 'ioredis';
import { z } from 'zod';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../observability/metrics.js';

/**
 * The scheduled backup's record: ops data, not business data. The worker writes it to Redis under a
 * fixed key after each run (and its schedule at start); the gateway reads it for /admin and every
 * process that registers the gauges exports it on /metrics. Losing it loses only the history: the
 * snapshots themselves are in the repository.
 */

// The record as stored. The gateway answers it as @lv/contracts' AdminBackups, whose shape is the
// same: the compiler checks the one against the other where the gateway returns it.
const runSchema = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int().min(0),
  ok: z.boolean(),
  snapshot: z.string().nullable(),
  sizeBytes: z.number().min(0).nullable(),
  removedSnapshots: z.number().int().min(0).nullable(),
  errorCode: z.string().nullable(),
  error: z.string().nullable(),
});
/** One scheduled run: when, how long, the snapshot and its size, or the error code (BackupErrorCode, or BACKUP_FAILED). */
export type BackupRun = z.infer<typeof runSchema>;

const verifyRunSchema = runSchema.pick({ startedAt: true, finishedAt: true, durationMs: true, ok: true, snapshot: true, errorCode: true, error: true }).extend({
  objects: z.number().int().min(0).nullable(),
  rows: z.number().int().min(0).nullable(),
  mismatches: z.array(z.string()),
});
/** One scheduled drill (backup:verify of the newest snapshot): what it read back, the differences, or the error code. */
export type BackupVerifyRun = z.infer<typeof verifyRunSchema>;

const verifyStatusSchema = z.object({
  everyMs: z.number().int().positive(),
  pattern: z.string().optional(),
  nextRunAt: z.string().nullable(),
  last: verifyRunSchema.nullable(),
  lastSuccess: verifyRunSchema.nullable(),
});
/** The drill's schedule, its next run, its last run and last success. */
export type BackupVerifyStatus = z.infer<typeof verifyStatusSchema>;

const statusSchema = z.object({
  everyMs: z.number().int().positive(),
  pattern: z.string().optional(),
  nextRunAt: z.string().nullable().optional(),
  since: z.string(),
  last: runSchema.nullable(),
  lastSuccess: runSchema.nullable(),
  verify: verifyStatusSchema.optional(),
});
/** The schedule's interval (or its cron expression and longest gap), its next run, when it was first recorded, the last run and the last success. */
export type BackupStatus = z.infer<typeof statusSchema>;

/** The Redis key of a stack's backup record (`lv:backup:status`, `lv-<STACK_ID>:backup:status`). */
export const backupStatusKey = (prefix: string): string => `${prefix}:backup:status`;

/** The record, or null when no scheduled backup was ever configured (or Redis lost it); a record it cannot read is null too. */
export async function readBackupStatus(redis: Redis, prefix: string): Promise<BackupStatus | null> {
  const raw = await redis.get(backupStatusKey(prefix));
  if (!raw) return null;
  try {
    return statusSchema.parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** Records the schedule (at the worker's start) and, when given, a run's result. */
export async function writeBackupStatus(
  redis: Redis,
  prefix: string,
  update: { everyMs: number; pattern?: string; nextRunAt?: string | null; run?: BackupRun; now?: Date },
): Promise<BackupStatus> {
  const before = await readBackupStatus(redis, prefix);
  const status: BackupStatus = {
    everyMs: update.everyMs,
    ...(update.pattern ? { pattern: update.pattern } : {}),
    ...(update.nextRunAt !== undefined ? { nextRunAt: update.nextRunAt } : {}),
    since: before?.since ?? (update.now ?? new Date()).toISOString(),
    last: update.run ?? before?.last ?? null,
    lastSuccess: update.run?.ok ? update.run : (before?.lastSuccess ?? null),
    ...(before?.verify ? { verify: before.verify } : {}),
  };
  await redis.set(backupStatusKey(prefix), JSON.stringify(status));
  return status;
}

/**
 * Records the drill's schedule (at the worker's start, after the backup's) and, when given, a drill's
 * result, keeping the backup's part of the record. `schedule: null` removes the drill (its schedule was
 * turned off). Nothing is written while the record has no backup schedule.
 */
export async function writeBackupVerifyStatus(
  redis: Redis,
  prefix: string,
  update: { schedule: { everyMs: number; pattern?: string; nextRunAt: string | null } | null; run?: BackupVerifyRun },
): Promise<BackupStatus | null> {
  const before = await readBackupStatus(redis, prefix);
  if (!before) return null;
  const { verify: previous, ...rest } = before;
  const status: BackupStatus = update.schedule
    ? {
        ...rest,
        verify: {
          everyMs: update.schedule.everyMs,
          ...(update.schedule.pattern ? { pattern: update.schedule.pattern } : {}),
          nextRunAt: update.schedule.nextRunAt,
          last: update.run ?? previous?.last ?? null,
          lastSuccess: update.run?.ok ? update.run : (previous?.lastSuccess ?? null),
        },
      }
    : rest;
  await redis.set(backupStatusKey(prefix), JSON.stringify(status));
  return status;
}

/** A run is missed when the last success (or, before any, the schedule's start) is older than 1.5 intervals. */
export const OVERDUE_FACTOR = 1.5;

/** Whether the scheduled backup is overdue at `now`: no success within 1.5 times its interval. */
export function backupOverdue(status: Pick<BackupStatus, 'everyMs' | 'since' | 'lastSuccess'>, now: number): boolean {
  const last = Date.parse(status.lastSuccess?.finishedAt ?? status.since);
  return now - last > status.everyMs * OVERDUE_FACTOR;
}

/**
 * The backup gauges, read from the record at each scrape: lv_backup_last_success_timestamp_seconds,
 * lv_backup_last_run_ok, lv_backup_last_duration_seconds, lv_backup_last_size_bytes, lv_backup_missed,
 * and the drill's lv_backup_verify_last_run_ok and lv_backup_verify_last_success_timestamp_seconds.
 * Nothing is exported while there is no record (no schedule configured).
 */
export function registerBackupMetrics(read: () => Promise<BackupStatus | null>, now: () => number = Date.now): void {
  let reading: Promise<BackupStatus | null> | null = null;
  // The gauges of one scrape share one read.
  const current = () => {
    reading ??= read().catch(() => null).finally(() => setTimeout(() => { reading = null; }, 0).unref());
    return reading;
  };
  const gauge = (name: string, help: string, value: (status: BackupStatus) => number | null) => {
    // Registered again (a schedule restarted in the same process): the newest reader is the one exported.
    metricsRegistry.removeSingleMetric(name);
    return new Gauge({
      name,
      help,
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        const status = await current();
        const v = status ? value(status) : null;
        if (v !== null) this.set(v);
      },
    });
  };
  gauge('lv_backup_last_success_timestamp_seconds', 'When the last successful scheduled backup finished (Unix seconds)', (s) => (s.lastSuccess ? Date.parse(s.lastSuccess.finishedAt) / 1000 : null));
  gauge('lv_backup_last_run_ok', 'Whether the last scheduled backup succeeded (1) or failed (0)', (s) => (s.last ? Number(s.last.ok) : null));
  gauge('lv_backup_last_duration_seconds', 'How long the last scheduled backup ran', (s) => (s.last ? s.last.durationMs / 1000 : null));
  gauge('lv_backup_last_size_bytes', 'Bytes the last successful backup holds', (s) => s.lastSuccess?.sizeBytes ?? null);
  gauge('lv_backup_missed', 'Whether the scheduled backup is overdue (1): no success within 1.5 times its interval', (s) => Number(backupOverdue(s, now())));
  gauge('lv_backup_verify_last_run_ok', 'Whether the last scheduled backup:verify found the newest snapshot as its manifest says (1) or not (0)', (s) => (s.verify?.last ? Number(s.verify.last.ok) : null));
  gauge('lv_backup_verify_last_success_timestamp_seconds', 'When the last scheduled backup:verify that held finished (Unix seconds)', (s) => (s.verify?.lastSuccess ? Date.parse(s.verify.lastSuccess.finishedAt) / 1000 : null));
}
