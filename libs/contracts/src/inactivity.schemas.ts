import { z } from 'zod';
import { INACTIVITY_PERIODS } from './inactivity.js';

/** The inactivity watch's wire shapes (the constants and job payloads are in inactivity.ts). */
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
