import type { MikroORM } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AWAIT_ENTRY_GONE_MAX_MS, canUseFeature, isUuid, MediaMessages, TIMELINE_PAGE_DEFAULT, TIMELINE_PAGE_MAX, TIMELINE_SOURCES, timelineSourcesFor, type AwaitEntryGoneReply, type RequestMeta,
  type TimelineEntry, type TimelinePage, type TimelineSource, type VaultStatsContribution,
} from '@lv/contracts';
import { requireSection, vaultOwnerId, type AccountCaller, type Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import type { RebuildReport } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { sourcedPageCursor } from '@lv/platform/paging';
import { FALLBACK_TITLES, titleKey, type TitleLookup } from './timeline/source-titles.js';
import { replayFeed } from './timeline/stream-replay.js';
import type { TimelineFeed } from './timeline/timeline.projection.js';
import { TimelineRepository, type UntitledEntry } from './timeline/timeline.repository.js';

/** How often await-entry-gone looks again: a consumer applies an event within a few ms of its publication. */
const GONE_POLL_MS = 50;

/** How the caller's token travels on to the sources' `titles` calls. */
export interface CallerContext {
  accessToken?: string;
  meta: RequestMeta;
}

export interface TimelineServiceDeps {
  orm: MikroORM;
  nats: NatsConnection;
  feeds: readonly TimelineFeed[];
  titles: TitleLookup;
  logger: Logger;
  stackId?: string;
  /** Pauses this process's durable consumers while a rebuild replays (set by the module). */
  pauseConsumers?: <T>(work: () => Promise<T>) => Promise<T>;
}

const callerProfile = (caller: AccountCaller) => ({ subscription_tier: caller.tier, ai_admin: caller.isAdmin });

/**
 * The sources whose entries the caller sees: every source for an account; for a viewer, those of the
 * sections his key opens (contracts' TIMELINE_SOURCE_SECTIONS): letters and court documents stay off the
 * timeline of a key without their sections, not even their days showing.
 */
const visibleSources = (caller: Caller): readonly TimelineSource[] | undefined => (caller.kind === 'viewer' ? timelineSourcesFor(caller.scopes) : undefined);
const timelineCursor = sourcedPageCursor(TIMELINE_SOURCES);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The vault timeline's use cases. Transport-free (the controller and the specs call them). Every read
 * is scoped to the vault of the verified caller; another vault's entry is "not found".
 */
export class TimelineService {
  private readonly repository = new TimelineRepository();

  constructor(private readonly deps: TimelineServiceDeps) {}

  get orm(): MikroORM {
    return this.deps.orm;
  }

  private get em() {
    return this.deps.orm.em.fork();
  }

  /** One page of the caller's timeline (gated: essentials, pro, legacy, admins), titled by the sources. */
  async list(caller: Caller, query: { limit?: number; before?: string }, context: CallerContext): Promise<TimelinePage> {
    // The plan gates the owner's own timeline screen. A viewer's reach is what the owner's key opens
    // (its sections, checked by @Readers), so family see the vault's history whatever the plan.
    if (caller.kind !== 'viewer' && !canUseFeature(callerProfile(caller), 'timeline')) throw new DomainError('UPGRADE_REQUIRED', MediaMessages.timelinePlanRequired);
    const limit = Math.min(Math.max(query.limit ?? TIMELINE_PAGE_DEFAULT, 1), TIMELINE_PAGE_MAX);
    const after = query.before ? timelineCursor.decode(query.before) : null;
    if (query.before && !after) throw validationError({ before: 'This page cursor is not valid; reload the timeline.' }, 'This page cursor is not valid; reload the timeline.');
    // One more than asked tells whether another page follows.
    requireSection(caller, 'timeline');
    const rows = await this.repository.page(this.em, vaultOwnerId(caller), limit + 1, after, visibleSources(caller));
    const page = rows.slice(0, limit);
    const entries = await this.titled(page, context, caller);
    const last = page.at(-1);
    return { entries, nextCursor: rows.length > limit && last ? timelineCursor.encode(last) : null };
  }

  /** One entry of the caller's vault, titled; NOT_FOUND when it is someone else's, unknown or deleted. */
  async entry(caller: Caller, id: string, context: CallerContext): Promise<TimelineEntry> {
    requireSection(caller, 'timeline');
    // An entry of a section the viewer's key does not open is, to him, no entry at all.
    const row = isUuid(id) ? await this.repository.find(this.em, vaultOwnerId(caller), id.toLowerCase(), visibleSources(caller)) : null;
    if (!row) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const [entry] = await this.titled([row], context, caller);
    if (!entry) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    return entry;
  }

  /**
   * Waits until the entry is off the caller's timeline (its source's deletion event applied), so a
   * client that deletes and reloads never sees it again. An id that was never the caller's counts
   * as gone at once.
   */
  async awaitEntryGone(caller: Caller, id: string, timeoutMs = 5000): Promise<AwaitEntryGoneReply> {
    if (!isUuid(id)) throw validationError({ id: MediaMessages.invalidEntryId }, MediaMessages.invalidEntryId);
    const deadline = Date.now() + Math.min(Math.max(timeoutMs, 0), AWAIT_ENTRY_GONE_MAX_MS);
    for (;;) {
      if (!(await this.repository.find(this.em, vaultOwnerId(caller), id.toLowerCase()))) return { gone: true };
      if (Date.now() >= deadline) return { gone: false };
      await sleep(GONE_POLL_MS);
    }
  }

  /** The days the caller's vault has entries on (every source together). */
  async stats(caller: Caller): Promise<VaultStatsContribution> {
    return { activeDays: await this.repository.activeDays(this.em, vaultOwnerId(caller)) };
  }

  /**
   * Rebuilds the timeline from the source streams: in one transaction, the rows and the feeds' inbox
   * rows are cleared and every stream is replayed through the same handlers, so readers see the old
   * timeline until the new one commits.
   */
  async rebuild(): Promise<RebuildReport[]> {
    const run = () => this.em.transactional(async (em) => {
      await this.repository.reset(em, this.deps.feeds.map((f) => f.consumer));
      const reports: RebuildReport[] = [];
      for (const feed of this.deps.feeds) {
        const started = Date.now();
        const events = await replayFeed(this.deps.nats, feed, (work) => work(em), this.deps.stackId);
        reports.push({ projection: `timeline_entries:${feed.source}`, events, ms: Date.now() - started });
      }
      return reports;
    });
    const reports = await (this.deps.pauseConsumers ? this.deps.pauseConsumers(run) : run());
    this.deps.logger.info({ reports }, 'timeline rebuilt from the source streams');
    return reports;
  }

  /**
   * Titles each row from its source, with the reader's token. For a viewer, an entry its source
   * answered for without a title is left out: the source withholds it from this reader (a letter
   * sealed for a milestone is no key holder's), so not even its date shows. The owner sees every
   * entry; an unanswering source leaves fallback titles for anyone.
   */
  private async titled(rows: UntitledEntry[], context: CallerContext, caller: Caller): Promise<TimelineEntry[]> {
    if (!rows.length) return [];
    const { titles, playback, answered } = await this.deps.titles(rows.map((r) => ({ source: r.source, id: r.id })), context);
    const withheld = (row: UntitledEntry) => caller.kind === 'viewer' && answered.has(row.source) && !titles.has(titleKey(row.source, row.id));
    return rows.filter((row) => !withheld(row)).map((row) => {
      const key = titleKey(row.source, row.id);
      const copy = playback.get(key);
      return { ...row, title: titles.get(key) ?? FALLBACK_TITLES[row.type] ?? 'Entry', ...(copy ? { poster: copy.poster, duration_seconds: copy.duration_seconds } : {}) };
    });
  }
}
