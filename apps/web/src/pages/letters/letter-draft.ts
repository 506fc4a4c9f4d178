/**
 * The unsaved letter draft (spec, section 3 "Browser-local data": unsaved_letter_draft). The new-letter
 * form writes `{ title, content }` here as the person types, restores it when the form opens again
 * and removes it on save or cancel. Its presence is what the shell's unsaved detection and the
 * "Sign Out Warning" report as "Letter Draft".
 */
export const LETTER_DRAFT_KEY = 'unsaved_letter_draft';

export interface LetterDraft {
  title: string;
  content: string;
}

/**
 * The key is the browser's, not the account's (the spec names one key), so the draft also records
 * whose it is: another account signing in on the same browser never gets it restored.
 */
interface StoredDraft extends LetterDraft {
  owner?: string;
}

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'setItem' | 'removeItem'>;

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The owner's saved draft, or null when there is none, it is someone else's, or it cannot be read (never throws). */
export function readLetterDraft(storage: ReadableStorage | undefined, owner?: string): LetterDraft | null {
  try {
    const raw = storage?.getItem(LETTER_DRAFT_KEY);
    if (raw == null) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft> | null;
    if (!parsed || typeof parsed !== 'object') return null;
    if (typeof parsed.owner === 'string' && parsed.owner !== owner) return null;
    return { title: typeof parsed.title === 'string' ? parsed.title : '', content: typeof parsed.content === 'string' ? parsed.content : '' };
  } catch {
    return null;
  }
}

/** Keeps the draft; a draft with nothing in it is no draft, so the key goes. */
export function writeLetterDraft(storage: WritableStorage | undefined, draft: LetterDraft, owner?: string): void {
  try {
    if (!draft.title.trim() && !draft.content.trim()) storage?.removeItem(LETTER_DRAFT_KEY);
    else storage?.setItem(LETTER_DRAFT_KEY, JSON.stringify({ title: draft.title, content: draft.content, ...(owner ? { owner } : {}) } satisfies StoredDraft));
  } catch {
    // Storage full or unavailable: the form still holds the words.
  }
}

export function clearLetterDraft(storage: WritableStorage | undefined): void {
  try {
    storage?.removeItem(LETTER_DRAFT_KEY);
  } catch {
    // ignore
  }
}
