import type { VaultStats, VaultStatsContribution } from '@lv/contracts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * Adds up what the stats providers reported (owner-core spec, "Dashboard stats rules"):
 * videos and letters are summed; thoughts saved is 1 with a saved reflection (never more); days
 * active is the number of distinct calendar days across all contributions (the reflection's save
 * day included), at least 1 for a signed-in user. A provider that failed is passed as null and
 * counts as 0 (the spec's fallback: zeros and one active day), so the numbers are never invented
 * and never fail the whole page.
 */
export function aggregateVaultStats(contributions: readonly (VaultStatsContribution | null | undefined)[]): VaultStats {
  let videosSaved = 0;
  let lettersWritten = 0;
  let thoughtsSaved = 0;
  const days = new Set<string>();
  for (const contribution of contributions) {
    if (!contribution || typeof contribution !== 'object') continue;
    videosSaved += count(contribution.videosSaved);
    lettersWritten += count(contribution.lettersWritten);
    thoughtsSaved += count(contribution.thoughtsSaved);
    if (Array.isArray(contribution.activeDays)) {
      for (const day of contribution.activeDays) if (typeof day === 'string' && ISO_DAY.test(day)) days.add(day);
    }
  }
  // One reflection per user: a provider answering more (or two answering) still shows at most 1.
  return { videosSaved, lettersWritten, thoughtsSaved: Math.min(1, thoughtsSaved), daysActive: Math.max(1, days.size) };
}
