import { NotCommittedYet } from '../mail-dead-letter.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { trusteeLinkSealContext, type TrusteeLinkJob } from '@lv/contracts';
import { EventStore } from '@lv/platform/event-store';
import { openFromJob } from '@lv/platform/queues';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { recordSendFailed, sendOnce, sendOnceDecider, sendOnceProjection, type SendOnceKind } from '../send-once/send-once.js';
import { renderTrusteeLink } from './trustee-link-message.js';

/** access-keys' answer to "is this still the trustee's current link?". */
export type TrusteeLinkState = (ownerId: string, trusteeId: string, linkId: string) => Promise<'current' | 'stale' | 'unknown'>;

/** The link is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class TrusteeLinkNotCommittedYet extends NotCommittedYet {
  constructor(linkId: string) {
    super(`trustee link ${linkId} is not committed yet`);
  }
}

export const TRUSTEE_LINK_STREAM_TYPE = 'trustee-link';
export const trusteeLinkDecider = sendOnceDecider('TrusteeLinkSent', 'TrusteeLinkFailed');
export const trusteeLinksProjection = sendOnceProjection('trustee_links', 'link_id', 'TrusteeLinkSent', 'TrusteeLinkFailed');
const KIND: SendOnceKind = { table: 'trustee_links', idColumn: 'link_id', streamType: TRUSTEE_LINK_STREAM_TYPE, decider: trusteeLinkDecider };

/**
 * Trustee invitations and links, at most once each, as inactivity warnings are sent (sendOnce). A link
 * goes only while it is still the trustee's current one (not replaced, used, or ended by removal); a
 * stale one is recorded as not sent.
 */
export class TrusteeLinksService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [trusteeLinksProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; linkState: TrusteeLinkState; keyMailSecret: string; publicUrl: string }) {}

  send(job: TrusteeLinkJob, attempt: number): Promise<'sent' | 'already-sent' | 'stale'> {
    return sendOnce({ ...this.deps, store: this.store }, KIND, { id: job.linkId, ownerId: job.ownerId, attempt }, {
      state: () => this.deps.linkState(job.ownerId, job.trusteeId, job.linkId),
      notCommitted: () => new TrusteeLinkNotCommittedYet(job.linkId),
      staleReason: 'the link was replaced, used or ended before it went',
      compose: () => renderTrusteeLink(job, openFromJob(this.deps.keyMailSecret, trusteeLinkSealContext(job.linkId), job.sealedLink), this.deps.publicUrl),
    });
  }

  /** A job out of attempts (its link never committed, or SMTP kept failing). */
  recordFailed(job: TrusteeLinkJob, attempts: number, reason: string): Promise<void> {
    return recordSendFailed({ ...this.deps, store: this.store }, KIND, { id: job.linkId, ownerId: job.ownerId }, attempts, reason);
  }
}
