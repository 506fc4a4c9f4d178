import type { VaultStats } from '@lv/contracts';

/** Browser-local private reflection (spec, section 3: vault_thoughts). */
export const THOUGHTS_STORAGE_KEY = 'vault_thoughts';

export interface VaultTiles {
  videosSaved: number;
  lettersWritten: number;
  thoughtsSaved: number;
  daysActive: number;
}

/** Thoughts Saved is 1 when the saved reflection is not blank, else 0. */
export function thoughtsCount(savedThoughts: string | null | undefined): number {
  return savedThoughts && savedThoughts.trim() ? 1 : 0;
}

/**
 * The four tiles: numbers from GET /api/vault/stats; on failure zeros, thoughts from local storage and
 * 1 day active (spec, section 7 "Dashboard stats rules"). Null while the numbers are still loading.
 */
export function computeVaultTiles(
  query: { status: 'pending' | 'error' | 'success'; data?: VaultStats },
  savedThoughts: string | null | undefined,
): VaultTiles | null {
  const thoughtsSaved = thoughtsCount(savedThoughts);
  if (query.status === 'success' && query.data) {
    return {
      videosSaved: Math.max(0, query.data.videosSaved),
      lettersWritten: Math.max(0, query.data.lettersWritten),
      thoughtsSaved,
      daysActive: Math.max(1, query.data.daysActive),
    };
  }
  if (query.status === 'error') return { videosSaved: 0, lettersWritten: 0, thoughtsSaved, daysActive: 1 };
  return null;
}

/** The "Remember" card shows the first of these. */
export const REMEMBER_QUOTES = [
  'Every word you save today is a gift your children can open tomorrow.',
  "Distance can pause a conversation, but it can never end a parent's love.",
  'You do not have to be perfect to be remembered well. You only have to be honest.',
] as const;

export function readSavedThoughts(storage: Pick<Storage, 'getItem'> | undefined): string {
  try {
    return storage?.getItem(THOUGHTS_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}
