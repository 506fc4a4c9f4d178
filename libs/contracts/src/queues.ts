import type { SealedText } from './letters.js';
import type { ViewSection } from './access-keys.js';
import type { InactivityTimingJob, InactivityWarningJob } from './inactivity.js';
import type { AccessRequestNoticeJob } from './access-requests.js';
/**
 * The one registry of BullMQ queues and their job payloads (the platform's queue helpers are generic
 * and know none of them). Jobs are background work with retries (mail, hashing, timers); domain
 * events travel on JetStream, not here.
 */
export const QueueNames = {
  KeyEmails: 'key-emails',
  MediaHashing: 'media-hashing',
  DeliveryTiming: 'delivery-timing',
  TrusteeNotices: 'trustee-notices',
  InactivityTiming: 'inactivity-timing',
  InactivityWarnings: 'inactivity-warnings',
  MilestoneRelease: 'milestone-release',
  AccessRequestNotices: 'access-request-notices',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];
export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueNames);

/**
 * Sends the e-mail carrying an access key to its recipient (notifications' worker). access-keys adds it
 * under the job id `key-<keyId>` before it commits the key, so a committed key always has its job; the
 * worker sends only once access-keys confirms the key exists and is active, and at most once per key.
 */
export interface SendKeyEmailJob {
  keyId: string;
  ownerId: string;
  recipientEmail: string;
  recipientName: string | null;
  /** Who shares the vault, as the e-mail names them (the owner's account e-mail). */
  sharedBy: string;
  /**
   * The key itself, sealed (AES-256-GCM, sealText) with SHA-256(KEY_MAIL_SECRET) under the context
   * `key-email:<keyId>`: only notifications opens it. A sent job is removed from Redis at once.
   */
  sealedKey: SealedText;
  expiresAt: string;
  scopes: ViewSection[];
  /** A milestone key: it opens one letter, sealed for the recipient until today (the e-mail says so). */
  oneLetter?: true;
}

/** What SendKeyEmailJob.sealedKey is bound to (platform queues: sealForJob / openFromJob). */
export const keyEmailSealContext = (keyId: string) => `key-email:${keyId}`;

/** Computes the SHA-256 of a stored object and records it on the media item. */
export interface HashMediaJob {
  mediaId: string;
  bucket: string;
  key: string;
  /** The owner's service (vault-media) mints it; the job hands it back with its result, so only it can report for this media. */
  reportToken: string;
}

/**
 * Fires when something scheduled for a later date is due: an owner's vault delivery (If I'm Not
 * There). The job only wakes the owning service (access-keys), whose decider checks the time again:
 * a job that fires early, twice or after a cancel releases nothing.
 */
export interface DeliveryTimingJob {
  subjectType: 'delivery';
  /** The delivery (release) id. */
  subjectId: string;
  ownerId: string;
  /** ISO timestamp the job was scheduled for (the delay is computed from it). */
  dueAt: string;
  /** The owner's address, shown in the contacts' key e-mails ("… has shared their Legacy Vault with you"). */
  sharedBy: string;
}

/**
 * Tells the owner's trustee (If I'm Not There: "notify trustee") that the vault's delivery has started
 * or has happened (notifications' worker). access-keys adds it under the job id `trustee-<noticeId>`
 * inside the transaction that records the step, so a committed step always has its job; the worker
 * sends only once access-keys confirms the step committed, and at most once per notice.
 */
export interface TrusteeNoticeJob {
  /** `<releaseId>-started` or `<releaseId>-released`: one notice per step of one delivery. */
  noticeId: string;
  releaseId: string;
  ownerId: string;
  kind: 'started' | 'released';
  trusteeEmail: string;
  trusteeName: string | null;
  /** The owner's account e-mail, as the notice names them. */
  sharedBy: string;
  /** When the delivery is due ('started' with a date); null while it waits for legal verification, or once released. */
  dueAt: string | null;
}

export interface JobPayloads {
  'key-emails': SendKeyEmailJob;
  'media-hashing': HashMediaJob;
  'delivery-timing': DeliveryTimingJob;
  'trustee-notices': TrusteeNoticeJob;
  'inactivity-timing': InactivityTimingJob;
  'inactivity-warnings': InactivityWarningJob;
  'milestone-release': MilestoneReleaseJob;
  'access-request-notices': AccessRequestNoticeJob;
}

/** The payload of a queue's jobs: `createQueue<JobPayload<'media-hashing'>>(QueueNames.MediaHashing, ...)`. */
export type JobPayload<Q extends QueueName> = JobPayloads[Q];

/**
 * Wakes a letter sealed until a day (letters' own worker) at the first instant of that day. The job
 * only wakes the letters service, whose decider checks the time again: a job that fires early sleeps
 * again, and a duplicate, a retry or a job of a seal since removed or replaced releases nothing.
 */
export interface MilestoneReleaseJob {
  letterId: string;
  releaseId: string;
  ownerId: string;
  /** ISO timestamp the job was scheduled for (the delay is computed from it). */
  dueAt: string;
}
