import { commonConfigSchema, databaseConfigSchema, z } from '@lv/platform/config';

export const identityConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** PEM of the RS256 private key (or a path to it): only identity mints access tokens. */
  JWT_PRIVATE_KEY: z.string().min(1),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(60 * 60 * 24 * 30),
  /** Failed sign-ins allowed per account, and per client address, inside the window. */
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  SIGNIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  SIGNIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** A used refresh token presented again within this window is a two-tab race, not theft. */
  REFRESH_REUSE_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
