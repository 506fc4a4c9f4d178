import { CourtJournalRpc, LettersRpc, TITLES_BATCH_MAX, VaultMediaRpc, type RequestMeta, type TimelineEntryType, type TimelineSource, type TitlesReply } from '@lv/contracts';
import type { RpcClient } from '@lv/platform/nest';
import type { Logger } from '@lv/platform/logging';

/** The batch `titles` call of each source that has words to show. */
const TITLES_SUBJECT: Partial<Record<TimelineSource, typeof LettersRpc.titles | typeof VaultMediaRpc.titles | typeof CourtJournalRpc.titles>> = {
  letters: LettersRpc.titles,
  'vault-media': VaultMediaRpc.titles,
  'court-journal': CourtJournalRpc.titles,
};

/** Shown when a source does not answer in time (the page is served rather than failed). */
export const FALLBACK_TITLES: Record<TimelineEntryType, string> = {
  video: 'Video message', audio: 'Audio message', text: 'Message', letter: 'Letter', document: 'Document', journal: 'Journal entry',
};

/** Titles are keyed by (source, id): two sources may use the same id. */
export const titleKey = (source: TimelineSource, id: string) => `${source}:${id}`;

/** The titles found, and the sources that answered (a source that answered without an id's title withheld it from this reader, or knows it no more). */
export interface SourceTitles {
  titles: Map<string, string>;
  /** Recordings whose playback copy is made: their poster and length (vault-media's answer), by titleKey. */
  playback: Map<string, NonNullable<TitlesReply['playback']>[string]>;
  answered: Set<TimelineSource>;
}

export type TitleLookup = (
  ids: { source: TimelineSource; id: string }[],
  caller: { accessToken?: string; meta: RequestMeta },
) => Promise<SourceTitles>;

/**
 * Titles come from the services that own the words, at read time, with the caller's own token: each
 * service answers only for the caller's vault. One call per source and 500 ids, in parallel, so a
 * page of any size and a vault of any size are titled in full. A source that fails or is slow leaves
 * its entries with fallback titles.
 */
export function sourceTitles(rpc: RpcClient, logger: Logger, timeoutMs: number): TitleLookup {
  return async (items, caller) => {
    const bySource = new Map<TimelineSource, string[]>();
    for (const { source, id } of items) {
      if (!TITLES_SUBJECT[source]) continue;
      const ids = bySource.get(source) ?? [];
      ids.push(id);
      bySource.set(source, ids);
    }
    const calls: Promise<[TimelineSource, TitlesReply | null]>[] = [];
    for (const [source, ids] of bySource) {
      for (let i = 0; i < ids.length; i += TITLES_BATCH_MAX) {
        calls.push(
          rpc.call(TITLES_SUBJECT[source]!, { ids: ids.slice(i, i + TITLES_BATCH_MAX) }, caller, timeoutMs).then(
            (reply): [TimelineSource, TitlesReply | null] => [source, reply],
            (err: unknown): [TimelineSource, TitlesReply | null] => {
              logger.warn({ err, source }, 'titles unavailable from a source; its entries show fallback titles');
              return [source, null];
            },
          ),
        );
      }
    }
    const titles = new Map<string, string>();
    const playback: SourceTitles['playback'] = new Map();
    const answered = new Set<TimelineSource>(bySource.keys());
    for (const [source, reply] of await Promise.all(calls)) {
      // One failed batch and the source counts as not answering: its entries keep fallback titles.
      if (!reply) {
        answered.delete(source);
        continue;
      }
      for (const [id, title] of Object.entries(reply.titles ?? {})) titles.set(titleKey(source, id), title);
      for (const [id, copy] of Object.entries(reply.playback ?? {})) playback.set(titleKey(source, id), copy);
    }
    return { titles, playback, answered };
  };
}
