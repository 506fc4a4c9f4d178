import { NotCommittedYet } from '../mail-dead-letter.js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ACCESS_REQUEST_NOTICES_PER_HOUR, type AccessRequestNoticeJob, type RequestNoticeState } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata, projectionFor } from '@lv/platform/event-store';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { sendOnceDecider, sendOnceProjection, type SendOnceCommand, type SendOnceEvent } from '../send-once/send-once.js';
import { renderAccessRequestNotice } from './access-request-notice-message.js';

/** access-keys' answer to "is this request committed and still pending, and who asked?". */
export type NoticeStateOf = (ownerId: string, requestId: string) => Promise<RequestNoticeState>;
/** identity's answer to "where do this owner's access-request e-mails go?" (email null: his switch is off). */
export type MailToOf = (ownerId: string) => Promise<{ email: string | null; full_name: string | null }>;

/** The request is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class RequestNotCommittedYet extends NotCommittedYet {
  constructor(requestId: string) {
    super(`access request ${requestId} is not committed yet`);
  }
}

export const ACCESS_REQUEST_NOTICE_STREAM_TYPE = 'access-request-notice';
const accessRequestNoticeStreamId = (requestId: string) => `access-request-notice-${requestId}`;
type NoticeEvent = SendOnceEvent<'AccessRequestNoticeSent', 'AccessRequestNoticeNotSent'>;
export const accessRequestNoticeDecider = sendOnceDecider('AccessRequestNoticeSent', 'AccessRequestNoticeNotSent');
const sendOnce = sendOnceProjection('access_request_notices', 'request_id', 'AccessRequestNoticeSent', 'AccessRequestNoticeNotSent');

/** access_request_notices' final states from the events, with the owner each was for (the hourly limit counts by owner). */
export const accessRequestNoticesProjection = projectionFor<NoticeEvent>({
  ...sendOnce,
  handles: ['AccessRequestNoticeSent', 'AccessRequestNoticeNotSent'],
  async apply(em, events) {
    await sendOnce.apply(em, events);
    for (const event of events) {
      await em.execute('update access_request_notices set owner_id = ? where request_id = ? and owner_id is null', [event.data.ownerId, event.data.id]);
    }
  },
});

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };
const HOUR_SECONDS = 3600;

export interface AccessRequestNoticesDeps {
  orm: MikroORM;
  mailer: Mailer;
  noticeState: NoticeStateOf;
  mailTo: MailToOf;
  /** Where the e-mail's link points: the app's public address. */
  publicUrl: string;
  /** E-mails to one owner an hour (ACCESS_REQUEST_NOTICES_PER_HOUR). */
  perHour?: number;
}

export type NoticeOutcome = 'sent' | 'already-done' | 'decided' | 'switched-off' | 'held-back';

/**
 * The owner's e-mail about each access request, at most once per request, as trustee notices are
 * sent: the request's row is held locked from before the checks to after the outcome is recorded. It
 * goes only while the request is pending (access-keys' request-notice-state) and the owner's "Access
 * Requests" switch is on (identity's access-request-mail-to), and at most ACCESS_REQUEST_NOTICES_PER_HOUR
 * a rolling hour per owner (the owner's sends are serialised by an advisory lock, so two workers cannot
 * both take the last place); past it the e-mail is held back (recorded, not sent: the request still
 * waits in the app). A request decided, switched off or held back is recorded once with why. Nothing
 * is published.
 */
export class AccessRequestNoticesService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [accessRequestNoticesProjection] });

  constructor(private readonly deps: AccessRequestNoticesDeps) {}

  send(job: AccessRequestNoticeJob, attempt: number): Promise<NoticeOutcome> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em): Promise<NoticeOutcome> => {
      await em.execute(`insert into access_request_notices (request_id, owner_id) values (?, ?) on conflict (request_id) do nothing`, [job.requestId, job.ownerId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from access_request_notices where request_id = ? for update`, [job.requestId]);
      if (row!.state !== 'pending') return 'already-done';
      await em.execute(`update access_request_notices set attempts = ?, updated_at = now() where request_id = ?`, [attempt, job.requestId]);
      const state = await this.deps.noticeState(job.ownerId, job.requestId);
      if (state.state === 'unknown') throw new RequestNotCommittedYet(job.requestId);
      if (state.state === 'decided') return this.notSent(em, job, attempt, 'decided', 'the owner decided the request before its e-mail went');
      const to = await this.deps.mailTo(job.ownerId);
      if (!to.email) return this.notSent(em, job, attempt, 'switched-off', 'the owner turned access-request e-mails off');
      // One owner's sends one after the other: the count below then sees every e-mail sent before.
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`access-request-notices:${job.ownerId}`]);
      const [{ sent } = { sent: 0 }] = await em.execute<{ sent: number }[]>(
        `select count(*)::int as sent from access_request_notices where owner_id = ? and state = 'sent' and sent_at > now() - make_interval(secs => ?)`,
        [job.ownerId, HOUR_SECONDS],
      );
      const perHour = this.deps.perHour ?? ACCESS_REQUEST_NOTICES_PER_HOUR;
      if (sent >= perHour) return this.notSent(em, job, attempt, 'held-back', `held back: ${perHour} access-request e-mails already went to this owner in the last hour`);
      const message = renderAccessRequestNotice({
        requestId: job.requestId, ownerEmail: to.email, ownerName: to.full_name, requesterName: state.requester_name, relationship: state.relationship,
      }, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', id: job.requestId, ownerId: job.ownerId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /**
   * A job out of attempts because SMTP kept failing (or its outcome could not be recorded). One whose
   * request never committed is not recorded (mailDeadLetter, 'leave-open'): the family member's retry
   * commits the same request id, and its own job must still find the row pending.
   */
  async recordFailed(job: AccessRequestNoticeJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, accessRequestNoticeDecider, { type: 'RecordFailed', id: job.requestId, ownerId: job.ownerId, attempts, reason, now: new Date().toISOString() }, {
      streamId: accessRequestNoticeStreamId(job.requestId), streamType: ACCESS_REQUEST_NOTICE_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private async notSent<O extends NoticeOutcome>(em: EntityManager, job: AccessRequestNoticeJob, attempt: number, outcome: O, reason: string): Promise<O> {
    await this.record(em, { type: 'RecordFailed', id: job.requestId, ownerId: job.ownerId, attempts: attempt, reason, now: new Date().toISOString() });
    return outcome;
  }

  private record(em: EntityManager, command: SendOnceCommand) {
    return decideAndAppend(em, this.store, accessRequestNoticeDecider, command, { streamId: accessRequestNoticeStreamId(command.id), streamType: ACCESS_REQUEST_NOTICE_STREAM_TYPE, metadata: SYSTEM });
  }
}
