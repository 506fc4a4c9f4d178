import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  InactivityMessages, inactivityWarningSealContext, type CheckInLinkRequest, type CheckInReply, type InactivityTimingJob, type InactivityWarningJob, type InactivityWatch, type RequestMeta,
} from '@lv/contracts';
import { ownerOf, type Caller, type UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { aggregateStream, decideAndAppend, retryOnConflict, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import type { OwnerLinkSigner } from '@lv/platform/links';
import { enqueue, sealForJob, type TypedQueue } from '@lv/platform/queues';
import { delayUntil, inactivityJobId } from '../timers/timer-plan.js';
import type { DeliveryService } from './delivery.service.js';
import {
  INACTIVITY_STREAM_TYPE, inactivityDecider, inactivityStreamId, nextWake, watchView, type CheckInVia, type InactivityCommand, type InactivityEvent, type InactivityState,
} from './inactivity.decider.js';

/** The purpose the check-in links are signed for (OwnerLinkSigner derives a sub-key from it). */
export const CHECK_IN_PURPOSE = 'check-in';
/** How long a warning's check-in link works: past the lapse (3 days after the last warning), so it can still stop a delivery. */
export const CHECK_IN_LINK_DAYS = 30;

export interface InactivityDeps {
  orm: MikroORM;
  store: EventStore;
  delivery: DeliveryService;
  /** The inactivity-timing queue: delayed jobs that wake the watch (processed in this service). */
  jobs: TypedQueue<InactivityTimingJob>;
  /** The inactivity-warnings queue (notifications' worker sends them). */
  warnings: TypedQueue<InactivityWarningJob>;
  /** Signs the check-in links (namespace access-keys/check-in, purpose 'check-in'). */
  links: OwnerLinkSigner;
  /** Seals the link into its e-mail job (the same secret as key e-mails: notifications opens it). */
  keyMailSecret: string;
  /** A check-in is a sign of life: it closes a trustee's open report (inside the check-in's transaction). */
  onCheckIn?: (em: EntityManager, ownerId: string, at: string, metadata: EventMetadata) => Promise<unknown>;
  now?: () => Date;
}

/** What a wake did: a warning queued, the delivery started, or nothing; and when it wakes next. */
/** `early`: woke before its time with nothing to do; the worker puts the same job back to sleep until `next`. */
export type WakeOutcome = { outcome: 'warned' | 'lapsed' | 'nothing' | 'early'; next: string | null };

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'inactivity-timing' } };

/** The owner, if his token says his address is verified (identity's claim); EMAIL_NOT_VERIFIED otherwise. */
function requireVerifiedAddress(owner: UserCaller): UserCaller {
  if (!owner.emailVerified) throw new DomainError('EMAIL_NOT_VERIFIED', InactivityMessages.verifyEmailFirst);
  return owner;
}

/**
 * The owner's inactivity watch (inactivity.decider.ts) driven by delayed BullMQ jobs: each change
 * that moves the next due time earlier (set, resume, the first sign-in after a lapse) queues a wake
 * inside its transaction; every wake decides, queues what is due (a warning e-mail, or the delivery's
 * trigger, in the same transaction as the event), and queues the next wake. Later sign-ins queue
 * nothing: the pending wake finds the clock moved and sleeps again until the new time.
 */
export class InactivityService {
  constructor(private readonly deps: InactivityDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  async view(caller: Caller): Promise<InactivityWatch> {
    const em = this.deps.orm.em.fork();
    const ownerId = ownerOf(caller).userId;
    const [state, lastSignIn] = await Promise.all([this.state(em, ownerId), this.lastSignIn(em, ownerId)]);
    return watchView(state, lastSignIn);
  }

  save(caller: Caller, periodDays: number | null, meta: RequestMeta): Promise<InactivityWatch> {
    const owner = ownerOf(caller);
    // A watch e-mails its warnings to the owner's address and ends in a delivery to his contacts:
    // on only once that address is proved his. Turning it off is always allowed.
    if (periodDays !== null) requireVerifiedAddress(owner);
    return this.command(caller, meta, { type: 'SetWatch', ownerId: owner.userId, periodDays, ownerEmail: owner.email, now: this.now() });
  }

  pause(caller: Caller, meta: RequestMeta): Promise<InactivityWatch> {
    return this.command(caller, meta, { type: 'PauseWatch', ownerId: ownerOf(caller).userId, now: this.now() });
  }

  resume(caller: Caller, meta: RequestMeta): Promise<InactivityWatch> {
    return this.command(caller, meta, { type: 'ResumeWatch', ownerId: ownerOf(caller).userId, now: this.now() });
  }

  /** A test warning, sent now to the owner with a working check-in link (at most one per 10 minutes). */
  async testWarning(caller: Caller, meta: RequestMeta): Promise<InactivityWatch> {
    const ownerId = requireVerifiedAddress(ownerOf(caller)).userId;
    const metadata: EventMetadata = { actor: { kind: 'user', id: ownerId }, correlationId: meta.requestId };
    await retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
      const lastSignInAt = await this.lastSignIn(em, ownerId);
      const result = await decideAndAppend(em, this.deps.store, inactivityDecider, { type: 'SendTestWarning', ownerId, lastSignInAt, warningId: randomUUID(), now: this.now() }, {
        streamId: inactivityStreamId(ownerId), streamType: INACTIVITY_STREAM_TYPE, metadata,
      });
      await this.queueWarnings(result.events, result.state.ownerEmail ?? '');
    }));
    return this.view(caller);
  }

  /** The "I'm Still Here" button (it also stops a delivery under way, in its own step). */
  async checkInByButton(ownerId: string, meta: RequestMeta): Promise<void> {
    await this.inTransaction(ownerId, { type: 'CheckIn', ownerId, via: 'still-here', warningId: null, now: this.now() }, { actor: { kind: 'user', id: ownerId }, correlationId: meta.requestId });
  }

  /**
   * A warning's link: signed for one owner and one warning, expiring, used once. It resets the clock
   * and stops a delivery that has started and not yet happened, in one transaction. Every bad link
   * (forged, altered, expired, used) gets the same answer.
   */
  async checkInByLink(link: CheckInLinkRequest, meta: RequestMeta): Promise<CheckInReply> {
    const verified = this.deps.links.verifyLink(CHECK_IN_PURPOSE, link.w, link, ['w']);
    if (typeof verified === 'string') throw new DomainError('CHECK_IN_LINK_INVALID');
    const ownerId = verified.userId;
    const metadata: EventMetadata = { actor: { kind: 'user', id: ownerId }, correlationId: meta.requestId };
    const now = this.now();
    return retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
      // The delivery first: the check-in then also closes a trustee's report (whose delivery this is) with nothing left to cancel.
      const cancelled = await this.deps.delivery.cancelIn(em, ownerId, metadata);
      await this.decideIn(em, ownerId, metadata, { type: 'CheckIn', ownerId, via: 'link' satisfies CheckInVia, warningId: link.w, now });
      return { checked_in_at: now, delivery_cancelled: cancelled };
    }));
  }

  /** identity's UserSignedIn (durable consumer, inside its inbox transaction): the owner's last sign-in. */
  async recordSignIn(em: EntityManager, ownerId: string, signedInAt: string): Promise<void> {
    const before = await this.lastSignIn(em, ownerId, true);
    await em.execute(
      `insert into owner_last_seen (owner_id, last_sign_in_at) values (?, ?)
       on conflict (owner_id) do update set last_sign_in_at = greatest(owner_last_seen.last_sign_in_at, excluded.last_sign_in_at)`,
      [ownerId, signedInAt],
    );
    const state = await this.state(em, ownerId);
    const now = this.now();
    // Only a watch that had nothing pending (it lapsed for the old clock) needs a new wake.
    if (nextWake(state, before, now) === null) await this.schedule(ownerId, nextWake(state, await this.lastSignIn(em, ownerId), now));
  }

  /** identity's EmailChanged (durable consumer, inside its inbox transaction): the warnings' address follows the account's. */
  async followOwnerEmail(em: EntityManager, ownerId: string, ownerEmail: string): Promise<void> {
    await decideAndAppend(em, this.deps.store, inactivityDecider, { type: 'FollowOwnerEmail', ownerId, ownerEmail, now: this.now() }, {
      streamId: inactivityStreamId(ownerId), streamType: INACTIVITY_STREAM_TYPE, metadata: { actor: { kind: 'system', id: 'identity-email-changed' } },
    });
  }

  /** notifications' question before it sends a warning: still the current clock's, with the watch on? */
  async warningState(ownerId: string, warningId: string): Promise<{ state: 'current' | 'stale' | 'unknown' }> {
    const em = this.deps.orm.em.fork();
    const [state, lastSignIn] = await Promise.all([this.state(em, ownerId), this.lastSignIn(em, ownerId)]);
    const warning = state.warnings[warningId];
    if (!warning) return { state: 'unknown' };
    return { state: watchView(state, lastSignIn).lapse_at === warning.lapseAt ? 'current' : 'stale' };
  }

  /**
   * The timing job. Locks the owner's last-seen row (a sign-in consumed meanwhile waits), decides on
   * the stream's current version, and queues what is due and the next wake in the same transaction:
   * of racing or repeated jobs, one records a warning or the lapse, the others find nothing due.
   */
  wake(job: InactivityTimingJob): Promise<WakeOutcome> {
    return retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em): Promise<WakeOutcome> => {
      const now = this.now();
      const lastSignIn = await this.lastSignIn(em, job.ownerId, true);
      const result = await decideAndAppend(em, this.deps.store, inactivityDecider, { type: 'CheckInactivity', ownerId: job.ownerId, lastSignInAt: lastSignIn, warningId: randomUUID(), now }, {
        streamId: inactivityStreamId(job.ownerId), streamType: INACTIVITY_STREAM_TYPE, metadata: { ...SYSTEM, correlationId: `inactivity-${job.ownerId}` },
      });
      const events = result.events;
      let outcome: WakeOutcome['outcome'] = (await this.queueWarnings(events, result.state.ownerEmail ?? '')) ? 'warned' : 'nothing';
      for (const event of events) {
        if (event.type === 'InactivityLapsed') {
          await this.deps.delivery.triggerIn(em, job.ownerId, result.state.ownerEmail ?? '', 'inactivity', SYSTEM);
          outcome = 'lapsed';
        }
      }
      const next = nextWake(result.state, lastSignIn, now);
      if (outcome === 'nothing' && next !== null && next === job.dueAt) return { outcome: 'early', next };
      await this.schedule(job.ownerId, next);
      return { outcome, next };
    }));
  }

  /** The owner's account is erased: his watch is turned off (no wake, no warning); true when it was on. */
  async stopWatch(ownerId: string, metadata: EventMetadata): Promise<boolean> {
    const { periodDays } = await this.state(this.deps.orm.em.fork(), ownerId);
    if (periodDays === null) return false;
    await this.inTransaction(ownerId, { type: 'SetWatch', ownerId, periodDays: null, ownerEmail: '', now: this.now() }, metadata);
    return true;
  }

  private async command(caller: Caller, meta: RequestMeta, command: InactivityCommand): Promise<InactivityWatch> {
    const owner = ownerOf(caller);
    await this.inTransaction(owner.userId, command, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId });
    return this.view(caller);
  }

  private inTransaction(ownerId: string, command: InactivityCommand, metadata: EventMetadata): Promise<void> {
    return retryOnConflict(5, () => this.deps.orm.em.fork().transactional((em) => this.decideIn(em, ownerId, metadata, command)));
  }

  /** Decides and appends; a change that leaves something pending earlier than before queues its wake. */
  private async decideIn(em: EntityManager, ownerId: string, metadata: EventMetadata, command: InactivityCommand): Promise<void> {
    const lastSignIn = await this.lastSignIn(em, ownerId);
    const before = await this.state(em, ownerId);
    const result = await decideAndAppend(em, this.deps.store, inactivityDecider, command, { streamId: inactivityStreamId(ownerId), streamType: INACTIVITY_STREAM_TYPE, metadata });
    // Any check-in (even one that changes nothing on the watch) answers a trustee's report.
    if (command.type === 'CheckIn' && this.deps.onCheckIn) await this.deps.onCheckIn(em, ownerId, command.now, metadata);
    if (!result.events.length) return;
    const now = this.now();
    const next = nextWake(result.state, lastSignIn, now);
    const pending = nextWake(before, lastSignIn, now);
    if (next !== null && (pending === null || Date.parse(next) < Date.parse(pending))) await this.schedule(ownerId, next);
  }

  /** Queues each warning's e-mail with its signed check-in link (inside the caller's transaction); true if there was one. */
  private async queueWarnings(events: InactivityEvent[], ownerEmail: string): Promise<boolean> {
    let queued = false;
    for (const event of events) {
      if (event.type !== 'InactivityWarningQueued') continue;
      const warning = event.data;
      const { url } = this.deps.links.signLink(CHECK_IN_PURPOSE, '/still-here', warning.ownerId, warning.warningId, { w: warning.warningId });
      await enqueue(this.deps.warnings, {
        warningId: warning.warningId, ownerId: warning.ownerId, ownerEmail, stage: warning.stage, lapseAt: warning.lapseAt,
        sealedLink: sealForJob(this.deps.keyMailSecret, inactivityWarningSealContext(warning.warningId), url),
      }, `inactivity-warning-${warning.warningId}`);
      queued = true;
    }
    return queued;
  }

  /** Queues a wake at `at` (inside the caller's transaction, before its commit); one job per owner and time. */
  private async schedule(ownerId: string, at: string | null): Promise<void> {
    if (at === null) return;
    await enqueue(this.deps.jobs, { ownerId, dueAt: at }, inactivityJobId(ownerId, at), { delay: delayUntil(at, this.now()) });
  }

  private async state(em: EntityManager, ownerId: string): Promise<InactivityState> {
    return (await aggregateStream(em, this.deps.store, inactivityDecider, inactivityStreamId(ownerId))).state;
  }

  /** The owner's last sign-in from identity's events; `lock`: held until the transaction ends. */
  private async lastSignIn(em: EntityManager, ownerId: string, lock = false): Promise<string | null> {
    if (lock) await em.execute(`insert into owner_last_seen (owner_id) values (?) on conflict (owner_id) do nothing`, [ownerId]);
    const [row] = await em.execute<{ last_sign_in_at: Date | string | null }[]>(`select last_sign_in_at from owner_last_seen where owner_id = ?${lock ? ' for update' : ''}`, [ownerId]);
    return row?.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null;
  }
}
