import { commonConfigSchema, databaseConfigSchema, z } from '@lv/platform/config';

/** The timeline needs NATS (events in, RPC), Redis (revoked sessions), its database and identity's public key. */
export const timelineConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** Deadline of one batch `titles` call to a source service; past it the page shows fallback titles instead of failing. */
  TIMELINE_TITLES_TIMEOUT_MS: z.coerce.number().int().positive().default(1500),
});

