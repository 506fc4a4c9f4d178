import { commonConfigSchema, databaseConfigSchema, z } from '@lv/platform/config';

/** Letters needs what every service with a database needs: NATS, Redis (revoked sessions), its database, identity's public key. */
export const lettersConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape);

export type LettersConfig = z.infer<typeof lettersConfigSchema>;
