import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { sealedTextSchema } from '@lv/contracts';
import { DataKeys, openSealedText, sealText, type DomainEvent, type EventSealing, type ExpectedVersion, type PerStreamSealing, type StoredEvent } from '@lv/platform/event-store';
import { TRUSTEES_STREAM_TYPE } from './trustees.decider.js';

/**
 * One data key per trustee (table trustee_keys), for his name and address: an owner's trustees share
 * one stream, so the stream's key (personal-sealing.ts) cannot be destroyed for one of them. In a table
 * of its own: a trustee id is chosen by the client and must never take another subject's key row.
 */
export class TrusteeKeys extends DataKeys {
  constructor() {
    super({ table: 'trustee_keys', idColumn: 'trustee_id' });
  }
}

/** How a removed trustee's erasure is filed in the erasure journal (ids only): one "stream" per trustee. */
export const TRUSTEE_ERASURE_TYPE = 'trustee';
export const trusteeErasureStreamId = (trusteeId: string) => `${TRUSTEE_ERASURE_TYPE}-${trusteeId}`;
export const trusteeIdOfErasure = (streamId: string) => streamId.slice(`${TRUSTEE_ERASURE_TYPE}-`.length);

const sealContext = (trusteeId: string) => `personal:trustee:${trusteeId}`;

/** TrusteeNamed as the decider appends it (`personal` in the clear) and as stored (`trusteeSealed`). */
const namedPlain = z.object({ type: z.literal('TrusteeNamed'), data: z.looseObject({ trusteeId: z.string(), personal: z.unknown() }) });
const namedSealed = z.object({ type: z.literal('TrusteeNamed'), data: z.looseObject({ trusteeId: z.string(), trusteeSealed: sealedTextSchema.nullable() }) });
const removed = z.object({ type: z.literal('TrusteeRemoved'), data: z.looseObject({ trusteeId: z.string() }) });

/**
 * access-keys' sealing (`inner`, personal data under a key per stream), with each trustee's name and
 * address sealed under his own key on top: TrusteeRemoved destroys that key in its append's
 * transaction and journals the erasure (ids only), so his name and address are gone from history, and
 * the erasure journal's replay removes him again after a restore. A report's note stays under the
 * stream's key. Trustees named before this sealing existed keep theirs under the stream's key.
 */
export class TrusteeSealing implements EventSealing {
  constructor(readonly inner: PerStreamSealing, readonly keys = new TrusteeKeys()) {}

  async seal(em: EntityManager, stream: { streamId: string; streamType: string; expectedVersion: ExpectedVersion }, events: readonly DomainEvent[]): Promise<readonly DomainEvent[]> {
    if (stream.streamType !== TRUSTEES_STREAM_TYPE) return this.inner.seal(em, stream, events);
    const sealed: DomainEvent[] = [];
    for (const event of events) {
      const named = namedPlain.safeParse(event);
      if (!named.success) {
        sealed.push(event);
        continue;
      }
      const { personal, ...facts } = named.data.data;
      const key = await this.keys.findOrCreate(em, facts.trusteeId);
      if (!key) throw new Error(`no key to seal trustee ${facts.trusteeId}`);
      sealed.push({ type: event.type, data: { ...facts, trusteeSealed: personal === null ? null : sealText(key, JSON.stringify(personal), sealContext(facts.trusteeId)) } });
    }
    return this.inner.seal(em, stream, sealed);
  }

  async afterAppend(em: EntityManager, stream: { streamId: string; streamType: string }, events: readonly DomainEvent[]): Promise<void> {
    await this.inner.afterAppend(em, stream, events);
    if (stream.streamType !== TRUSTEES_STREAM_TYPE) return;
    for (const event of events) {
      const gone = removed.safeParse(event);
      if (gone.success) await this.erase(em, gone.data.data.trusteeId);
    }
  }

  /** Destroys a trustee's key and journals it (ids and times only), in `em`'s transaction. */
  async erase(em: EntityManager, trusteeId: string): Promise<void> {
    await this.keys.destroy(em, trusteeId);
    await em.execute('insert into erasure_journal (stream_type, stream_id, key_id) values (?, ?, ?)', [TRUSTEE_ERASURE_TYPE, trusteeErasureStreamId(trusteeId), trusteeId]);
  }

  async unseal(em: EntityManager, events: readonly StoredEvent[]): Promise<StoredEvent[]> {
    const opened = await this.inner.unseal(em, events);
    const ids = opened.flatMap((e) => {
      const named = e.streamType === TRUSTEES_STREAM_TYPE ? namedSealed.safeParse(e) : null;
      return named?.success ? [named.data.data.trusteeId] : [];
    });
    if (ids.length === 0) return opened;
    const keys = await this.keys.findMany(em, ids);
    return opened.map((e) => {
      const named = e.streamType === TRUSTEES_STREAM_TYPE ? namedSealed.safeParse(e) : null;
      if (!named?.success) return e;
      const { trusteeSealed, ...facts } = named.data.data;
      const key = keys.get(facts.trusteeId);
      // A removed trustee's key is gone: the facts stay, with `personal: null`.
      const personal: unknown = key && trusteeSealed ? JSON.parse(openSealedText(key, trusteeSealed, sealContext(facts.trusteeId))) : null;
      return { ...e, data: { ...facts, personal } };
    });
  }
}
