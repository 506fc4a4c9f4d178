import type { VaultStats, VaultStatsContribution } from '@lv/contracts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * Adds up what the stats providers reported (owner-core spec, "Dashboard stats rules"):
 * videos and letters are summed; days active is the number of distinct calendar days across all
 * contributions, at least 1 for a signed-in user. A provider that failed is passed as null and
 * counts as 0 (the spec's fallback: zeros and one active day), so the numbers are never invented
 * and never fail the whole page.
 */
export function aggregateVaultStats(contributions: readonly (VaultStatsContribution | null | undefined)[]): VaultStats {
  let videosSaved = 0;
  let lettersWritten = 0;
  const days = new Set<string>();
  for (const contribution of contributions) {
    if (!contribution || typeof contribution !== 'object') continue;
    videosSaved += count(contribution.videosSaved);
    lettersWritten += count(contribution.lettersWritten);
    if (Array.isArray(contribution.activeDays)) {
      for (const day of contribution.activeDays) if (typeof day === 'string' && ISO_DAY.test(day)) days.add(day);
    }
  }
  return { videosSaved, lettersWritten, daysActive: Math.max(1, days.size) };
}
