import type { SealedText } from './letters.js';

/**
 * If I'm Not There's inactivity trigger: the owner chooses a period with no sign-in (off by default)
 * after which his vault delivery starts, is warned by e-mail before it fires, and checks in by
 * signing in, with the "I'm Still Here" button, or with the link in a warning e-mail. (No zod here:
 * the web app imports these constants without the schemas.)
 */
export const INACTIVITY_PERIODS = [30, 60, 90, 180, 365] as const;
export type InactivityPeriod = (typeof INACTIVITY_PERIODS)[number];
/** The warning e-mails go this many days before the period lapses (every period is at least 30 days). */
export const INACTIVITY_WARNING_DAYS = [14, 3] as const;

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
