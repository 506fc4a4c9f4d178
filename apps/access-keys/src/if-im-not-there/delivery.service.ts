import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { VIEW_SECTIONS, type DeliveryCheck, type DeliveryTimingJob, type DeliveryView, type TrusteeNoticeJob } from '@lv/contracts';
import {
  aggregateStream, decideAndAppend, foldEvents, retryOnConflict, type AggregatedStream, type EventMetadata, type EventStore, type StoredEvent,
} from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import type { AccessKeysService } from '../access-keys.service.js';
import { hashAccessKey } from '../secrets.js';
import {
  DELIVERY_STREAM_TYPE, deliveryDecider, deliveryStreamId, isDue, type DeliveryCommand, type DeliveryEvent, type DeliveryState, type DeliveryTrigger,
} from './delivery-release.decider.js';
import { deliveryJobId, delayUntil } from '../timers/timer-plan.js';
import { runDeliveryChecks } from './delivery-checks.js';
import { countContacts, findContactsForDelivery, findDeliverySettings } from './if-im-not-there.projections.js';

const DAY_MS = 24 * 3600 * 1000;
/** The keys a delivery gives the emergency contacts: as long as a view session (spec: 30 days). */
export const DELIVERED_KEY_DAYS = 30;
/** A queue nobody works (a service built without it, as in the specs). */
const NO_WORKERS = { getWorkers: () => Promise.resolve([]) };

export interface DeliveryDeps {
  orm: MikroORM;
  store: EventStore;
  keys: AccessKeysService;
  /** The delivery-timing queue: one delayed job per due time, id `delivery-<releaseId>-<dueMs>`. */
  jobs: TypedQueue<DeliveryTimingJob>;
  /** The key e-mail queue (notifications' worker takes it): the checks look for its worker. */
  keyEmails?: Pick<TypedQueue<unknown>, 'getWorkers'>;
  /** The inactivity trigger's queues (wakes, warning e-mails): the checks look for their workers. */
  inactivityQueues?: { timing: Pick<TypedQueue<unknown>, 'getWorkers'>; warnings: Pick<TypedQueue<unknown>, 'getWorkers'> };
  /** The trustee notice queue (notifications' worker sends them): "notify trustee" in the delivery settings. */
  trusteeNotices?: TypedQueue<TrusteeNoticeJob>;
  /** The clock, injected so the specs can move time (the decider itself reads none). */
  now?: () => Date;
}


/**
 * `unknown`: the job names a delivery the stream does not show waiting, which is either a stale job
 * or one whose transaction has not committed yet (jobs are queued before the commit): the worker
 * retries a young one. `nothing`: the delivery is final (released, cancelled) or this job is stale.
 */
export type ReleaseOutcome = { outcome: 'released'; keyIds: string[] } | { outcome: 'not-due'; dueAt: string } | { outcome: 'nothing' } | { outcome: 'unknown' };

/**
 * Vault delivery, the state machine of delivery-release.decider.ts driven by delayed BullMQ jobs.
 * A trigger (or a verification) commits with its job queued inside the transaction, so a committed
 * due time always has a job; a job whose delivery did not commit finds nothing to do. A due job
 * issues every emergency contact a key (e-mail jobs included) and records the release in one
 * transaction, conditional on the stream's version: of any number of racing or repeated jobs, one
 * commits and the others roll back. No plan check runs here: a lapsed plan never blocks a release.
 */
export class DeliveryService {
  constructor(private readonly deps: DeliveryDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  async view(ownerId: string): Promise<DeliveryView> {
    const { state } = await this.state(this.deps.orm.em.fork(), ownerId);
    return { status: state.status, release_id: state.releaseId, due_at: state.dueAt, triggered_at: state.triggeredAt };
  }

  /** /test-vault-delivery: the pipeline's checks for this owner, against the running services (nothing is written). */
  checks(ownerId: string): Promise<DeliveryCheck[]> {
    const em = this.deps.orm.em.fork();
    return runDeliveryChecks({
      settings: () => findDeliverySettings(em, ownerId),
      contactCount: () => countContacts(em, ownerId),
      deliveryQueue: this.deps.jobs,
      keyEmailQueue: this.deps.keyEmails ?? NO_WORKERS,
      inactivityQueues: this.deps.inactivityQueues ?? { timing: NO_WORKERS, warnings: NO_WORKERS },
      now: this.now(),
    });
  }

  /** A trustee's report an operator confirmed, or the owner's inactivity: starts the delivery the owner's settings describe. */
  async trigger(ownerId: string, sharedBy: string, trigger: DeliveryTrigger, metadata: EventMetadata): Promise<DeliveryView> {
    await retryOnConflict(5, () => this.deps.orm.em.fork().transactional((em) => this.triggerIn(em, ownerId, sharedBy, trigger, metadata)));
    return this.view(ownerId);
  }

  /** The trigger inside the caller's transaction (the inactivity watch records its lapse in the same one). */
  async triggerIn(em: EntityManager, ownerId: string, sharedBy: string, trigger: DeliveryTrigger, metadata: EventMetadata, notBefore: string | null = null): Promise<void> {
    const settings = await findDeliverySettings(em, ownerId);
    await this.decideIn(em, ownerId, sharedBy, metadata, {
      type: 'TriggerDelivery', releaseId: randomUUID(), ownerId, trigger, timing: settings.delivery_timing, requireLegalVerification: settings.require_legal_verification, now: this.now(),
      ...(notBefore ? { notBefore } : {}),
    });
  }

  /** "I'm still here" inside the caller's transaction (a check-in link, a veto): true when a delivery under way was stopped. */
  async cancelIn(em: EntityManager, ownerId: string, metadata: EventMetadata): Promise<boolean> {
    const { state } = await this.state(em, ownerId);
    if (state.status !== 'waiting' && state.status !== 'awaiting-verification') return false;
    return (await this.decideIn(em, ownerId, '', metadata, { type: 'CancelDelivery', ownerId, now: this.now() })).length > 0;
  }

  /** An operator has checked the legal documents (recorded with the operator's id). */
  async verify(ownerId: string, sharedBy: string, metadata: EventMetadata, operatorId: string): Promise<DeliveryView> {
    await this.decide(ownerId, sharedBy, metadata, { type: 'VerifyDelivery', ownerId, operatorId, now: this.now() });
    return this.view(ownerId);
  }

  /** An operator opened the review: recorded before anything is shown (CONFLICT when nothing waits for verification). */
  async openReview(ownerId: string, operatorId: string, metadata: EventMetadata): Promise<void> {
    await this.decide(ownerId, '', metadata, { type: 'OpenDeliveryReview', ownerId, operatorId, now: this.now() });
  }

  /** An operator refused the verification: the delivery ends with the reason. */
  async reject(ownerId: string, operatorId: string, reason: string, metadata: EventMetadata): Promise<DeliveryView> {
    await this.decide(ownerId, '', metadata, { type: 'RejectDelivery', ownerId, operatorId, reason, now: this.now() });
    return this.view(ownerId);
  }

  /** The owner's delivery state and every event of its stream, with when and by whom each was recorded. */
  async history(ownerId: string): Promise<{ state: DeliveryState; events: StoredEvent<DeliveryEvent>[] }> {
    const em = this.deps.orm.em.fork();
    const { events } = await this.deps.store.readStream<DeliveryEvent>(em, deliveryStreamId(ownerId));
    return { state: foldEvents(deliveryDecider, events), events };
  }

  /** The owner, before it happens ("I'm still here"). */
  async cancel(ownerId: string, metadata: EventMetadata): Promise<DeliveryView> {
    await this.decide(ownerId, '', metadata, { type: 'CancelDelivery', ownerId, now: this.now() });
    return this.view(ownerId);
  }

  /**
   * The due job. Not due yet (an early or clock-skewed job): nothing happens and the caller schedules
   * it again. Due: every contact of the owner gets a key valid 30 days, and the release is recorded
   * in the same transaction, which commits only if the delivery's stream is still at the version read.
   */
  async release(job: DeliveryTimingJob): Promise<ReleaseOutcome> {
    const metadata: EventMetadata = { actor: { kind: 'system', id: 'delivery-timing' }, correlationId: `delivery-${job.subjectId}` };
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em): Promise<ReleaseOutcome> => {
      const now = this.now();
      const { state, version } = await this.state(em, job.ownerId);
      if (state.releaseId === job.subjectId && (state.status === 'released' || state.status === 'cancelled' || state.status === 'rejected')) return { outcome: 'nothing' };
      if (state.releaseId !== job.subjectId || state.status !== 'waiting') return { outcome: 'unknown' };
      if (!isDue(state, now)) return { outcome: 'not-due', dueAt: state.dueAt! };
      const expiresAt = new Date(Date.parse(now) + DELIVERED_KEY_DAYS * DAY_MS).toISOString();
      const keyIds: string[] = [];
      for (const contact of await findContactsForDelivery(em, job.ownerId)) {
        const keyId = randomUUID();
        const key = randomUUID();
        await this.deps.keys.issueKeyIn(em, metadata, {
          type: 'IssueKey', keyId, ownerId: job.ownerId, keyHash: hashAccessKey(key), source: 'delivery', requestId: null, scopes: [...VIEW_SECTIONS], expiresAt,
          recipient: { recipientEmail: contact.email, name: contact.name }, now,
        }, key, job.sharedBy);
        keyIds.push(keyId);
      }
      await decideAndAppend(em, this.deps.store, deliveryDecider, { type: 'ReleaseDelivery', ownerId: job.ownerId, releaseId: job.subjectId, keyIds, now }, {
        streamId: deliveryStreamId(job.ownerId), streamType: DELIVERY_STREAM_TYPE, metadata, expectedVersion: version,
      });
      await this.noticeTrustee(em, { ownerId: job.ownerId, releaseId: job.subjectId, kind: 'released', sharedBy: job.sharedBy, dueAt: null });
      return { outcome: 'released', keyIds };
    }));
  }

  /**
   * Queues the job that wakes the delivery at its due time (inside the caller's transaction, before
   * its commit), under the id the timers derive from the stream for that time.
   */
  async schedule(job: DeliveryTimingJob): Promise<void> {
    await enqueue(this.deps.jobs, job, deliveryJobId(job.subjectId, job.dueAt), { delay: delayUntil(job.dueAt, new Date().toISOString()) });
  }

  private async decide(ownerId: string, sharedBy: string, metadata: EventMetadata, command: DeliveryCommand): Promise<void> {
    await retryOnConflict(5, () => this.deps.orm.em.fork().transactional((em) => this.decideIn(em, ownerId, sharedBy, metadata, command)));
  }

  private async decideIn(em: EntityManager, ownerId: string, sharedBy: string, metadata: EventMetadata, command: DeliveryCommand): Promise<readonly unknown[]> {
    const result = await decideAndAppend(em, this.deps.store, deliveryDecider, command, { streamId: deliveryStreamId(ownerId), streamType: DELIVERY_STREAM_TYPE, metadata });
    const { state } = result;
    if (result.events.length && state.status === 'waiting' && state.dueAt) {
      await this.schedule({ subjectType: 'delivery', subjectId: state.releaseId!, ownerId, dueAt: state.dueAt, sharedBy });
    }
    if (result.events.some((e) => e.type === 'DeliveryTriggered')) {
      await this.noticeTrustee(em, { ownerId, releaseId: state.releaseId!, kind: 'started', sharedBy, dueAt: state.dueAt });
    }
    return result.events;
  }

  /**
   * notifications' question before it sends a trustee notice: has this step of this delivery committed?
   * ('unknown': not yet, or never; the worker retries a while, then gives up.)
   */
  async noticeState(ownerId: string, releaseId: string): Promise<{ state: 'started' | 'released' | 'cancelled' | 'unknown' }> {
    const { state } = await this.state(this.deps.orm.em.fork(), ownerId);
    if (state.releaseId !== releaseId) return { state: 'unknown' };
    if (state.status === 'released' || state.status === 'cancelled') return { state: state.status };
    // A rejected delivery ends as a cancelled one does: nothing more is sent about it.
    if (state.status === 'rejected') return { state: 'cancelled' };
    return { state: state.status === 'waiting' || state.status === 'awaiting-verification' ? 'started' : 'unknown' };
  }

  /**
   * Queues the trustee's notice of a step, inside the step's transaction (before its commit), when the
   * owner's settings say to notify a trustee and name one. One job per step (its id), however often
   * the step's transaction is retried.
   */
  private async noticeTrustee(em: EntityManager, step: Pick<TrusteeNoticeJob, 'ownerId' | 'releaseId' | 'kind' | 'sharedBy' | 'dueAt'>): Promise<void> {
    if (!this.deps.trusteeNotices) return;
    const settings = await findDeliverySettings(em, step.ownerId);
    if (!settings.notify_trustee || !settings.trustee_email) return;
    const noticeId = `${step.releaseId}-${step.kind}`;
    await enqueue(this.deps.trusteeNotices, { ...step, noticeId, trusteeEmail: settings.trustee_email, trusteeName: settings.trustee_name || null }, `trustee-${noticeId}`);
  }

  private state(em: EntityManager, ownerId: string): Promise<AggregatedStream<DeliveryState>> {
    return aggregateStream(em, this.deps.store, deliveryDecider, deliveryStreamId(ownerId));
  }
}
