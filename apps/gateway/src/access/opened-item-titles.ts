import { CourtJournalRpc, LettersRpc, VaultMediaRpc, type TitlesReply, type ViewerItemKind, type ViewSessionSummary } from '@lv/contracts';
import type { CallContext, RpcClient } from '@lv/platform/nest';

/** The owning service's batch title lookup for each kind of opened item (null: a fixed name). */
const TITLE_SOURCES = {
  letter: LettersRpc.titles,
  recording: VaultMediaRpc.titles,
  'portrait-media': VaultMediaRpc.titles,
  'final-message': VaultMediaRpc.titles,
  document: CourtJournalRpc.titles,
  portrait: null,
  'final-thoughts': null,
} as const satisfies Record<ViewerItemKind, unknown>;

const FIXED_TITLES: Partial<Record<ViewerItemKind, string>> = { portrait: 'Who I Am', 'final-thoughts': 'Final thoughts' };

/**
 * The owner's view audit names what each viewer opened; access-keys keeps only kinds and ids (never
 * words: a deleted letter's title must not survive in another service). The titles are read here, at
 * read time, from each owning service with the owner's own token; an item since deleted has none.
 */
export async function withOpenedItemTitles(rpc: RpcClient, sessions: ViewSessionSummary[], call: CallContext): Promise<ViewSessionSummary[]> {
  const idsBySource = new Map<(typeof TITLE_SOURCES)[ViewerItemKind], Set<string>>();
  for (const view of sessions.flatMap((session) => session.views)) {
    const source = view.item ? TITLE_SOURCES[view.item.kind] : null;
    if (!view.item || !source) continue;
    idsBySource.set(source, (idsBySource.get(source) ?? new Set()).add(view.item.id));
  }
  const titles: Record<string, string> = {};
  await Promise.all([...idsBySource].map(async ([source, ids]) => {
    if (!source) return;
    // A source that cannot answer leaves its titles out: the audit itself must still show.
    const reply: TitlesReply | null = await rpc.call(source, { ids: [...ids] }, call).catch(() => null);
    if (reply) Object.assign(titles, reply.titles);
  }));
  return sessions.map((session) => ({
    ...session,
    views: session.views.map((view) => (view.item ? { ...view, item: { ...view.item, title: FIXED_TITLES[view.item.kind] ?? titles[view.item.id] ?? null } } : view)),
  }));
}
