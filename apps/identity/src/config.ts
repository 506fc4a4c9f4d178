import { commonConfigSchema, databaseConfigSchema, markSecret, z } from '@lv/platform/config';

export const identityConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** PEM of the RS256 private key (or a path to it): only identity mints access tokens. */
  JWT_PRIVATE_KEY: z.string().min(1),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(60 * 60 * 24 * 30),
  /**
   * Failed sign-ins allowed inside the window: per account from one address, per address, per account
   * from all unknown devices together (a ceiling, within NIST 800-63B's 100 an hour), and per device
   * that signed in to the account before (the gateway's lv_device cookie), which failures elsewhere never touch.
   */
  SIGNIN_MAX_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().positive().default(5),
  SIGNIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(25),
  SIGNIN_MAX_FAILURES_PER_DEVICE: z.coerce.number().int().positive().default(10),
  SIGNIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** Sign-ups allowed per client address inside SIGNUP_WINDOW_SECONDS. */
  SIGNUP_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(10),
  SIGNUP_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  /** A used refresh token presented again within this window is a two-tab race, not theft. */
  REFRESH_REUSE_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Seals a password reset link inside its e-mail job while it waits in Redis; only notifications opens it. */
  KEY_MAIL_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
  /** How long a password reset link works. */
  PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().min(1).default(30 * 60),
  /** How long a new address's confirm link works, and the old address's undo link. */
  EMAIL_CHANGE_TTL_SECONDS: z.coerce.number().int().min(1).default(24 * 3600),
  EMAIL_CHANGE_UNDO_TTL_SECONDS: z.coerce.number().int().min(1).default(7 * 24 * 3600),
  /** How long an address's verification link works. */
  EMAIL_VERIFY_TTL_SECONDS: z.coerce.number().int().min(1).default(24 * 3600),
  /** Deleting the account: how long the owner can still keep it (7 days), and how often its timers are re-derived from account_deletions besides at start. */
  ACCOUNT_DELETION_GRACE_SECONDS: z.coerce.number().int().min(1).default(7 * 24 * 3600),
  ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(300),
  /** "Forgot password?" requests allowed inside PASSWORD_RESET_WINDOW_SECONDS: per e-mail address asked about, and per client address. */
  PASSWORD_RESETS_PER_EMAIL: z.coerce.number().int().positive().default(3),
  PASSWORD_RESETS_PER_ADDRESS: z.coerce.number().int().positive().default(10),
  PASSWORD_RESET_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  /**
   * The site's public address, as people's browsers open it: passkeys are bound to its host name
   * (WebAuthn's RP ID) and only answers made on its origin are accepted.
   */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
