import { DEFAULT_MAX_UPLOAD_BYTES } from '@lv/contracts';
import { commonConfigSchema, databaseConfigSchema, markSecret, objectStorageConfigSchema, z } from '@lv/platform/config';

export const vaultMediaConfigSchema = commonConfigSchema
  .extend(databaseConfigSchema.shape)
  .extend(objectStorageConfigSchema.shape)
  .extend({
    /**
     * The internal HTTP listener for byte streams only (upload bodies in, Range reads out). The
     * gateway proxies to it; NATS carries the commands and events. Not for the outside world.
     */
    MEDIA_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
    MEDIA_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(3401),
    /** HMAC key of signed playback links, owner bindings and the hashing jobs' report tokens (at least 32 characters). */
    MEDIA_LINK_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
    /** Largest recording accepted, in bytes (default 500 MiB): a bigger one is refused with 413. */
    MEDIA_MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(DEFAULT_MAX_UPLOAD_BYTES),
    /** Multipart part size in MiB (8-16 keeps memory flat; S3 requires at least 5). */
    MEDIA_PART_SIZE_MB: z.coerce.number().int().min(5).max(64).default(8),
    /** An upload with no progress for this long is considered dead (its process died) and swept. */
    MEDIA_UPLOAD_STALE_SECONDS: z.coerce.number().int().positive().default(600),
    /**
     * A resumable upload (the app's, over tus) waits this long for its owner to come back (a closed
     * tab, a phone out of signal) before it is swept; a single PUT only MEDIA_UPLOAD_STALE_SECONDS.
     */
    MEDIA_RESUMABLE_STALE_HOURS: z.coerce.number().positive().default(24),
    /** How often the sweeper looks for dead uploads. */
    MEDIA_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().positive().default(60),
  });

export type VaultMediaConfig = z.infer<typeof vaultMediaConfigSchema>;
