/**
 * The one registry of BullMQ queues and their job payloads (the platform's queue helpers are generic
 * and know none of them). Jobs are background work with retries (mail, hashing, timers); domain
 * events travel on JetStream, not here.
 */
export const QueueNames = {
  KeyEmails: 'key-emails',
  MediaHashing: 'media-hashing',
  DeliveryTiming: 'delivery-timing',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];
export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueNames);

/** Sends the e-mail carrying an access key (or a reminder of it) to its recipient. */
export interface SendKeyEmailJob {
  accessKeyId: string;
  recipientEmail: string;
  kind: 'key-issued' | 'reminder';
}

/** Computes the SHA-256 of a stored object and records it on the media item. */
export interface HashMediaJob {
  mediaId: string;
  bucket: string;
  key: string;
  /** The owner's service (vault-media) mints it; the job hands it back with its result, so only it can report for this media. */
  reportToken: string;
}

/** Fires when something scheduled for a later date (a letter's delivery) is due. */
export interface DeliveryTimingJob {
  subjectType: 'letter';
  subjectId: string;
  /** ISO timestamp the job was scheduled for (the delay is computed from it). */
  dueAt: string;
}

export interface JobPayloads {
  'key-emails': SendKeyEmailJob;
  'media-hashing': HashMediaJob;
  'delivery-timing': DeliveryTimingJob;
}

/** The payload of a queue's jobs: `createQueue<JobPayload<'media-hashing'>>(QueueNames.MediaHashing, ...)`. */
export type JobPayload<Q extends QueueName> = JobPayloads[Q];
