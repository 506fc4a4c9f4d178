import { Inject, Injectable } from '@nestjs/common';
import {
  AccessKeysRpc, AccessMessages, CourtJournalRpc, ErrorCodes, LETTERS_PAGE_MAX, LetterMessages, LettersRpc, TIMELINE_PAGE_MAX, TimelineRpc, VaultMediaRpc, VIEW_SECTIONS,
  type Letter, type ViewerEntry, type ViewSection,
} from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { RPC_CLIENT } from '../infra/tokens.js';

const isViewSection = (value: string): value is ViewSection => (VIEW_SECTIONS as readonly string[]).includes(value);

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
  private readonly readers: Record<ViewSection, (call: CallContext) => Promise<ViewerEntry[]>> = {
    timeline: async (call) => {
      const entries = await allPages(async (before) => {
        const page = await this.rpc.call(TimelineRpc.list, { limit: TIMELINE_PAGE_MAX, ...(before ? { before } : {}) }, call);
        return { items: page.entries, next: page.nextCursor };
      });
      return entries.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title }));
    },
    letters: async (call) => {
      const letters = await allPages(async (cursor) => {
        const page = await this.rpc.call(LettersRpc.list, { limit: LETTERS_PAGE_MAX, ...(cursor ? { cursor } : {}) }, call);
        return { items: page.letters, next: page.nextCursor };
      });
      return letters.map((letter) => ({ id: letter.id, created_at: letter.created_at, headline: letter.title }));
    },
    // The file's name only: a viewer's list never carries a document's title, description or contents.
    'court-journal': async (call) => {
      const documents = await this.rpc.call(CourtJournalRpc.list, {}, call);
      return documents.map((document) => ({ id: document.id, created_at: document.created_at, headline: document.file_name }));
    },
    // The sections of the portrait the owner filled, by name (never their words), and the photo and personal media by title.
    'who-i-am': async (call) => {
      const [sections, media] = await Promise.all([this.rpc.call(LettersRpc.portraitSections, {}, call), this.rpc.call(VaultMediaRpc.portraitMediaTitles, {}, call)]);
      return [
        ...sections.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.section })),
        ...media.map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title })),
      ];
    },
    // Titles only: the final thoughts (while the owner allows a preview) and the final messages' titles.
    'if-im-not-there': async (call) => {
      const [thoughts, messages] = await Promise.all([this.rpc.call(AccessKeysRpc.finalEntries, {}, call), this.rpc.call(VaultMediaRpc.finalMessageTitles, {}, call)]);
      return [...thoughts, ...messages].map((entry) => ({ id: entry.id, created_at: entry.created_at, headline: entry.title }));
    },
  };

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async list(viewer: ViewerCaller, section: string, call: CallContext): Promise<ViewerEntry[]> {
    if (!isViewSection(section)) throw new DomainError('NOT_FOUND');
    if (!viewer.scopes.includes(section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
    await this.recordView(section, call);
    const entries = await this.readers[section](call);
    return entries.sort(newestFirst);
  }

  /**
   * The one letter a milestone key opens (a letter sealed until a day, released to its recipient): its
   * whole words, read with the viewer's token so letters checks the release itself. Any other key has none.
   */
  async releasedLetter(viewer: ViewerCaller, call: CallContext): Promise<Letter> {
    if (!viewer.letterId) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
    if (!viewer.scopes.includes('letters')) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
    await this.recordView('letters', call);
    return this.rpc.call(LettersRpc.get, { id: viewer.letterId }, call);
  }

  /** Never show data without recording the view: a failure to record is a 503, and nothing is read. */
  private async recordView(section: ViewSection, call: CallContext): Promise<void> {
    try {
      await this.rpc.call(AccessKeysRpc.recordView, { section }, call);
    } catch (error) {
      if (error instanceof DomainError && VIEWER_REFUSALS.has(error.code)) throw error;
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
  }
}
