import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EvidenceEntrySummary, SignedEvidenceHead } from '@lv/contracts';
import { nextEntry, ZERO_HASH, type EvidenceEntry, type EvidenceFacts, type EvidenceKeyRing } from '@lv/evidence';
import { retryOnConflict, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import { EVIDENCE_STREAM_TYPE, EvidenceEvents, evidenceStreamId, type EvidenceEvent } from './evidence-events.repository.js';

const APPEND_ATTEMPTS = 12;

/**
 * An owner's evidence chain: the stream `evidence-{ownerId}` in this service's event store (its
 * reads in evidence-events.repository.ts), one EvidenceEntryAppended per entry, carrying the entry
 * (hashed with the previous one's hash by @lv/evidence) and the chain's new head signed with the
 * evidence key. The entries are the owner's record for a court: they keep titles, file names and
 * hashes, and are never shredded; a deleted document's file is gone, its entries (that it existed,
 * its hash, that it was deleted) stay.
 *
 * Appends state the version they read: two concurrent appends to one chain cannot both land on the
 * same sequence (unique (stream_id, version)); the loser gets a ConcurrencyError and decides again on
 * the new head, so the chain never forks.
 */
export class EvidenceChain {
  private readonly events = new EvidenceEvents();

  constructor(private readonly store: EventStore, private readonly keys: EvidenceKeyRing, private readonly now: () => number = Date.now) {}

  get publicKeys() {
    return this.keys.publicKeys;
  }

  /** The last entry of the chain and its version in the stream (0: empty). Only the last event is read. */
  private async last(em: EntityManager, ownerId: string): Promise<{ version: number; entry: EvidenceEntry | null; head: SignedEvidenceHead | null }> {
    const row = await this.events.last(em, ownerId);
    return row ? { version: row.version, entry: row.data.entry, head: row.data.head } : { version: 0, entry: null, head: null };
  }

  /**
   * Appends an entry in the caller's transaction (with the document event that caused it). A lost
   * race throws ConcurrencyError: the caller's command handler decides again (handleCommand does).
   */
  async appendIn(em: EntityManager, ownerId: string, facts: EvidenceFacts, metadata: EventMetadata = {}, guard?: (em: EntityManager) => Promise<void>): Promise<{ entry: EvidenceEntry; head: SignedEvidenceHead }> {
    const { version, entry: prev } = await this.last(em, ownerId);
    // Checked after the version is read: a change committed since makes this append conflict and
    // the check run again (a view of a document deleted meanwhile is refused, never chained after its deletion).
    await guard?.(em);
    const entry = nextEntry(prev, facts);
    const head = this.keys.sign({ ownerId, sequence: entry.sequence, headHash: entry.hash, signedAt: new Date(this.now()).toISOString() });
    await this.store.appendToStream(em, evidenceStreamId(ownerId), EVIDENCE_STREAM_TYPE, version === 0 ? 'no_stream' : version, [
      { type: 'EvidenceEntryAppended', data: { ownerId, entry, head } } satisfies EvidenceEvent,
    ], metadata);
    return { entry, head };
  }

  /**
   * Appends an entry on its own (a view, an export), retrying on a lost race; `guard` (throwing to
   * refuse) runs in the append's transaction on every attempt.
   */
  async append(orm: MikroORM, ownerId: string, facts: EvidenceFacts, metadata: EventMetadata = {}, guard?: (em: EntityManager) => Promise<void>): Promise<{ entry: EvidenceEntry; head: SignedEvidenceHead }> {
    return retryOnConflict(APPEND_ATTEMPTS, () => orm.em.fork().transactional((tem) => this.appendIn(tem, ownerId, facts, metadata, guard)));
  }

  /** The chain's signed head; an empty chain's head (sequence 0, 64 zeros) is signed when asked. */
  async head(em: EntityManager, ownerId: string): Promise<SignedEvidenceHead> {
    const { head } = await this.last(em, ownerId);
    return head ?? this.keys.sign({ ownerId, sequence: 0, headHash: ZERO_HASH, signedAt: new Date(this.now()).toISOString() });
  }

  /** Every entry, first to last, with the head signed after the last one (what a bundle carries). */
  async read(em: EntityManager, ownerId: string): Promise<{ entries: EvidenceEntry[]; head: SignedEvidenceHead }> {
    const events = await this.events.all(em, ownerId);
    const entries = events.map((e) => e.entry);
    const head = events.at(-1)?.head ?? (await this.head(em, ownerId));
    return { entries, head };
  }

  /** The entries as the owner's screen lists them. */
  async summaries(em: EntityManager, ownerId: string): Promise<EvidenceEntrySummary[]> {
    const { entries } = await this.read(em, ownerId);
    return entries.map((e) => ({ sequence: e.sequence, action: e.action, documentId: e.documentId, sha256: e.sha256, at: e.at, hash: e.hash }));
  }
}
