// notifications' subjects: its RPC (operator commands) and its events, which access-keys reads back.
import { z } from 'zod';
import { keyEmailResendReplySchema, keyIdPayloadSchema } from './access-keys.schemas.js';
import { healthRpc, rebuildRpc, rpc } from './rpc.js';
import { event } from './events.js';

/** E-mail (key e-mails today): BullMQ jobs on the key-emails queue, sent over SMTP at most once per key. */
export const NotificationsRpc = {
  health: healthRpc('notifications'),
  /** Operator (ops CLI): retry a key e-mail whose job failed; says so when it was already sent. */
  resendKeyEmail: rpc('rpc.notifications.op.resend-key-email', { payload: keyIdPayloadSchema, reply: keyEmailResendReplySchema }),
  rebuildProjections: rebuildRpc('notifications'),
} as const;


/**
 * How a key e-mail's failure reason starts when a daily cap stopped it (notifications writes it,
 * access-keys reads it to tell the owner why, rather than a bare "failed").
 */
export const KEY_EMAIL_DAILY_LIMIT_REASON = 'daily-limit';

/** The reason access-keys records for a key made while its owner's address was unverified: no e-mail was queued at all. */
export const KEY_EMAIL_NOT_VERIFIED_REASON = 'email-not-verified';

/** Why a key e-mail was not sent, as the owner is told: a daily cap, the owner's address not verified yet, or the mail server's refusal. */
export type KeyEmailFailure = 'daily_limit' | 'email_not_verified' | 'undeliverable';

export function keyEmailFailureOf(reason: string): KeyEmailFailure {
  if (reason.startsWith(`${KEY_EMAIL_DAILY_LIMIT_REASON}:`)) return 'daily_limit';
  return reason === KEY_EMAIL_NOT_VERIFIED_REASON ? 'email_not_verified' : 'undeliverable';
}

/** Each key e-mail's outcome, for access-keys to show the key's e-mail status. */
export const NotificationsEvents = {
  KeyEmailSent: event('notifications.key-email.sent.v1', z.object({
    keyId: z.string(), sentAt: z.string(),
    /** The Message-ID the SMTP server accepted. */
    messageId: z.string(),
  })),
  KeyEmailFailed: event('notifications.key-email.failed.v1', z.object({ keyId: z.string(), failedAt: z.string(), attempts: z.number().int().min(0), reason: z.string() })),
} as const;

