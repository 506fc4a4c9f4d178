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

/** The draft keys present in storage, in the dialog's order. */
export function findDrafts(storage: StorageLike | undefined): DraftKey[] {
  if (!storage) return [];
  return DRAFT_KEYS.filter((key) => {
    try {
      return storage.getItem(key) !== null;
    } catch {
      return false;
    }
  });
}

export function removeDrafts(storage: WritableStorageLike | undefined): void {
  if (!storage) return;
  for (const key of DRAFT_KEYS) {
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
  recordingActive: boolean;
  root: ParentNode | undefined;
}

export function detectUnsavedChanges({ storage, recordingActive, root }: UnsavedInputs): boolean {
  return findDrafts(storage).length > 0 || recordingActive || hasFilledFields(root);
}
