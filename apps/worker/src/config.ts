import { commonConfigSchema, objectStorageConfigSchema, z } from '@lv/platform/config';

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
});

export type WorkerConfig = z.infer<typeof workerConfigSchema>;
