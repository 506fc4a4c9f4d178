import { TRUSTEE_REPORT_VETO_HOURS_MIN, ACCESS_REQUESTS_PER_HOUR, REDEEM_FAILURES_PER_MINUTE, REQUEST_FORM_LOOKUPS_PER_MINUTE } from '@lv/contracts';
import { commonConfigSchema, databaseConfigSchema, markSecret, z } from '@lv/platform/config';

export const accessKeysConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /**
   * The viewer tokens' private key (RS256, PKCS#8 PEM) or a path to it. access-keys alone holds it: it
   * mints a viewer token when a key is redeemed and renews it from the view session's secret.
   */
  VIEWER_JWT_PRIVATE_KEY: z.string().min(1),
  /**
   * Seals each key inside its e-mail job while the job waits in Redis (AES-256-GCM under its SHA-256);
   * notifications holds the same secret to open it. At least 32 characters.
   */
  KEY_MAIL_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
  /** Redemption and session renewal: failed attempts per client address per minute before 429. */
  REDEEM_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(REDEEM_FAILURES_PER_MINUTE),
  /** The public request form: submissions per client address per hour. */
  ACCESS_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(ACCESS_REQUESTS_PER_HOUR),
  /** The request page's lookups of a link's vault (request-form) per client address per minute. */
  REQUEST_FORM_LOOKUPS_PER_MINUTE: z.coerce.number().int().positive().default(REQUEST_FORM_LOOKUPS_PER_MINUTE),
  /**
   * The owner's veto window after a trustee's report, in hours (fractions allowed so the specs can
   * wait seconds). Production refuses to boot below 72: nothing may be released sooner.
   */
  TRUSTEE_REPORT_VETO_HOURS: z.coerce.number().positive().default(TRUSTEE_REPORT_VETO_HOURS_MIN),
  /**
   * How often every timed job (deliveries due, inactivity wakes, trustee report notices) is re-derived
   * from the event streams, besides at start (timers/timer-rearm.ts): the most a job Redis lost can wait.
   */
  TIMER_REARM_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(600),
}).superRefine((config, ctx) => {
  if (config.NODE_ENV === 'production' && config.TRUSTEE_REPORT_VETO_HOURS < TRUSTEE_REPORT_VETO_HOURS_MIN) {
    ctx.addIssue({ code: 'custom', path: ['TRUSTEE_REPORT_VETO_HOURS'], message: `must be at least ${TRUSTEE_REPORT_VETO_HOURS_MIN} in production (the owner's veto window)` });
  }
});

export type AccessKeysConfig = z.infer<typeof accessKeysConfigSchema>;
