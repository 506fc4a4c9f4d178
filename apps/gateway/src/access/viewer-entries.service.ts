import { Inject, Injectable } from '@nestjs/common';
import {
  AccessKeysRpc, CourtJournalRpc, ErrorCodes, isUuid, LETTERS_PAGE_MAX, LetterMessages, LettersRpc, TIMELINE_PAGE_MAX, TimelineRpc, timelineSourcesFor, VaultMediaRpc, VIEW_SECTIONS,
  type FinalAccess, type Letter, type Portrait, type TimelineSource, type ViewedItem, type ViewerEntry, type ViewerItemKind, type ViewSection,
} from '@lv/contracts';
import { requireSection, type ViewerCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { RPC_CLIENT } from '../infra/tokens.js';

const isViewSection = (value: string): value is ViewSection => (VIEW_SECTIONS as readonly string[]).includes(value);

/** What each timeline source's entries are, to the viewer. */
const TIMELINE_KINDS = { 'vault-media': 'recording', letters: 'letter', 'court-journal': 'document' } as const satisfies Record<TimelineSource, ViewerItemKind>;

/** Refusals about the viewer itself (its session ended meanwhile): the viewer must see them as they are. */
const VIEWER_REFUSALS = new Set(Object.entries(ErrorCodes).filter(([, { status }]) => status === 401 || status === 403).map(([code]) => code));

interface Page<T> {
  items: T[];
  next: string | null;
}

/** Every page of a cursor-paged list; a cursor seen twice ends it (a service bug must not loop forever). */
async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.next && !seen.has(page.next) ? page.next : undefined;
    if (cursor) seen.add(cursor);
  } while (cursor);
  return items;
}

const newestFirst = (a: ViewerEntry, b: ViewerEntry) => Date.parse(b.created_at) - Date.parse(a.created_at) || a.id.localeCompare(b.id);

/**
 * What a viewer's tab lists (GET /api/view/entries/:section): each entry's id, created time and one
 * headline field, newest first. The view is recorded before anything is read (the owner sees who
 * viewed what and when; no data leaves unrecorded), and every read goes to the owning service with
 * the viewer's own token, so that service checks the session and the section again (viewerOf readers).
 */
@Injectable()
export class ViewerEntriesService {
  /** One reader per section: a new section does not compile until it is given one. */
  private readonly readers: Record<ViewSection, (viewer: ViewerCaller, call: CallContext) => Promise<ViewerEntry[]>> = {
    // The recordings, and the letters and court documents of the sections this key also holds
    // (contracts' TIMELINE_SOURCE_SECTIONS): a key limited to the timeline never learns what the other
    // sections hold, not even a headline. The timeline service leaves them out too; this is the gateway's check.
    timeline: async (viewer, call) => {
      const shown = new Set(timelineSourcesFor(viewer.scopes));
      const entries = await allPages(async (before) => {
        const page = await this.rpc.call(TimelineRpc.list, { limit: TIMELINE_PAGE_MAX, ...(before ? { before } : {}) }, call);
        return { items: page.entries, next: page.nextCursor };
      });
      return entries.flatMap((entry): ViewerEntry[] => {
        if (!shown.has(entry.source)) return [];
        const kind = TIMELINE_KINDS[entry.source];
        const media = entry.type === 'video' || entry.type === 'audio' ? entry.type : null;
        // A recording's poster (its link: GET /api/view/media/:id/poster) and length, once its playback copy is made.
        const playback = entry.duration_seconds !== undefined ? { poster: entry.poster === true, duration_seconds: entry.duration_seconds } : {};
        return [{ id: entry.id, created_at: entry.created_at, headline: entry.title, kind, media, ...playback }];
      });
    },
    letters: async (_viewer, call) => {
      const letters = await allPages(async (cursor) => {
        const page = await this.rpc.call(LettersRpc.list, { limit: LETTERS_PAGE_MAX, ...(cursor ? { cursor } : {}) }, call);
        return { items: page.letters, next: page.nextCursor };
      });
      return letters.map((letter) => ({ id: letter.id, created_at: letter.created_at, headline: letter.title, kind: 'letter' as const }));
    },
    // The file's name only: a viewer's list never carries a document's title or description.
    'court-journal': async (_viewer, call) => {
      const documents = await this.rpc.call(CourtJournalRpc.list, {}, call);
      return documents.map((document) => ({ id: document.id, created_at: document.created_at, headline: document.file_name, kind: 'document' as const }));
    },
    // The sections of the portrait the owner filled, by name (opened whole with GET /api/view/who-i-am), and the photo and personal media by title.
    'who-i-am': async (_viewer, call) => {
      const [sections, media] = await Promise.all([this.rpc.call(LettersRpc.portraitSections, {}, call), this.rpc.call(VaultMediaRpc.portraitMediaTitles, {}, call)]);
      return [
        ...sections.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.section, kind: 'portrait' as const })),
        ...media.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title, kind: 'portrait-media' as const })),
      ];
    },
    // The final thoughts (while the owner allows a preview, or once released) and the final messages.
    'if-im-not-there': async (_viewer, call) => {
      const [thoughts, messages] = await Promise.all([this.rpc.call(AccessKeysRpc.finalEntries, {}, call), this.rpc.call(VaultMediaRpc.finalMessageTitles, {}, call)]);
      return [
        ...thoughts.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title, kind: 'final-thoughts' as const })),
        ...messages.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title, kind: 'final-message' as const })),
      ];
    },
  };

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async list(viewer: ViewerCaller, section: string, call: CallContext): Promise<ViewerEntry[]> {
    if (!isViewSection(section)) throw new DomainError('NOT_FOUND');
    requireSection(viewer, section);
    await this.recordOpened(section, undefined, call);
    const entries = await this.readers[section](viewer, call);
    return entries.sort(newestFirst);
  }

  /**
   * The one letter a milestone key opens (a letter sealed until a day, released to its recipient): its
   * whole words, read with the viewer's token so letters checks the release itself. Any other key has none.
   */
  async releasedLetter(viewer: ViewerCaller, call: CallContext): Promise<Letter> {
    if (!viewer.letterId) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
    return this.letter(viewer, viewer.letterId, call);
  }

  /**
   * One letter, whole (GET /api/view/letters/:id): for a key of the Letters section, or a milestone
   * key's own letter. letters opens the sealed words for the viewer's token and refuses letters still
   * sealed for a milestone, another vault's, or any when the token lacks the section.
   */
  async letter(viewer: ViewerCaller, id: string, call: CallContext): Promise<Letter> {
    requireSection(viewer, 'letters');
    // Not an id, or not the one letter a milestone key opens: nothing to record, nothing to read.
    const letterId = isUuid(id) ? id.toLowerCase() : null;
    if (!letterId || (viewer.letterId && viewer.letterId !== letterId)) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
    await this.recordOpened('letters', { kind: 'letter', id: letterId }, call);
    return this.rpc.call(LettersRpc.get, { id: letterId }, call);
  }

  /** The Who I Am page's words (GET /api/view/who-i-am): about me, traits, favourites and values. */
  async portrait(viewer: ViewerCaller, call: CallContext): Promise<Portrait> {
    requireSection(viewer, 'who-i-am');
    await this.recordOpened('who-i-am', { kind: 'portrait', id: viewer.vaultOwnerId }, call);
    return this.rpc.call(LettersRpc.portraitGet, {}, call);
  }

  /**
   * If I'm Not There's words (GET /api/view/if-im-not-there): whether the owner's settings (a preview)
   * or the release open them, and the final thoughts when they do. access-keys decides.
   */
  async finals(viewer: ViewerCaller, call: CallContext): Promise<FinalAccess> {
    requireSection(viewer, 'if-im-not-there');
    const access = await this.rpc.call(AccessKeysRpc.finalAccess, {}, call);
    if (access.final_thoughts) await this.recordOpened('if-im-not-there', { kind: 'final-thoughts', id: viewer.vaultOwnerId }, call);
    return access;
  }

  /**
   * Records that the viewer opened a section's list (no item) or one item of it, before anything is
   * read: access-keys checks the session is still live and keeps at most one row a minute per item.
   */
  async recordOpened(section: ViewSection, item: ViewedItem | undefined, call: CallContext): Promise<void> {
    try {
      await this.rpc.call(AccessKeysRpc.recordView, { section, ...(item ? { item } : {}) }, call);
    } catch (error) {
      if (error instanceof DomainError && VIEWER_REFUSALS.has(error.code)) throw error;
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
  }
}
