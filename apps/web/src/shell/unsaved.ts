/**
 * Unsaved-work detection (owner-core spec, section 4 "Unsaved detection"): true when a draft key is
 * in localStorage, a recording is active, or an input/textarea on the page holds a value.
 */
export const DRAFT_KEYS = ['unsaved_draft', 'unsaved_text_draft', 'unsaved_letter_draft'] as const;
export type DraftKey = (typeof DRAFT_KEYS)[number];

/** How each draft is listed in the "Sign Out Warning" dialog. */
export const DRAFT_LABELS: Record<DraftKey, string> = {
  unsaved_draft: 'Video/Audio Recording',
  unsaved_text_draft: 'Text Entry',
  unsaved_letter_draft: 'Letter Draft',
};

export const UNSAVED_CHECK_INTERVAL_MS = 5000;
export const BEFORE_UNLOAD_MESSAGE = 'You have unsaved changes. Are you sure you want to leave?';

type StorageLike = Pick<Storage, 'getItem'>;
type WritableStorageLike = Pick<Storage, 'removeItem'>;

/**
 * The draft keys present in storage that are the signed-in owner's, in the dialog's order. The keys are
 * the browser's (the spec names one of each), so after one owner's "Save Drafts & Sign Out" the next
 * owner on the same browser would see the first one's draft: a draft that records another owner is
 * not this owner's unsaved work.
 */
export function findDrafts(storage: StorageLike | undefined, owner?: string): DraftKey[] {
  if (!storage) return [];
  return DRAFT_KEYS.filter((key) => {
    try {
      const raw = storage.getItem(key);
      return raw !== null && !isAnotherOwners(raw, owner);
    } catch {
      return false;
    }
  });
}

/** True when a stored draft names an owner and it is not `owner`. */
function isAnotherOwners(raw: string, owner: string | undefined): boolean {
  try {
    const parsed = JSON.parse(raw) as unknown;
    const recorded = parsed && typeof parsed === 'object' ? (parsed as { owner?: unknown }).owner : undefined;
    return typeof recorded === 'string' && recorded !== owner;
  } catch {
    return false; // not JSON: an unbound draft, counted as before
  }
}

/** Removes the owner's drafts ("Sign Out Without Saving"); another owner's saved draft stays his. */
export function removeDrafts(storage: (StorageLike & WritableStorageLike) | undefined, owner?: string): void {
  if (!storage) return;
  for (const key of findDrafts(storage, owner)) {
    try {
      storage.removeItem(key);
    } catch {
      // ignore: storage unavailable
    }
  }
}

/** Input types whose value is not something a person typed. */
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit']);

/**
 * True when an input or textarea under `root` holds a non-blank value that is not already saved.
 * Fields can opt out with `data-unsaved-ignore`, and can declare their saved value with
 * `data-saved-value` (e.g. a reflection loaded from storage is not unsaved work).
 */
export function hasFilledFields(root: ParentNode | undefined): boolean {
  if (!root) return false;
  const fields = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea');
  for (const field of fields) {
    if (field.closest('[data-unsaved-ignore]')) continue;
    if (field instanceof HTMLInputElement && NON_TEXT_INPUTS.has(field.type)) continue;
    if (field.disabled || field.readOnly) continue;
    const value = field.value;
    if (value.trim() === '') continue;
    const saved = field.getAttribute('data-saved-value');
    if (saved !== null && saved === value) continue;
    return true;
  }
  return false;
}

export interface UnsavedInputs {
  storage: StorageLike | undefined;
  /** The signed-in owner: drafts bound to someone else are not his unsaved work. */
  owner?: string;
  recordingActive: boolean;
  root: ParentNode | undefined;
}

export function detectUnsavedChanges({ storage, owner, recordingActive, root }: UnsavedInputs): boolean {
  return findDrafts(storage, owner).length > 0 || recordingActive || hasFilledFields(root);
}
