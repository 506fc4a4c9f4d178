import { NotCommittedYet } from '../mail-dead-letter.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { TrusteeNoticeJob } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata, projectionFor } from '@lv/platform/event-store';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { renderTrusteeNotice } from './trustee-notice-message.js';
import { TRUSTEE_NOTICE_STREAM_TYPE, trusteeNoticeDecider, trusteeNoticeStreamId, type TrusteeNoticeCommand, type TrusteeNoticeEvent } from './trustee-notice.decider.js';

/** access-keys' answer to "has this step of the delivery committed?". */
export type DeliveryStepState = (ownerId: string, releaseId: string) => Promise<'started' | 'released' | 'cancelled' | 'unknown'>;

/** The step is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class StepNotCommittedYet extends NotCommittedYet {
  constructor(noticeId: string) {
    super(`the delivery step of trustee notice ${noticeId} is not committed yet`);
  }
}

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/** trustee_notices' final states from the events (the worker inserts the `pending` row it locks). */
export const trusteeNoticesProjection = projectionFor<TrusteeNoticeEvent>({
  name: 'trustee_notices',
  handles: ['TrusteeNoticeSent', 'TrusteeNoticeFailed'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,
  async apply(em, events) {
    for (const event of events) {
      const d = event.data;
      if (event.type === 'TrusteeNoticeSent') {
        await em.execute(
          `insert into trustee_notices (notice_id, state, attempts, message_id, sent_at, updated_at) values (?, 'sent', ?, ?, ?, ?)
           on conflict (notice_id) do update set state = 'sent', attempts = excluded.attempts, message_id = excluded.message_id, sent_at = excluded.sent_at, last_error = null, updated_at = excluded.updated_at`,
          [d.noticeId, d.attempts, event.data.messageId, event.data.sentAt, event.data.sentAt],
        );
      } else {
        await em.execute(
          `insert into trustee_notices (notice_id, state, attempts, last_error, updated_at) values (?, 'failed', ?, ?, ?)
           on conflict (notice_id) do update set state = 'failed', attempts = excluded.attempts, last_error = excluded.last_error, updated_at = excluded.updated_at
            where trustee_notices.state <> 'sent'`,
          [d.noticeId, d.attempts, event.data.reason, event.data.failedAt],
        );
      }
    }
  },
  async reset(em) {
    await em.execute(`delete from trustee_notices where state <> 'pending'`);
  },
});

/**
 * Trustee notices, at most once per step of a delivery, as key e-mails are sent (key-emails.service.ts):
 * the notice's row is held locked from before the check to after the send is recorded. A "started"
 * notice goes once the delivery is known to have started (not if it was cancelled first); a
 * "released" one once it has been released. They stay inside notifications: nothing is published.
 */
export class TrusteeNoticesService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [trusteeNoticesProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; stepState: DeliveryStepState; publicUrl: string }) {}

  send(job: TrusteeNoticeJob, attempt: number): Promise<'sent' | 'already-sent' | 'refused'> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into trustee_notices (notice_id) values (?) on conflict (notice_id) do nothing`, [job.noticeId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from trustee_notices where notice_id = ? for update`, [job.noticeId]);
      if (row!.state === 'sent') return 'already-sent';
      await em.execute(`update trustee_notices set attempts = ?, updated_at = now() where notice_id = ?`, [attempt, job.noticeId]);
      const state = await this.deps.stepState(job.ownerId, job.releaseId);
      const stepHappened = job.kind === 'started' ? state === 'started' || state === 'released' : state === 'released';
      if (state === 'cancelled' && job.kind === 'started') {
        await this.record(em, { type: 'RecordFailed', noticeId: job.noticeId, ownerId: job.ownerId, attempts: attempt, reason: 'the delivery was cancelled before its notice went', now: new Date().toISOString() });
        return 'refused';
      }
      if (!stepHappened) throw new StepNotCommittedYet(job.noticeId);
      const message = renderTrusteeNotice(job, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', noticeId: job.noticeId, ownerId: job.ownerId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /** A job out of attempts because SMTP kept failing (one whose step never committed is only logged: mailDeadLetter, 'leave-open'). */
  async recordFailed(job: TrusteeNoticeJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, trusteeNoticeDecider, { type: 'RecordFailed', noticeId: job.noticeId, ownerId: job.ownerId, attempts, reason, now: new Date().toISOString() }, {
      streamId: trusteeNoticeStreamId(job.noticeId), streamType: TRUSTEE_NOTICE_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: TrusteeNoticeCommand) {
    return decideAndAppend(em, this.store, trusteeNoticeDecider, command, { streamId: trusteeNoticeStreamId(command.noticeId), streamType: TRUSTEE_NOTICE_STREAM_TYPE, metadata: SYSTEM });
  }
}
