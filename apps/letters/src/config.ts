import { commonConfigSchema, databaseConfigSchema, z } from '@lv/platform/config';

/** Letters needs what every service with a database needs: NATS, Redis (revoked sessions), its database, identity's public key. */
export const lettersConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** How often the milestone release jobs are re-derived from the letters (besides at start): the most a lost job can wait. */
  MILESTONE_REARM_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(600),
});

export type LettersConfig = z.infer<typeof lettersConfigSchema>;
