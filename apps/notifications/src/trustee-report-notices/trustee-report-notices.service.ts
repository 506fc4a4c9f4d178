import { NotCommittedYet } from '../mail-dead-letter.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { TrusteeReportNoticeJob, TrusteeReportNoticeState } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata } from '@lv/platform/event-store';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { sendOnceDecider, sendOnceProjection, type SendOnceCommand } from '../send-once/send-once.js';
import { renderTrusteeReportNotice } from './trustee-report-notice-message.js';

/** access-keys' answer to "is this report committed, open or closed, and what does its e-mail say?". */
export type ReportStateOf = (ownerId: string, reportId: string) => Promise<TrusteeReportNoticeState>;
/** identity's answer to "where do this owner's e-mails about his own safety go?" (null: no such account). */
export type OwnerMailToOf = (ownerId: string) => Promise<{ email: string | null; full_name: string | null }>;

/** The report (or its close) is not committed yet: the job retries with backoff, then gives up. */
export class ReportNotCommittedYet extends NotCommittedYet {
  constructor(noticeId: string) {
    super(`the trustee report step of notice ${noticeId} is not committed yet`);
  }
}

export const TRUSTEE_REPORT_NOTICE_STREAM_TYPE = 'trustee-report-notice';
const streamId = (noticeId: string) => `trustee-report-notice-${noticeId}`;
export const trusteeReportNoticeDecider = sendOnceDecider('TrusteeReportNoticeSent', 'TrusteeReportNoticeNotSent');
export const trusteeReportNoticesProjection = sendOnceProjection('trustee_report_notices', 'notice_id', 'TrusteeReportNoticeSent', 'TrusteeReportNoticeNotSent');

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

export type ReportNoticeOutcome = 'sent' | 'already-done' | 'stale';

/**
 * A trustee report's e-mails, at most once each, as trustee links are sent: the notice's row is held
 * locked from before the check to after the outcome is recorded. The owner's notice and reminders go
 * only while the report is open (a reminder of a report closed meanwhile is its cancellation: recorded,
 * never sent); the reporter's withdrawn notice only once the close has committed. Nothing is published.
 */
export class TrusteeReportNoticesService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [trusteeReportNoticesProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; reportState: ReportStateOf; ownerMailTo: OwnerMailToOf; publicUrl: string; now?: () => Date }) {}

  send(job: TrusteeReportNoticeJob, attempt: number): Promise<ReportNoticeOutcome> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em): Promise<ReportNoticeOutcome> => {
      await em.execute(`insert into trustee_report_notices (notice_id) values (?) on conflict (notice_id) do nothing`, [job.noticeId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from trustee_report_notices where notice_id = ? for update`, [job.noticeId]);
      if (row!.state !== 'pending') return 'already-done';
      await em.execute(`update trustee_report_notices set attempts = ?, updated_at = now() where notice_id = ?`, [attempt, job.noticeId]);
      const { state, report } = await this.deps.reportState(job.ownerId, job.reportId);
      const notSent = async (reason: string) => {
        await this.record(em, { type: 'RecordFailed', id: job.noticeId, ownerId: job.ownerId, attempts: attempt, reason, now: new Date().toISOString() });
        return 'stale' as const;
      };
      if (state === 'unknown' || !report) throw new ReportNotCommittedYet(job.noticeId);
      if (job.kind === 'withdrawn') {
        // The close is committed with this job: a report still open means that transaction has not committed yet.
        if (state !== 'closed') throw new ReportNotCommittedYet(job.noticeId);
      } else if (state === 'closed') {
        return notSent('the owner answered before it went');
      } else if (job.kind === 'reminder' && Date.parse(report.vetoEndsAt) <= (this.deps.now?.() ?? new Date()).getTime()) {
        return notSent('the veto window had ended before it went');
      }
      const owner = await this.deps.ownerMailTo(job.ownerId);
      if (!owner.email) return notSent('the owner has no account');
      const message = renderTrusteeReportNotice(job, report, { ownerEmail: owner.email, ownerName: owner.full_name || owner.email }, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', id: job.noticeId, ownerId: job.ownerId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /** A job out of attempts because SMTP kept failing (one whose step never committed is only logged: mailDeadLetter, 'leave-open'). */
  async recordFailed(job: TrusteeReportNoticeJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, trusteeReportNoticeDecider, { type: 'RecordFailed', id: job.noticeId, ownerId: job.ownerId, attempts, reason, now: new Date().toISOString() }, {
      streamId: streamId(job.noticeId), streamType: TRUSTEE_REPORT_NOTICE_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: SendOnceCommand) {
    return decideAndAppend(em, this.store, trusteeReportNoticeDecider, command, { streamId: streamId(command.id), streamType: TRUSTEE_REPORT_NOTICE_STREAM_TYPE, metadata: SYSTEM });
  }
}
