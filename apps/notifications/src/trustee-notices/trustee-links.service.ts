import type { MikroORM } from '@mikro-orm/postgresql';
import { trusteeLinkSealContext, type TrusteeLinkJob } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata } from '@lv/platform/event-store';
import { openFromJob } from '@lv/platform/queues';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { sendOnceDecider, sendOnceProjection, type SendOnceCommand } from '../send-once/send-once.js';
import { renderTrusteeLink } from './trustee-link-message.js';

/** access-keys' answer to "is this still the trustee's current link?". */
export type TrusteeLinkState = (ownerId: string, trusteeId: string, linkId: string) => Promise<'current' | 'stale' | 'unknown'>;

/** The link is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class TrusteeLinkNotCommittedYet extends Error {
  constructor(linkId: string) {
    super(`trustee link ${linkId} is not committed yet`);
  }
}

export const TRUSTEE_LINK_STREAM_TYPE = 'trustee-link';
const trusteeLinkStreamId = (linkId: string) => `trustee-link-${linkId}`;
export const trusteeLinkDecider = sendOnceDecider('TrusteeLinkSent', 'TrusteeLinkFailed');
export const trusteeLinksProjection = sendOnceProjection('trustee_links', 'link_id', 'TrusteeLinkSent', 'TrusteeLinkFailed');

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/**
 * Trustee invitations and links, at most once each, as inactivity warnings are sent: the row is held
 * locked from before the check to after the send is recorded. A link goes only while it is still the
 * trustee's current one (not replaced, used, or ended by removal); a stale one is recorded as not sent.
 */
export class TrusteeLinksService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [trusteeLinksProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; linkState: TrusteeLinkState; keyMailSecret: string; publicUrl: string }) {}

  send(job: TrusteeLinkJob, attempt: number): Promise<'sent' | 'already-sent' | 'stale'> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into trustee_links (link_id) values (?) on conflict (link_id) do nothing`, [job.linkId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from trustee_links where link_id = ? for update`, [job.linkId]);
      if (row!.state === 'sent') return 'already-sent';
      await em.execute(`update trustee_links set attempts = ?, updated_at = now() where link_id = ?`, [attempt, job.linkId]);
      const state = await this.deps.linkState(job.ownerId, job.trusteeId, job.linkId);
      if (state === 'unknown') throw new TrusteeLinkNotCommittedYet(job.linkId);
      if (state === 'stale') {
        await this.record(em, { type: 'RecordFailed', id: job.linkId, ownerId: job.ownerId, attempts: attempt, reason: 'the link was replaced, used or ended before it went', now: new Date().toISOString() });
        return 'stale';
      }
      const link = openFromJob(this.deps.keyMailSecret, trusteeLinkSealContext(job.linkId), job.sealedLink);
      const message = renderTrusteeLink(job, link, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', id: job.linkId, ownerId: job.ownerId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /** A job out of attempts (its link never committed, or SMTP kept failing). */
  async recordFailed(job: TrusteeLinkJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, trusteeLinkDecider, { type: 'RecordFailed', id: job.linkId, ownerId: job.ownerId, attempts, reason, now: new Date().toISOString() }, {
      streamId: trusteeLinkStreamId(job.linkId), streamType: TRUSTEE_LINK_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: SendOnceCommand) {
    return decideAndAppend(em, this.store, trusteeLinkDecider, command, { streamId: trusteeLinkStreamId(command.id), streamType: TRUSTEE_LINK_STREAM_TYPE, metadata: SYSTEM });
  }
}
