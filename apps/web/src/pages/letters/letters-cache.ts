import type { InfiniteData } from '@tanstack/react-query';
import type { Letter, LetterPage, LetterSummary } from '@lv/contracts';

export type LetterPages = InfiniteData<LetterPage, string | null>;

export function toSummary(letter: Letter): LetterSummary {
  const { content: _content, ...summary } = letter;
  return summary;
}

/** A new letter goes first ("prepended to the list"); a letter already listed (a retried save) is replaced, not repeated. */
export function prependLetter(data: LetterPages | undefined, letter: Letter): LetterPages | undefined {
  if (!data) return data;
  const summary = toSummary(letter);
  const without = data.pages.map((page) => ({ ...page, letters: page.letters.filter((l) => l.id !== letter.id) }));
  const [first, ...rest] = without;
  return { ...data, pages: [{ ...(first ?? { nextCursor: null }), letters: [summary, ...(first?.letters ?? [])] }, ...rest] };
}

export function replaceLetter(data: LetterPages | undefined, letter: Letter): LetterPages | undefined {
  if (!data) return data;
  const summary = toSummary(letter);
  return { ...data, pages: data.pages.map((page) => ({ ...page, letters: page.letters.map((l) => (l.id === letter.id ? summary : l)) })) };
}

export function removeLetter(data: LetterPages | undefined, id: string): LetterPages | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, letters: page.letters.filter((l) => l.id !== id) })) };
}
