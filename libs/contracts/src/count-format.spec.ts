import { formatCount } from './count-format.js';

describe('formatCount', () => {
  it('groups thousands as en-GB does', () => {
    const values = [0, 7, 42, 999, 1000, 2500, 20_000, 99_999, 100_000, 1_000_000, 123_456_789, -1, -1234, Number.MAX_SAFE_INTEGER];
    for (const n of values) expect(formatCount(n)).toBe(n.toLocaleString('en-GB'));
    expect(formatCount(100_000)).toBe('100,000');
  });

  it('leaves what is not a whole number to the locale', () => {
    expect(formatCount(1234.5)).toBe((1234.5).toLocaleString('en-GB'));
  });
});
