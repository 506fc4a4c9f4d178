/**
 * If I'm Not There's inactivity trigger: the owner chooses a period with no sign-in (off by default)
 * after which his vault delivery starts, is warned by e-mail before it fires, and checks in by
 * signing in, with the "I'm Still Here" button, or with the link in a warning e-mail. (No zod here:
 * the web app imports these constants without the schemas; the jobs are declared in queues.ts.)
 */
export const INACTIVITY_PERIODS = [30, 60, 90, 180, 365] as const;
/** The warning e-mails go this many days before the period lapses (every period is at least 30 days). */
export const INACTIVITY_WARNING_DAYS = [14, 3] as const;

export const InactivityMessages = {
  verifyEmailFirst: 'Verify your e-mail address first: we send the inactivity warnings, and start the delivery, only once you have opened the link we e-mailed you.',
} as const;

/** What an InactivityWarningJob's sealedLink is bound to (platform queues: sealForJob / openFromJob). */
export const inactivityWarningSealContext = (warningId: string) => `inactivity-warning:${warningId}`;
