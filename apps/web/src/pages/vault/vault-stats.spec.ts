import { describe, expect, it } from '@jest/globals';
import { computeVaultTiles, REMEMBER_QUOTES, thoughtsCount } from './vault-stats.js';

describe('vault tiles', () => {
  it('counts a saved reflection once, and a blank one not at all', () => {
    expect(thoughtsCount('I miss you')).toBe(1);
    expect(thoughtsCount('   ')).toBe(0);
    expect(thoughtsCount(null)).toBe(0);
  });

  it('uses the server numbers', () => {
    expect(computeVaultTiles({ status: 'success', data: { videosSaved: 3, lettersWritten: 2, daysActive: 5 } }, 'x')).toEqual({
      videosSaved: 3,
      lettersWritten: 2,
      thoughtsSaved: 1,
      daysActive: 5,
    });
    expect(computeVaultTiles({ status: 'success', data: { videosSaved: 0, lettersWritten: 0, daysActive: 0 } }, '')).toMatchObject({ daysActive: 1 });
  });

  it('falls back to zeros, local thoughts and 1 day active on failure', () => {
    expect(computeVaultTiles({ status: 'error' }, 'a thought')).toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 1, daysActive: 1 });
  });

  it('has nothing to show while loading', () => {
    expect(computeVaultTiles({ status: 'pending' }, 'a thought')).toBeNull();
  });

  it('has three Remember quotes', () => {
    expect(REMEMBER_QUOTES).toHaveLength(3);
  });
});
