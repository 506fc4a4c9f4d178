import { describe, expect, it } from '@jest/globals';
import { FATHER_QUOTES, nextQuoteIndex, QUOTE_ROTATION_MS, randomQuoteIndex } from './quotes.js';

describe('father quotes', () => {
  it('has 8 attributed quotes and a 10-second rotation', () => {
    expect(FATHER_QUOTES).toHaveLength(8);
    for (const quote of FATHER_QUOTES) {
      expect(quote.text.length).toBeGreaterThan(10);
      expect(quote.author.length).toBeGreaterThan(2);
    }
    expect(new Set(FATHER_QUOTES.map((q) => q.text)).size).toBe(8);
    expect(QUOTE_ROTATION_MS).toBe(10_000);
  });

  it('picks a random index in range', () => {
    expect(randomQuoteIndex(8, () => 0)).toBe(0);
    expect(randomQuoteIndex(8, () => 0.999999)).toBe(7);
    expect(randomQuoteIndex(8, () => 1)).toBe(7);
    expect(randomQuoteIndex(0, () => 0.5)).toBe(0);
  });

  it('never shows the same quote twice in a row', () => {
    for (let current = 0; current < 8; current++) {
      for (const r of [0, 0.1, 0.5, 0.9, 0.99999, 1]) {
        const next = nextQuoteIndex(current, 8, () => r);
        expect(next).not.toBe(current);
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThan(8);
      }
    }
    expect(nextQuoteIndex(0, 1)).toBe(0);
  });

  it('can reach every other quote', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 7; i++) seen.add(nextQuoteIndex(3, 8, () => i / 7));
    expect([...seen].sort()).toEqual([0, 1, 2, 4, 5, 6, 7]);
  });
});
