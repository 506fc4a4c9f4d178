import { z } from 'zod';

/**
 * The scheduled backup's record (ops data, not business data): the worker writes it to Redis after
 * each run, the gateway reads it for /admin, the worker's metrics export it.
 */

/** One scheduled run. */
export const backupRunSchema = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int().min(0),
  ok: z.boolean(),
  /** The snapshot's id (a run that failed has none). */
  snapshot: z.string().nullable(),
  /** Bytes the snapshot holds (restic's total processed), null when the run failed. */
  sizeBytes: z.number().min(0).nullable(),
  /** Snapshots retention removed after this backup. */
  removedSnapshots: z.number().int().min(0).nullable(),
  /** BACKUP_WRONG_PASSWORD, BACKUP_UNREACHABLE... or BACKUP_FAILED for anything else. */
  errorCode: z.string().nullable(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

/**
 * One scheduled drill: the newest snapshot restored into scratch databases and buckets and read back
 * against its manifest. `ok`: every object, table and key as the manifest says; `snapshot`: the one
 * checked (null when none could be read); `errorCode`: BACKUP_VERIFY_FAILED (differences),
 * BACKUP_UNKNOWN_SNAPSHOT, BACKUP_WRONG_PASSWORD... or BACKUP_FAILED.
 */
export const backupVerifyRunSchema = backupRunSchema.pick({ startedAt: true, finishedAt: true, durationMs: true, ok: true, snapshot: true, errorCode: true, error: true }).extend({
  /** What was read back: objects, table rows and key files (null when the drill could not run). */
  objects: z.number().int().min(0).nullable(),
  rows: z.number().int().min(0).nullable(),
  /** Differences from the manifest (the first ones, in words), empty when it held. */
  mismatches: z.array(z.string()),
});
export type BackupVerifyRun = z.infer<typeof backupVerifyRunSchema>;

/** The drill's schedule (BACKUP_VERIFY_SCHEDULE) and its runs. */
export const backupVerifyStatusSchema = z.object({
  everyMs: z.number().int().positive(),
  pattern: z.string().optional(),
  nextRunAt: z.string().nullable(),
  last: backupVerifyRunSchema.nullable(),
  lastSuccess: backupVerifyRunSchema.nullable(),
});
export type BackupVerifyStatus = z.infer<typeof backupVerifyStatusSchema>;

/** The record in Redis. */
export const backupStatusSchema = z.object({
  /** The schedule's interval: a run is missed when the last success is older than 1.5 times it. */
  everyMs: z.number().int().positive(),
  /** BACKUP_SCHEDULE's cron expression (UTC), when the schedule is one; everyMs is then its longest gap between two runs. */
  pattern: z.string().optional(),
  /** When the job scheduler runs the backup next (absent in a record written before it was kept). */
  nextRunAt: z.string().nullable().optional(),
  /** When the schedule was first recorded: before any success, a run is missed 1.5 intervals after it. */
  since: z.string(),
  last: backupRunSchema.nullable(),
  lastSuccess: backupRunSchema.nullable(),
  /** The scheduled drill, absent when BACKUP_VERIFY_SCHEDULE is off. */
  verify: backupVerifyStatusSchema.optional(),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;

/** GET /api/admin/backups: the record (null when no scheduled backup is configured) and whether it is overdue now. */
export const adminBackupsSchema = z.object({
  status: backupStatusSchema.nullable(),
  overdue: z.boolean(),
});
export type AdminBackups = z.infer<typeof adminBackupsSchema>;
