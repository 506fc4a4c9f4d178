import type { VaultStats } from '@lv/contracts';

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
 * The four tiles: numbers from GET /api/vault/stats (Thoughts Saved included: the reflection is kept
 * in the vault now, not in the browser); on failure zeros, thoughts from the reflection as loaded
 * from the vault, and 1 day active (spec, section 7 "Dashboard stats rules"). Null while loading.
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
      thoughtsSaved: typeof query.data.thoughtsSaved === 'number' ? Math.min(1, Math.max(0, query.data.thoughtsSaved)) : thoughtsSaved,
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
