import { z } from 'zod';
import type { SealedText } from './letters.js';

/**
 * If I'm Not There's inactivity trigger: the owner chooses a period with no sign-in (off by default)
 * after which his vault delivery starts, is warned by e-mail before it fires, and checks in by
 * signing in, with the "I'm Still Here" button, or with the link in a warning e-mail.
 */
export const INACTIVITY_PERIODS = [30, 60, 90, 180, 365] as const;
export type InactivityPeriod = (typeof INACTIVITY_PERIODS)[number];
/** The warning e-mails go this many days before the period lapses (every period is at least 30 days). */
export const INACTIVITY_WARNING_DAYS = [14, 3] as const;

export const inactivityWatchSchema = z.object({
  period_days: z.number().int().nullable().meta({ description: 'Days without a sign-in or check-in before the delivery starts; null: off.' }),
  paused: z.boolean(),
  last_seen_at: z.string().nullable().meta({ description: 'The last sign-in or check-in the watch counts from (or when it was set or resumed).' }),
  warnings_at: z.array(z.string()).meta({ description: 'When the warning e-mails are due (empty when off or paused).' }),
  lapse_at: z.string().nullable().meta({ description: 'When the delivery starts without a sign-in or check-in (null when off or paused).' }),
  lapsed_at: z.string().nullable().meta({ description: 'When the watch last started a delivery, if it has.' }),
});
export type InactivityWatch = z.infer<typeof inactivityWatchSchema>;

/** PUT /api/if-im-not-there/inactivity: the period, one of the choices, or null for off. */
export const saveInactivityBodySchema = z.object({
  period_days: z.literal(INACTIVITY_PERIODS, { error: `The period is one of: ${INACTIVITY_PERIODS.join(', ')} days, or off.` }).nullable(),
});
export type SaveInactivityRequest = z.input<typeof saveInactivityBodySchema>;

/** POST /api/still-here (public): the parameters of the check-in link in a warning e-mail, as signed. */
export const checkInLinkBodySchema = z.object({
  w: z.uuid({ error: 'This check-in link is not complete.' }),
  u: z.uuid({ error: 'This check-in link is not complete.' }),
  exp: z.string().regex(/^\d{1,12}$/, { error: 'This check-in link is not complete.' }),
  sig: z.string().min(1).max(100, { error: 'This check-in link is not complete.' }),
});
export type CheckInLinkRequest = z.infer<typeof checkInLinkBodySchema>;

export const checkInReplySchema = z.object({
  checked_in_at: z.string(),
  delivery_cancelled: z.boolean().meta({ description: 'A delivery that had started and not yet happened was stopped.' }),
});
export type CheckInReply = z.infer<typeof checkInReplySchema>;

/** notifications' question before it sends a warning: is it still the current warning of a watch that is on? */
export const inactivityWarningStatePayloadSchema = z.object({ owner_id: z.uuid(), warning_id: z.uuid() });
export const inactivityWarningStateReplySchema = z.object({ state: z.enum(['current', 'stale', 'unknown']) });

/**
 * Wakes an owner's inactivity watch at a time it may be due (a warning or the lapse). The job only
 * wakes access-keys, whose decider checks again: one that fires early, twice or after a check-in
 * does nothing but schedule the next wake.
 */
export interface InactivityTimingJob {
  ownerId: string;
  /** ISO timestamp the job was scheduled for. */
  dueAt: string;
}

/**
 * A warning e-mail to the owner (notifications' worker): his vault delivery starts at `lapseAt`
 * unless he signs in or checks in. Added as `inactivity-warning-<warningId>` inside the transaction
 * that records the warning; sent once, only while access-keys says it is still current.
 */
export interface InactivityWarningJob {
  warningId: string;
  ownerId: string;
  ownerEmail: string;
  /** 1: the first warning (14 days before), 2: the last (3 days before), 0: a test the owner asked for. */
  stage: number;
  lapseAt: string;
  /** The check-in link's path and query (`/still-here?...`), sealed with KEY_MAIL_SECRET. */
  sealedLink: SealedText;
}

export const inactivityWarningSealContext = (warningId: string) => `inactivity-warning:${warningId}`;
