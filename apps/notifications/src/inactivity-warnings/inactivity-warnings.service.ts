import type { MikroORM } from '@mikro-orm/postgresql';
import { inactivityWarningSealContext, type InactivityWarningJob } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata } from '@lv/platform/event-store';
import { openFromJob } from '@lv/platform/queues';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { sendOnceDecider, sendOnceProjection, type SendOnceCommand } from '../send-once/send-once.js';
import { renderInactivityWarning } from './inactivity-warning-message.js';

/** access-keys' answer to "is this warning still the current one of a watch that is on?". */
export type WarningState = (ownerId: string, warningId: string) => Promise<'current' | 'stale' | 'unknown'>;

/** The warning is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class WarningNotCommittedYet extends Error {
  constructor(warningId: string) {
    super(`inactivity warning ${warningId} is not committed yet`);
  }
}

export const INACTIVITY_WARNING_STREAM_TYPE = 'inactivity-warning';
const inactivityWarningStreamId = (warningId: string) => `inactivity-warning-${warningId}`;
export const inactivityWarningDecider = sendOnceDecider('InactivityWarningSent', 'InactivityWarningFailed');
export const inactivityWarningsProjection = sendOnceProjection('inactivity_warnings', 'warning_id', 'InactivityWarningSent', 'InactivityWarningFailed');

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/**
 * The owner's inactivity warnings, at most once each, as trustee notices are sent: the warning's row is
 * held locked from before the check to after the send is recorded. A warning goes only while it is
 * the current one (no sign-in or check-in since, watch not paused or changed); a stale one is recorded
 * as not sent. Nothing is published.
 */
export class InactivityWarningsService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [inactivityWarningsProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; warningState: WarningState; keyMailSecret: string; publicUrl: string }) {}

  send(job: InactivityWarningJob, attempt: number): Promise<'sent' | 'already-sent' | 'stale'> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into inactivity_warnings (warning_id) values (?) on conflict (warning_id) do nothing`, [job.warningId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from inactivity_warnings where warning_id = ? for update`, [job.warningId]);
      if (row!.state === 'sent') return 'already-sent';
      await em.execute(`update inactivity_warnings set attempts = ?, updated_at = now() where warning_id = ?`, [attempt, job.warningId]);
      const state = await this.deps.warningState(job.ownerId, job.warningId);
      if (state === 'unknown') throw new WarningNotCommittedYet(job.warningId);
      if (state === 'stale') {
        await this.record(em, { type: 'RecordFailed', id: job.warningId, ownerId: job.ownerId, attempts: attempt, reason: 'the owner checked in, or changed or paused the watch, before it went', now: new Date().toISOString() });
        return 'stale';
      }
      const link = openFromJob(this.deps.keyMailSecret, inactivityWarningSealContext(job.warningId), job.sealedLink);
      const message = renderInactivityWarning(job, link, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', id: job.warningId, ownerId: job.ownerId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /** A job out of attempts (its warning never committed, or SMTP kept failing). */
  async recordFailed(job: InactivityWarningJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, inactivityWarningDecider, { type: 'RecordFailed', id: job.warningId, ownerId: job.ownerId, attempts, reason, now: new Date().toISOString() }, {
      streamId: inactivityWarningStreamId(job.warningId), streamType: INACTIVITY_WARNING_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: SendOnceCommand) {
    return decideAndAppend(em, this.store, inactivityWarningDecider, command, { streamId: inactivityWarningStreamId(command.id), streamType: INACTIVITY_WARNING_STREAM_TYPE, metadata: SYSTEM });
  }
}
