import { NotCommittedYet } from '../mail-dead-letter.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { inactivityWarningSealContext, type InactivityWarningJob } from '@lv/contracts';
import { EventStore } from '@lv/platform/event-store';
import { openFromJob } from '@lv/platform/queues';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { recordSendFailed, sendOnce, sendOnceDecider, sendOnceProjection, type SendOnceKind } from '../send-once/send-once.js';
import { renderInactivityWarning } from './inactivity-warning-message.js';

/** access-keys' answer to "is this warning still the current one of a watch that is on?". */
export type WarningState = (ownerId: string, warningId: string) => Promise<'current' | 'stale' | 'unknown'>;

/** The warning is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class WarningNotCommittedYet extends NotCommittedYet {
  constructor(warningId: string) {
    super(`inactivity warning ${warningId} is not committed yet`);
  }
}

export const INACTIVITY_WARNING_STREAM_TYPE = 'inactivity-warning';
export const inactivityWarningDecider = sendOnceDecider('InactivityWarningSent', 'InactivityWarningFailed');
export const inactivityWarningsProjection = sendOnceProjection('inactivity_warnings', 'warning_id', 'InactivityWarningSent', 'InactivityWarningFailed');
const KIND: SendOnceKind = { table: 'inactivity_warnings', idColumn: 'warning_id', streamType: INACTIVITY_WARNING_STREAM_TYPE, decider: inactivityWarningDecider };

/**
 * The owner's inactivity warnings, at most once each, as trustee notices are sent (sendOnce). A warning
 * goes only while it is the current one (no sign-in or check-in since, watch not paused or changed); a
 * stale one is recorded as not sent. Nothing is published.
 */
export class InactivityWarningsService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [inactivityWarningsProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; warningState: WarningState; keyMailSecret: string; publicUrl: string }) {}

  send(job: InactivityWarningJob, attempt: number): Promise<'sent' | 'already-sent' | 'stale'> {
    return sendOnce({ ...this.deps, store: this.store }, KIND, { id: job.warningId, ownerId: job.ownerId, attempt }, {
      state: () => this.deps.warningState(job.ownerId, job.warningId),
      notCommitted: () => new WarningNotCommittedYet(job.warningId),
      staleReason: 'the owner checked in, or changed or paused the watch, before it went',
      compose: () => renderInactivityWarning(job, openFromJob(this.deps.keyMailSecret, inactivityWarningSealContext(job.warningId), job.sealedLink), this.deps.publicUrl),
    });
  }

  /** A job out of attempts (its warning never committed, or SMTP kept failing). */
  recordFailed(job: InactivityWarningJob, attempts: number, reason: string): Promise<void> {
    return recordSendFailed({ ...this.deps, store: this.store }, KIND, { id: job.warningId, ownerId: job.ownerId }, attempts, reason);
  }
}
