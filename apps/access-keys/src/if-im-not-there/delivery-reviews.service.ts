import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { DeliveryHistory, DeliveryReview, DeliveryReviewSummary, DeliveryView, RequestMeta } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { aggregateStream, foldEvents, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import { trusteesDecider, trusteesStreamId, type TrusteesEvent } from '../trustees/trustees.decider.js';
import { findTrustees } from '../trustees/trustees.projection.js';
import { DELIVERY_STREAM_TYPE, deliveryDecider, deliveryStreamId, type DeliveryEvent, type DeliveryState } from './delivery-release.decider.js';
import type { DeliveryService } from './delivery.service.js';
import { inactivityDecider, inactivityStreamId } from './inactivity.decider.js';

export interface DeliveryReviewsDeps {
  orm: MikroORM;
  store: EventStore;
  delivery: DeliveryService;
  /** identity's display name of the owner: who the key e-mails say shared the vault. */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
}

/**
 * Who reviews: an admin (the token's admin claim, from the dashboard) or the ops CLI's operator. Their
 * id goes on every opening and decision. Anyone else: FORBIDDEN.
 */
export function reviewerOf(caller: Caller): string {
  if (caller.kind === 'operator') return caller.userId;
  if (caller.kind === 'user' && caller.isAdmin) return caller.userId;
  throw new DomainError('FORBIDDEN');
}

const reviewerMetadata = (caller: Caller, reviewerId: string, meta: RequestMeta): EventMetadata => ({
  actor: { kind: caller.kind === 'operator' ? 'operator' : 'user', id: reviewerId }, ...(meta.requestId ? { correlationId: meta.requestId } : {}),
});

/** The owners whose delivery's last decisive event is a trigger that waits for verification (openings decide nothing). */
const AWAITING_SQL = `
  select e.stream_id from events e
  where e.stream_type = ? and e.type = 'DeliveryTriggered' and (e.data->>'needsVerification')::boolean
    and not exists (select 1 from events later where later.stream_id = e.stream_id and later.version > e.version and later.type <> 'DeliveryReviewOpened')
  order by e.global_position`;

/**
 * The operators' review queue (issue 31): deliveries waiting for legal verification, each opened and
 * decided (verified, or rejected with a reason) on the owner's delivery stream, where every opening and
 * decision is an event with the reviewer's id. It reads who and when, never vault contents.
 */
export class DeliveryReviewsService {
  constructor(private readonly deps: DeliveryReviewsDeps) {}

  async list(caller: Caller): Promise<DeliveryReviewSummary[]> {
    reviewerOf(caller);
    const em = this.deps.orm.em.fork();
    const rows = await em.execute<{ stream_id: string }[]>(AWAITING_SQL, [DELIVERY_STREAM_TYPE]);
    const reviews: DeliveryReviewSummary[] = [];
    for (const { stream_id } of rows) {
      const ownerId = stream_id.slice('delivery-'.length);
      const { state } = await aggregateStream(em, this.deps.store, deliveryDecider, deliveryStreamId(ownerId));
      // The stream is the truth; the query only finds candidates.
      if (state.status === 'awaiting-verification') reviews.push(await this.summary(em, ownerId, state));
    }
    return reviews;
  }

  /** One review, recorded as opened by the reviewer before it is shown. CONFLICT when nothing waits for verification. */
  async open(caller: Caller, ownerId: string, meta: RequestMeta): Promise<DeliveryReview> {
    const reviewerId = reviewerOf(caller);
    await this.deps.delivery.openReview(ownerId, reviewerId, reviewerMetadata(caller, reviewerId, meta));
    const em = this.deps.orm.em.fork();
    const { events } = await this.deps.store.readStream<DeliveryEvent>(em, deliveryStreamId(ownerId));
    const state = foldEvents(deliveryDecider, events);
    const trustees = await findTrustees(em, ownerId);
    return {
      ...(await this.summary(em, ownerId, state)),
      trustees: trustees.filter((t) => t.status !== 'removed').map(({ name, relationship, status }) => ({ name, relationship, status })),
      // Reports carry no documents yet: the field is there for when they do (metadata only, never the files).
      documents: [],
      log: reviewLog(events, state.releaseId),
    };
  }

  /** Verified: the delivery goes ahead as `delivery:verify` lets it (recorded with the reviewer's id). */
  async approve(caller: Caller, ownerId: string, meta: RequestMeta): Promise<DeliveryView> {
    const reviewerId = reviewerOf(caller);
    // The key e-mails name who shared the vault: the owner's name, else his address, else a plain phrase (as the timers do).
    const ownerEmail = (await aggregateStream(this.deps.orm.em.fork(), this.deps.store, inactivityDecider, inactivityStreamId(ownerId))).state.ownerEmail;
    const sharedBy = (await this.deps.ownerName(ownerId, meta).catch(() => null)) || ownerEmail || 'A Legacy Vault owner';
    return this.deps.delivery.verify(ownerId, sharedBy, reviewerMetadata(caller, reviewerId, meta), reviewerId);
  }

  /** Rejected with a reason: the delivery ends, as a cancel ends it. */
  async reject(caller: Caller, ownerId: string, reason: string, meta: RequestMeta): Promise<DeliveryView> {
    const reviewerId = reviewerOf(caller);
    return this.deps.delivery.reject(ownerId, reviewerId, reason, reviewerMetadata(caller, reviewerId, meta));
  }

  /** `delivery:show` (operators): the state and every event of the owner's delivery stream. */
  async history(ownerId: string): Promise<DeliveryHistory> {
    const { state, events } = await this.deps.delivery.history(ownerId);
    return {
      owner_id: ownerId, status: state.status, release_id: state.releaseId, due_at: state.dueAt, triggered_at: state.triggeredAt,
      events: events.map((e) => ({ version: e.version, type: e.type, at: new Date(e.occurredAt).toISOString(), actor: e.metadata.actor ?? null, data: { ...e.data } })),
    };
  }

  private async summary(em: EntityManager, ownerId: string, state: DeliveryState): Promise<DeliveryReviewSummary> {
    const inactivity = await aggregateStream(em, this.deps.store, inactivityDecider, inactivityStreamId(ownerId));
    const { events } = await this.deps.store.readStream<TrusteesEvent>(em, trusteesStreamId(ownerId));
    const trustees = foldEvents(trusteesDecider, events);
    // The report that set this delivery off: the last one made up to its trigger.
    const report = events.filter((e) => e.type === 'TrusteeReported' && Date.parse(e.data.reportedAt) <= Date.parse(state.triggeredAt!)).at(-1);
    const reporter = report?.type === 'TrusteeReported' ? trustees.trustees[report.data.trusteeId] : undefined;
    return {
      owner_id: ownerId,
      owner_email: inactivity.state.ownerEmail,
      release_id: state.releaseId!,
      trigger: state.trigger ?? 'trustee-report',
      triggered_at: state.triggeredAt!,
      not_before: state.notBefore,
      reported: report?.type === 'TrusteeReported'
        ? { by: reporter?.details?.name ?? '', relationship: reporter?.relationship ?? null, kind: report.data.kind, reported_at: report.data.reportedAt }
        : null,
    };
  }
}

/** Every opening and decision of the current delivery's review, oldest first. */
export function reviewLog(events: readonly DeliveryEvent[], releaseId: string | null): DeliveryReview['log'] {
  const log: DeliveryReview['log'] = [];
  for (const event of events) {
    if (event.data.releaseId !== releaseId) continue;
    if (event.type === 'DeliveryReviewOpened') log.push({ action: 'opened', operator_id: event.data.operatorId, at: event.data.openedAt, reason: null });
    else if (event.type === 'DeliveryVerified') log.push({ action: 'verified', operator_id: event.data.operatorId ?? null, at: event.data.verifiedAt, reason: null });
    else if (event.type === 'DeliveryRejected') log.push({ action: 'rejected', operator_id: event.data.operatorId, at: event.data.rejectedAt, reason: event.data.personal?.reason ?? null });
  }
  return log;
}
