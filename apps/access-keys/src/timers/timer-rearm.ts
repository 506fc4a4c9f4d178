import type { MikroORM } from '@mikro-orm/postgresql';
import type { DeliveryTimingJob, InactivityTimingJob, TrusteeReportNoticeJob } from '@lv/contracts';
import { aggregateStream, type EventStore } from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import { DELIVERY_STREAM_TYPE, deliveryDecider, deliveryStreamId } from '../if-im-not-there/delivery-release.decider.js';
import { INACTIVITY_STREAM_TYPE, inactivityDecider, inactivityStreamId } from '../if-im-not-there/inactivity.decider.js';
import { TRUSTEES_STREAM_TYPE, trusteesDecider, trusteesStreamId } from '../trustees/trustees.decider.js';
import { delayUntil, deliveryTimer, inactivityTimer, rearmAction, reportNoticeTimers, type PlannedTimer } from './timer-plan.js';

export interface TimerRearmDeps {
  orm: MikroORM;
  store: EventStore;
  deliveryJobs: TypedQueue<DeliveryTimingJob>;
  inactivityJobs: TypedQueue<InactivityTimingJob>;
  reportNotices: TypedQueue<TrusteeReportNoticeJob>;
  /** Who shares the vault, as a re-added delivery's key e-mails name them (the stream does not keep it). */
  sharedBy: (ownerId: string) => Promise<string>;
  now?: () => Date;
}

/** What one pass found: timers the stores say are pending, and how many of them it had to add again. */
export interface RearmCounts { pending: number; added: number }

/**
 * Why: every timed step (a delivery due, which is also the veto window's end; an inactivity wake; a
 * trustee report's notices) is a delayed job in Redis, but its truth is in PostgreSQL. A Redis that
 * lost its writes, failed over or was replaced, or a job dead-lettered while the database was down,
 * would silently cancel the step. So at start and every TIMER_REARM_INTERVAL_SECONDS this re-derives
 * each pending timer from the event streams (timer-plan.ts decides) and adds the missing ones under
 * the normal path's own job id: BullMQ keeps one job per id, and every handler re-checks its stream,
 * so nothing happens twice. A delivery or wake whose job finished while its step is still pending
 * (dead-lettered) is replaced; a notice's finished
 * job is left alone (notifications records what it sent or gave up on).
 */
export class TimerRearm {
  private running: Promise<RearmCounts> | null = null;

  constructor(private readonly deps: TimerRearmDeps) {}

  /** One pass; a pass asked for while one runs joins it. */
  rearm(): Promise<RearmCounts> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<RearmCounts> {
    const now = (this.deps.now?.() ?? new Date()).toISOString();
    const counts: RearmCounts = { pending: 0, added: 0 };
    const ensure = async (timer: PlannedTimer | null) => {
      if (!timer) return;
      counts.pending++;
      if (await this.ensure(timer, now)) counts.added++;
    };
    for (const ownerId of await this.owners(DELIVERY_STREAM_TYPE, `type in ('DeliveryTriggered', 'DeliveryVerified')`)) {
      await ensure(deliveryTimer(ownerId, (await aggregateStream(this.deps.orm.em.fork(), this.deps.store, deliveryDecider, deliveryStreamId(ownerId))).state));
    }
    for (const ownerId of await this.owners(INACTIVITY_STREAM_TYPE)) {
      const em = this.deps.orm.em.fork();
      const { state } = await aggregateStream(em, this.deps.store, inactivityDecider, inactivityStreamId(ownerId));
      const [seen] = await em.execute<{ last_sign_in_at: Date | string | null }[]>(`select last_sign_in_at from owner_last_seen where owner_id = ?`, [ownerId]);
      await ensure(inactivityTimer(ownerId, state, seen?.last_sign_in_at ? new Date(seen.last_sign_in_at).toISOString() : null));
    }
    // Only owners with a report whose veto window is still open can have a notice pending.
    const reported = `exists (select 1 from events r where r.stream_id = last.stream_id and r.type = 'TrusteeReported' and (r.data->>'vetoEndsAt')::timestamptz > ?::timestamptz)`;
    for (const ownerId of await this.owners(TRUSTEES_STREAM_TYPE, reported, [now])) {
      const { state } = await aggregateStream(this.deps.orm.em.fork(), this.deps.store, trusteesDecider, trusteesStreamId(ownerId));
      for (const timer of reportNoticeTimers(ownerId, state, now)) await ensure(timer);
    }
    return counts;
  }

  /**
   * The owners with a stream of this type whose latest event passes `lastEvent` (a SQL condition on
   * `last`, that latest event row). Stream ids are `<type>-<ownerId>`.
   */
  private async owners(streamType: string, lastEvent = 'true', params: unknown[] = []): Promise<string[]> {
    const rows = await this.deps.orm.em.fork().execute<{ stream_id: string }[]>(
      `select stream_id from (select distinct on (stream_id) stream_id, type from events where stream_type = ? order by stream_id, version desc) last where ${lastEvent}`,
      [streamType, ...params],
    );
    return rows.map((row) => row.stream_id.slice(streamType.length + 1));
  }

  /** Adds the timer's job when it is missing, or replaces a finished one (rearmAction decides). True when added. */
  private async ensure(timer: PlannedTimer, now: string): Promise<boolean> {
    const existing = await this.queueOf(timer).getJob(timer.jobId);
    const action = rearmAction(timer, existing ? await existing.getState() : null);
    if (action === 'keep') return false;
    if (action === 'replace') await existing!.remove();
    const options = { delay: delayUntil(timer.dueAt, now) };
    switch (timer.queue) {
      case 'delivery-timing':
        await enqueue(this.deps.deliveryJobs, {
          subjectType: 'delivery', subjectId: timer.releaseId, ownerId: timer.ownerId, dueAt: timer.dueAt, sharedBy: await this.deps.sharedBy(timer.ownerId),
        }, timer.jobId, options);
        break;
      case 'inactivity-timing':
        await enqueue(this.deps.inactivityJobs, { ownerId: timer.ownerId, dueAt: timer.dueAt }, timer.jobId, options);
        break;
      case 'trustee-report-notices':
        await enqueue(this.deps.reportNotices, { noticeId: timer.noticeId, reportId: timer.reportId, ownerId: timer.ownerId, kind: timer.kind }, timer.jobId, options);
        break;
    }
    return true;
  }

  private queueOf(timer: PlannedTimer): Pick<TypedQueue<unknown>, 'getJob'> {
    switch (timer.queue) {
      case 'delivery-timing': return this.deps.deliveryJobs;
      case 'inactivity-timing': return this.deps.inactivityJobs;
      case 'trustee-report-notices': return this.deps.reportNotices;
    }
  }
}
