import { commonConfigSchema, databaseConfigSchema, markSecret, objectStorageConfigSchema, z } from '@lv/platform/config';

export const courtJournalConfigSchema = commonConfigSchema
  .extend(databaseConfigSchema.shape)
  .extend(objectStorageConfigSchema.shape)
  .extend({
    /**
     * The internal HTTP listener for byte streams only (upload bodies in, files and evidence bundles
     * out). The gateway proxies to it; NATS carries the commands and events. Not for the outside world.
     */
    COURT_JOURNAL_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
    COURT_JOURNAL_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(3402),
    /** HMAC key of signed file and bundle links and their owner bindings (at least 32 characters). */
    COURT_LINK_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
    /**
     * The evidence key: Ed25519 private key (PKCS#8 PEM) or a path to it. It signs every evidence
     * chain head; its public half is published (rpc.court-journal.public-keys). Required everywhere:
     * a chain head nobody can verify is worth nothing (tools/dev generates one for development).
     */
    EVIDENCE_SIGNING_KEY: markSecret(z.string().min(1), 'identifier'),
    /**
     * Keys that signed heads before the current one, still published so older bundles verify
     * (rotation with overlap): a JSON array of { publicKeyPem (or a path), validFrom, validUntil }.
     */
    EVIDENCE_PREVIOUS_KEYS: z.string().optional(),
    /** An upload ticket not used within this long expires (its PUT is then "not found"). */
    COURT_UPLOAD_TICKET_SECONDS: z.coerce.number().int().positive().default(15 * 60),
    /** How often expired tickets and unfinished object removals are cleaned up. */
    COURT_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().positive().default(60),
  });

