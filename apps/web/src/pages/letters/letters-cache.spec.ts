import { describe, expect, it } from '@jest/globals';
import type { Letter } from '@lv/contracts';
import { prependLetter, removeLetter, replaceLetter, type LetterPages } from './letters-cache.js';
import { formatWordCount, previewText } from './letter-format.js';

const letter = (id: string, over: Partial<Letter> = {}): Letter => ({
  id, title: `T${id}`, preview: 'p', content: 'p', word_count: 1, created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z', version: 1, ...over,
});
const pages = (...ids: string[][]): LetterPages => ({
  pages: ids.map((page, i) => ({ letters: page.map((id) => { const { content: _c, ...s } = letter(id); return s; }), nextCursor: i < ids.length - 1 ? `c${i}` : null })),
  pageParams: ids.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});
const idsOf = (data: LetterPages | undefined) => data?.pages.map((p) => p.letters.map((l) => l.id));

describe('the list cache', () => {
  it('prepends a new letter, without its content, and never lists a letter twice', () => {
    const after = prependLetter(pages(['b', 'c'], ['d']), letter('a'));
    expect(idsOf(after)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(after!.pages[0]!.letters[0]).not.toHaveProperty('content');
    expect(idsOf(prependLetter(pages(['b', 'c'], ['d']), letter('d')))).toEqual([['d', 'b', 'c'], []]);
    expect(prependLetter(undefined, letter('a'))).toBeUndefined();
  });

  it('replaces and removes in place', () => {
    expect(replaceLetter(pages(['a', 'b']), letter('b', { title: 'New' }))!.pages[0]!.letters[1]!.title).toBe('New');
    expect(idsOf(removeLetter(pages(['a', 'b'], ['c']), 'c'))).toEqual([['a', 'b'], []]);
  });
});

describe('list formatting', () => {
  it('counts words with the right plural', () => {
    expect(formatWordCount(1)).toBe('1 word');
    expect(formatWordCount(0)).toBe('0 words');
    expect(formatWordCount(32)).toBe('32 words');
  });

  it('adds an ellipsis only when the preview was cut at 100 characters', () => {
    expect(previewText('Short.', 1)).toBe('Short.');
    expect(previewText('x'.repeat(100), 1)).toBe(`${'x'.repeat(100)}…`);
  });
});
