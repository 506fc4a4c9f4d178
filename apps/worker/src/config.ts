import { commonConfigSchema, markSecret, objectStorageConfigSchema, z } from '@lv/platform/config';
import { DEFAULT_VERIFY_SCHEDULE, isRefusal, parseBackupRetention, parseBackupSchedule, parseVerifySchedule } from './backup-schedule.js';

/** A setting read by one of backup-schedule's parsers: its value, or the parser's reason as the variable's error. */
const readWith = <T>(parse: (value: string) => T | { error: string }) => (value: string, ctx: z.RefinementCtx): T => {
  const parsed = parse(value);
  if (isRefusal(parsed)) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed;
};

export const workerConfigSchema = commonConfigSchema.extend(objectStorageConfigSchema.shape).extend({
  /** Jobs of the media-hashing queue worked at once by this process. */
  MEDIA_HASHING_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Jobs of the media-transcoding queue worked at once by this process (each runs ffmpeg, CPU-heavy). */
  MEDIA_TRANSCODING_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /**
   * Where the worker answers GET /health (its containers' health checks); 0 = no health listener
   * (the dev stack). It binds 127.0.0.1 unless WORKER_HEALTH_HOST says otherwise. OPS_HTTP_PORT (every
   * process's ops listener: metrics, /health/live, /health/ready, and /health) takes precedence.
   */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Unset = the loopback. */
  WORKER_HEALTH_HOST: z.string().min(1).optional(),

  /**
   * The scheduled backup (README, "Backups and restores"): off while BACKUP_REPOSITORY is unset. With
   * it, the worker takes what `npm run vault -- backup` takes every BACKUP_SCHEDULE and applies
   * BACKUP_RETENTION; the repository password comes from BACKUP_PASSWORD or BACKUP_PASSWORD_FILE.
   */
  BACKUP_REPOSITORY: z.string().min(1).optional(),
  BACKUP_PASSWORD: markSecret(z.string().min(1).optional(), 'secret'),
  BACKUP_PASSWORD_FILE: z.string().min(1).optional(),
  BACKUP_SCHEDULE: z.string().default('daily').transform(readWith(parseBackupSchedule)),
  /**
   * When the scheduled backup is proved (README, "Backups and restores"): the newest snapshot restored
   * into scratch databases and buckets and checked as `npm run vault -- backup:verify latest` checks
   * it. Default Sundays at 04:00 UTC; `off` turns it off; otherwise what BACKUP_SCHEDULE takes.
   */
  BACKUP_VERIFY_SCHEDULE: z.string().default(DEFAULT_VERIFY_SCHEDULE).transform(readWith(parseVerifySchedule)),
  BACKUP_RETENTION: z.string().default('').transform(readWith(parseBackupRetention)),
  /** A database URL on the server that holds every service's database (a role that reads them all). */
  POSTGRES_URL: markSecret(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), 'url-password').optional(),
  DATABASE_PREFIX: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and "_"').default('lv_'),
  /** The services whose databases a backup takes (default: every service). */
  BACKUP_SERVICES: z.string().optional(),
  BACKUP_KEYS_DIR: z.string().min(1).default('.data/keys'),
  BACKUP_STAGING_DIR: z.string().min(1).optional(),
});

export type WorkerConfig = z.infer<typeof workerConfigSchema>;
