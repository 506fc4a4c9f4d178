import { z } from 'zod';
import { viewSectionSchema } from './access-keys.schemas.js';
import { queue, type JobOf } from './job-queue.js';
import { sealedTextSchema } from './sealed-text.schemas.js';

/**
 * The one registry of BullMQ queues, each declared once with the schema of its jobs' data (the
 * platform's queue helpers are generic and know none of them). Jobs are background work with
 * retries (mail, hashing, timers); domain events travel on JetStream, not here.
 */

const id = z.string().min(1);
/** Every reader of these runs Date.parse on them. */
const timestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), { message: 'expected a timestamp' });

export const Queues = {
  /**
   * Sends the e-mail carrying an access key to its recipient (notifications' worker). access-keys adds it
   * under the job id `key-<keyId>` before it commits the key, so a committed key always has its job; the
   * worker sends only once access-keys confirms the key exists and is active, and at most once per key.
   */
  KeyEmails: queue('key-emails', z.object({
    keyId: id,
    ownerId: id,
    recipientEmail: z.string().min(1),
    recipientName: z.string().nullable(),
    /** Who shares the vault, as the e-mail names them (the owner's account e-mail). */
    sharedBy: z.string().min(1),
    /**
     * The key itself, sealed (AES-256-GCM, sealText) with SHA-256(KEY_MAIL_SECRET) under the context
     * `key-email:<keyId>`: only notifications opens it. A sent job is removed from Redis at once.
     */
    sealedKey: sealedTextSchema,
    expiresAt: timestamp,
    scopes: z.array(viewSectionSchema),
    /** A milestone key: it opens one letter, sealed for the recipient until today (the e-mail says so). */
    oneLetter: z.literal(true).optional(),
  })),

  /** Computes the SHA-256 of a stored object and records it on the media item. */
  MediaHashing: queue('media-hashing', z.object({
    mediaId: id,
    bucket: z.string().min(1),
    key: z.string().min(1),
    /** The owner's service (vault-media) mints it; the job hands it back with its result, so only it can report for this media. */
    reportToken: z.string().min(1),
  })),

  /**
   * Makes a recording's (or uploaded video or audio file's) playback rendition: H.264/AAC MP4 with
   * faststart (AAC in MP4 for audio), a poster JPEG for a video, and its duration (the worker, with
   * ffmpeg). vault-media adds it under the job id of the recording from its outbox; the original is
   * never touched. The result goes back with the report token, like media-hashing's.
   */
  MediaTranscoding: queue('media-transcoding', z.object({
    mediaId: id,
    bucket: z.string().min(1),
    /** The original's object key; the rendition and poster go beside it (`<key>.rendition.mp4`, `<key>.poster.jpg`). */
    key: z.string().min(1),
    type: z.enum(['video', 'audio']),
    reportToken: z.string().min(1),
  })),

  /**
   * Fires when something scheduled for a later date is due: an owner's vault delivery (If I'm Not
   * There). The job only wakes the owning service (access-keys), whose decider checks the time again:
   * a job that fires early, twice or after a cancel releases nothing.
   */
  DeliveryTiming: queue('delivery-timing', z.object({
    subjectType: z.literal('delivery'),
    /** The delivery (release) id. */
    subjectId: id,
    ownerId: id,
    /** When the job was scheduled for (the delay is computed from it). */
    dueAt: timestamp,
    /** The owner's address, shown in the contacts' key e-mails ("… has shared their Legacy Vault with you"). */
    sharedBy: z.string().min(1),
  })),

  /**
   * Tells the owner's trustee (If I'm Not There: "notify trustee") that the vault's delivery has started
   * or has happened (notifications' worker). access-keys adds it under the job id `trustee-<noticeId>`
   * inside the transaction that records the step, so a committed step always has its job; the worker
   * sends only once access-keys confirms the step committed, and at most once per notice.
   */
  TrusteeNotices: queue('trustee-notices', z.object({
    /** `<releaseId>-started` or `<releaseId>-released`: one notice per step of one delivery. */
    noticeId: id,
    releaseId: id,
    ownerId: id,
    kind: z.enum(['started', 'released']),
    trusteeEmail: z.string().min(1),
    trusteeName: z.string().nullable(),
    /** The owner's account e-mail, as the notice names them. */
    sharedBy: z.string().min(1),
    /** When the delivery is due ('started' with a date); null while it waits for legal verification, or once released. */
    dueAt: timestamp.nullable(),
  })),

  /**
   * Wakes an owner's inactivity watch at a time it may be due (a warning or the lapse). The job only
   * wakes access-keys, whose decider checks again: one that fires early, twice or after a check-in
   * does nothing but schedule the next wake.
   */
  InactivityTiming: queue('inactivity-timing', z.object({
    ownerId: id,
    /** When the job was scheduled for. */
    dueAt: timestamp,
  })),

  /**
   * A warning e-mail to the owner (notifications' worker): his vault delivery starts at `lapseAt`
   * unless he signs in or checks in. Added as `inactivity-warning-<warningId>` inside the transaction
   * that records the warning; sent once, only while access-keys says it is still current.
   */
  InactivityWarnings: queue('inactivity-warnings', z.object({
    warningId: id,
    ownerId: id,
    ownerEmail: z.string().min(1),
    /** 1: the first warning (14 days before), 2: the last (3 days before), 0: a test the owner asked for. */
    stage: z.number().int().min(0),
    lapseAt: timestamp,
    /** The check-in link's path and query (`/still-here?...`), sealed with KEY_MAIL_SECRET (inactivityWarningSealContext). */
    sealedLink: sealedTextSchema,
  })),

  /**
   * A trustee's link by e-mail (notifications' worker): the invitation to accept the role, or the link
   * they asked for again. access-keys adds it as `trustee-link-<linkId>` inside the transaction that
   * records the link (only its hash); the worker sends once, only while it is still the trustee's current link.
   */
  TrusteeLinks: queue('trustee-links', z.object({
    linkId: id,
    ownerId: id,
    trusteeId: id,
    kind: z.enum(['invitation', 'link']),
    trusteeEmail: z.string().min(1),
    trusteeName: z.string(),
    /** The owner as the e-mail names them (their display name, or their account e-mail). */
    ownerName: z.string().min(1),
    expiresAt: timestamp,
    /** The link's path and query (`/trustee?...`), sealed with KEY_MAIL_SECRET (trusteeLinkSealContext). */
    sealedLink: sealedTextSchema,
  })),

  /**
   * An e-mail about a trustee's report (notifications' worker): to the owner at once ('reported') and
   * during his veto window ('reminder', a delayed job), and to the reporter once the owner's sign of
   * life closed it ('withdrawn'). access-keys adds it as `trustee-report-<noticeId>` inside the
   * transaction that records the report or its close; the job carries no personal data: the worker asks
   * access-keys for the report (still open? closed?) and identity for the owner's address, and sends
   * at most once.
   */
  TrusteeReportNotices: queue('trustee-report-notices', z.object({
    /** `<reportId>-reported`, `<reportId>-reminder-1|2`, `<reportId>-withdrawn`. */
    noticeId: id,
    reportId: id,
    ownerId: id,
    kind: z.enum(['reported', 'reminder', 'withdrawn']),
  })),

  /**
   * Wakes a letter sealed until a day (letters' own worker) at the first instant of that day. The job
   * only wakes the letters service, whose decider checks the time again: a job that fires early sleeps
   * again, and a duplicate, a retry or a job of a seal since removed or replaced releases nothing.
   */
  MilestoneRelease: queue('milestone-release', z.object({
    letterId: id,
    releaseId: id,
    ownerId: id,
    /** When the job was scheduled for (the delay is computed from it). */
    dueAt: timestamp,
  })),

  /**
   * Tells the owner at once that someone asked for access (notifications' worker). access-keys adds it
   * under the job id `request-notice-<requestId>-<eventId>` (the event its attempt appends: an attempt
   * killed before its commit does not hold the id its retry needs) inside the transaction that records
   * the request, so a committed request always has its job; the job carries no personal data: the worker asks access-keys
   * for the request (still pending?) and identity for the owner's address (switch on?), and sends at
   * most once.
   */
  AccessRequestNotices: queue('access-request-notices', z.object({
    requestId: id,
    ownerId: id,
  })),

  /**
   * An e-mail about the owner's own account (notifications' worker): the password reset link, or the
   * notice that his password was changed. identity adds it under the job id `account-email-<emailId>`
   * once the fact it tells of has committed (a request lost in between is simply asked again).
   */
  AccountEmails: queue('account-emails', z.object({
    emailId: id,
    userId: id,
    /** email-change-confirm goes to the new address (its confirm link); email-change-notice to the old one (its undo link). */
    /** verify-email: a new account's address (or a resend), its verification link. */
    /** account-deletion-scheduled: the account is deleted at `expiresAt` unless the owner keeps it (its undo link). */
    kind: z.enum(['password-reset', 'password-changed', 'email-change-confirm', 'email-change-notice', 'new-sign-in', 'verify-email', 'account-deletion-scheduled']),
    to: z.string().min(1),
    /** When it happened (a reset asked for, a password changed). */
    at: timestamp,
    /** password-reset, email-change-*, new-sign-in, verify-email: the link's path and fragment (`/reset-password#...`, `/confirm-email#...`, `/undo-email-change#...`, `/not-me#...`, `/verify-email#...`), sealed with KEY_MAIL_SECRET (accountEmailSealContext). */
    sealedLink: sealedTextSchema.optional(),
    /** password-reset, email-change-*, new-sign-in, verify-email: when the link stops working. */
    expiresAt: timestamp.optional(),
    /** new-sign-in: the browser and system that signed in, read from its user agent ("Firefox on Windows"). */
    device: z.string().max(100).optional(),
  })),

  /**
   * Erases an account whose deletion's grace period is over (identity's own worker): one delayed job per
   * deletion, id `account-erasure-<deletionId>`. Only ids and the due time: identity's stream decides,
   * so a job of a deletion undone since, or woken early, erases nothing. Identity re-derives the jobs from
   * its account_deletions table at start and periodically (a Redis flush loses none).
   */
  AccountErasure: queue('account-erasure', z.object({
    userId: id,
    deletionId: id,
    dueAt: timestamp,
  })),

  /**
   * The scheduled backup and its drill, on one queue so that one worker runs them one at a time (a
   * verify never reads a snapshot half written). `backup` (job scheduler `scheduled-backup`, every
   * BACKUP_SCHEDULE): one snapshot of every database, bucket and key into the restic repository, then
   * retention. `verify` (job scheduler `scheduled-backup-verify`, every BACKUP_VERIFY_SCHEDULE): the
   * newest snapshot restored into scratch databases and buckets and checked against its manifest. What
   * to back up is the worker's configuration. One attempt; the next run is the retry.
   */
  ScheduledBackups: queue('scheduled-backups', z.object({
    /** A job scheduled before the drill existed carries no task: it is a backup. */
    task: z.enum(['backup', 'verify']).default('backup'),
  })),
} as const;

/** The seal of an account e-mail's link (identity seals, notifications opens). */
export const accountEmailSealContext = (emailId: string) => `account-email:${emailId}`;

export type SendKeyEmailJob = JobOf<typeof Queues.KeyEmails>;
export type HashMediaJob = JobOf<typeof Queues.MediaHashing>;
export type TranscodeMediaJob = JobOf<typeof Queues.MediaTranscoding>;
export type TrusteeLinkJob = JobOf<typeof Queues.TrusteeLinks>;
export type DeliveryTimingJob = JobOf<typeof Queues.DeliveryTiming>;
export type TrusteeNoticeJob = JobOf<typeof Queues.TrusteeNotices>;
export type InactivityTimingJob = JobOf<typeof Queues.InactivityTiming>;
export type InactivityWarningJob = JobOf<typeof Queues.InactivityWarnings>;
export type MilestoneReleaseJob = JobOf<typeof Queues.MilestoneRelease>;
export type AccessRequestNoticeJob = JobOf<typeof Queues.AccessRequestNotices>;
export type AccountEmailJob = JobOf<typeof Queues.AccountEmails>;
export type TrusteeReportNoticeJob = JobOf<typeof Queues.TrusteeReportNotices>;

export type AccountErasureJob = JobOf<typeof Queues.AccountErasure>;

export type QueueName = (typeof Queues)[keyof typeof Queues]['name'];
/** Every queue (the admin board and the CLI's jobs commands list them). */
export const ALL_QUEUE_DECLARATIONS = Object.values(Queues);
export const ALL_QUEUES: readonly QueueName[] = ALL_QUEUE_DECLARATIONS.map((declared) => declared.name);

/** What SendKeyEmailJob.sealedKey is bound to (platform queues: sealForJob / openFromJob). */
export const keyEmailSealContext = (keyId: string) => `key-email:${keyId}`;
