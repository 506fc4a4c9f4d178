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
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;

/** GET /api/admin/backups: the record (null when no scheduled backup is configured) and whether it is overdue now. */
export const adminBackupsSchema = z.object({
  status: backupStatusSchema.nullable(),
  overdue: z.boolean(),
});
export type AdminBackups = z.infer<typeof adminBackupsSchema>;
