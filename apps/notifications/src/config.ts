import { commonConfigSchema, databaseConfigSchema, markSecret, z } from '@lv/platform/config';

export const notificationsConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** The SMTP server key e-mails leave through: the dev stack's catcher, any provider in production. */
  SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  SMTP_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Never upgrade to TLS (the dev stack's catcher, whose bundled certificate has expired). */
  SMTP_IGNORE_TLS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  MAIL_FROM: z.string().min(3).default('Legacy Vault <no-reply@legacy-vault.local>'),
  /** Opens the key sealed in each job (access-keys seals it with the same secret). At least 32 characters. */
  KEY_MAIL_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
  /** Where the links in key e-mails point: the address family members open. */
  PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  /**
   * How long a worker's hold on a job lasts without renewal: a worker that died mid-send gives its job
   * back to the others after about this long (BullMQ lockDuration and stalled check).
   */
  KEY_EMAIL_LOCK_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** Key e-mails sent at once by one process. */
  KEY_EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Key e-mails sent for one owner in a rolling 24 hours; past it they fail with 'daily-limit' (an owner's session cannot mail-bomb in the product's name). */
  KEY_EMAILS_PER_OWNER_PER_DAY: z.coerce.number().int().min(1).default(50),
  /** Key e-mails sent to one address in a rolling 24 hours, whoever the owner; past it they fail with 'daily-limit'. */
  KEY_EMAILS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).default(5),
});

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
