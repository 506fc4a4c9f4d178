import { describe, expect, it } from '@jest/globals';
import { computeVaultTiles, REMEMBER_QUOTES, thoughtsCount } from './vault-stats.js';

describe('vault tiles', () => {
  it('counts a saved reflection once, and a blank one not at all', () => {
    expect(thoughtsCount('I miss you')).toBe(1);
    expect(thoughtsCount('   ')).toBe(0);
    expect(thoughtsCount(null)).toBe(0);
  });

  it('uses the server numbers, Thoughts Saved included (the reflection is kept in the vault)', () => {
    expect(computeVaultTiles({ status: 'success', data: { videosSaved: 3, lettersWritten: 2, thoughtsSaved: 1, daysActive: 5 } }, '')).toEqual({
      videosSaved: 3,
      lettersWritten: 2,
      thoughtsSaved: 1,
      daysActive: 5,
    });
    expect(computeVaultTiles({ status: 'success', data: { videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 0 } }, '')).toMatchObject({ thoughtsSaved: 0, daysActive: 1 });
    expect(computeVaultTiles({ status: 'success', data: { videosSaved: 0, lettersWritten: 0, thoughtsSaved: 4, daysActive: 1 } }, '')).toMatchObject({ thoughtsSaved: 1 });
  });

  it('counts the reflection loaded from the vault when the stats do not say', () => {
    const older = { videosSaved: 0, lettersWritten: 0, daysActive: 1 } as never;
    expect(computeVaultTiles({ status: 'success', data: older }, 'x')).toMatchObject({ thoughtsSaved: 1 });
    expect(computeVaultTiles({ status: 'success', data: older }, ' ')).toMatchObject({ thoughtsSaved: 0 });
  });

  it('falls back to zeros, the loaded reflection and 1 day active on failure', () => {
    expect(computeVaultTiles({ status: 'error' }, 'a thought')).toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 1, daysActive: 1 });
  });

  it('has nothing to show while loading', () => {
    expect(computeVaultTiles({ status: 'pending' }, 'a thought')).toBeNull();
  });

  it('has three Remember quotes', () => {
    expect(REMEMBER_QUOTES).toHaveLength(3);
  });
});
