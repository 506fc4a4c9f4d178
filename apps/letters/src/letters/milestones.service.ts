import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { MilestoneReleaseJob, MilestoneReleaseReply, MilestonesDueReply } from '@lv/contracts';
import { aggregateStream, decideAndAppend, handleCommand, retryOnConflict, type AggregatedStream, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import { isMilestoneDue, LETTER_STREAM_TYPE, letterDecider, letterStreamId, type LetterCommand, type LetterState } from './letter.decider.js';
import { findMilestoneWork, findPendingMilestones, findRelease } from './milestones.projection.js';

/** How many due letters one operator's due check takes on. */
const DUE_CHECK_BATCH = 500;

export interface MilestonesDeps {
  orm: MikroORM;
  store: EventStore;
  /** The milestone-release queue: one delayed job per seal, id `milestone-<releaseId>`. */
  jobs: TypedQueue<MilestoneReleaseJob>;
  /** access-keys: issue the recipient's key for a committed release (idempotent per release); null when it finds no release. */
  issueKey: (letterId: string, releaseId: string) => Promise<string | null>;
  /** The clock, injected so the specs can move time (the decider itself reads none). */
  now?: () => Date;
}

/**
 * `nothing`: the seal was removed or replaced, the letter deleted, or the release already complete.
 * `not-due`: woken early (clock skew); the worker schedules it again for `dueAt`.
 */
export type MilestoneOutcome = { outcome: 'released'; keyId: string | null } | { outcome: 'key-issued'; keyId: string | null } | { outcome: 'not-due'; dueAt: string } | { outcome: 'nothing' };

/**
 * A letter sealed until a day, released on that day: the decider's ReleaseLetter driven by a delayed
 * BullMQ job queued in the seal's own transaction (so a committed seal always has its job). The due
 * job records LetterReleased in the letter's own stream, conditional on the version it read, so of
 * any number of racing or repeated jobs one commits; a deleted letter or a removed seal is in that
 * same stream, so it is never released. Then access-keys issues the recipient's key (its id is the
 * release id: asked twice, it issues once, and its e-mail job id is the key's), and the key is
 * recorded; a job whose key call fails is retried, and the operator's due check finishes any left.
 * No plan check runs here: a lapsed plan never keeps a letter from its recipient.
 */
export class MilestonesService {
  constructor(private readonly deps: MilestonesDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /** Seals (or re-seals) a letter and queues its job inside the same transaction; the new release id replaces any earlier one. */
  async seal(command: Extract<LetterCommand, { type: 'SealLetter' | 'UnsealLetter' }>, metadata: EventMetadata): Promise<void> {
    await retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
      const result = await decideAndAppend(em, this.deps.store, letterDecider, command, { streamId: letterStreamId(command.letterId), streamType: LETTER_STREAM_TYPE, metadata });
      const sealed = result.events.find((e) => e.type === 'LetterSealed');
      if (sealed && result.state.milestone) {
        const { releaseId, dueAt } = result.state.milestone;
        await this.schedule({ letterId: command.letterId, releaseId, ownerId: command.ownerId, dueAt });
      }
    }));
  }

  /** A fresh release id for a seal command. */
  newReleaseId(): string {
    return randomUUID();
  }

  /**
   * The due job. Not due yet: nothing happens and the caller schedules it again. Due: LetterReleased
   * is appended at the version read (a racing job's append conflicts and finds it released). Released
   * without a recorded key: access-keys is asked for it, and the key recorded.
   */
  async release(job: Pick<MilestoneReleaseJob, 'letterId' | 'releaseId'>): Promise<MilestoneOutcome> {
    const metadata: EventMetadata = { actor: { kind: 'system', id: 'milestone-release' }, correlationId: `milestone-${job.releaseId}` };
    const released = await retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em): Promise<'released' | 'was-released' | MilestoneOutcome> => {
      const now = this.now();
      const { state, version } = await this.state(em, job.letterId);
      const milestone = state.milestone;
      if (state.status !== 'written' || milestone?.releaseId !== job.releaseId) return { outcome: 'nothing' };
      if (milestone.status === 'released') return milestone.keyId ? { outcome: 'nothing' } : 'was-released';
      if (!isMilestoneDue(state, now)) return { outcome: 'not-due', dueAt: milestone.dueAt };
      await decideAndAppend(em, this.deps.store, letterDecider, { type: 'ReleaseLetter', letterId: job.letterId, releaseId: job.releaseId, now }, {
        streamId: letterStreamId(job.letterId), streamType: LETTER_STREAM_TYPE, metadata, expectedVersion: version,
      });
      return 'released';
    }));
    if (typeof released === 'object') return released;
    // The release has committed: only now is the recipient's key asked for (access-keys checks it with us).
    const keyId = await this.deps.issueKey(job.letterId, job.releaseId);
    if (keyId) {
      await handleCommand(this.deps.orm.em, this.deps.store, letterDecider, { type: 'RecordLetterKey', letterId: job.letterId, releaseId: job.releaseId, keyId, now: this.now() }, {
        streamId: letterStreamId(job.letterId), streamType: LETTER_STREAM_TYPE, metadata,
      });
    }
    return released === 'released' ? { outcome: 'released', keyId } : { outcome: 'key-issued', keyId };
  }

  /**
   * The operator's due check (`milestone:due`): runs the due job for every sealed letter whose day has
   * come and every release whose key is not recorded. It acts on nothing else, so it never releases early.
   */
  async releaseDue(): Promise<MilestonesDueReply> {
    const reply: MilestonesDueReply = { released: 0, keys_issued: 0, not_due: 0 };
    for (const work of await findMilestoneWork(this.deps.orm.em.fork(), this.now(), DUE_CHECK_BATCH)) {
      const result = await this.release(work);
      if (result.outcome === 'released') reply.released++;
      if ((result.outcome === 'released' || result.outcome === 'key-issued') && result.keyId) reply.keys_issued++;
      if (result.outcome === 'not-due') reply.not_due++;
    }
    return reply;
  }

  /**
   * Re-derives the release jobs from the letters (at start and every MILESTONE_REARM_INTERVAL_SECONDS):
   * every sealed letter and every release without its key gets its job again under the seal's own job
   * id, so a Redis that lost its writes, failed over or was replaced never cancels a letter, and a job
   * still there is left as it is (BullMQ keeps one job per id; the decider releases once in any case).
   * Returns how many releases it looked at.
   */
  async rearm(): Promise<number> {
    let after: string | null = null;
    let count = 0;
    for (;;) {
      const page = await findPendingMilestones(this.deps.orm.em.fork(), after, DUE_CHECK_BATCH);
      for (const work of page) await this.schedule({ letterId: work.letterId, releaseId: work.releaseId, ownerId: work.ownerId, dueAt: work.dueAt });
      count += page.length;
      if (page.length < DUE_CHECK_BATCH) return count;
      after = page.at(-1)!.releaseId;
    }
  }

  /** access-keys' question before it issues a key: has this release committed, and for whom? */
  async releaseOf(letterId: string, releaseId: string): Promise<MilestoneReleaseReply> {
    const row = await findRelease(this.deps.orm.em.fork(), letterId, releaseId);
    return row ? { state: 'released', ...row } : { state: 'unknown' };
  }

  /** Queues the job that wakes the letter on its day (inside the caller's transaction); one that wakes early waits again as the same job. */
  async schedule(job: MilestoneReleaseJob): Promise<void> {
    const delay = Math.max(0, Date.parse(job.dueAt) - Date.now());
    await enqueue(this.deps.jobs, job, `milestone-${job.releaseId}`, { delay });
  }

  private state(em: EntityManager, letterId: string): Promise<AggregatedStream<LetterState>> {
    return aggregateStream(em, this.deps.store, letterDecider, letterStreamId(letterId));
  }
}
