import { LETTER_PREVIEW_LENGTH } from '@lv/contracts';

/** "22 November 2026" in the reader's language. */
export function formatLetterDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}

export function formatWordCount(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'word' : 'words'}`;
}

/** The list's first 100 characters, with an ellipsis when the letter goes on. */
export function previewText(preview: string, wordCount: number): string {
  const chars = Array.from(preview);
  const cut = chars.length >= LETTER_PREVIEW_LENGTH && wordCount > 0;
  return cut ? `${preview.trimEnd()}…` : preview;
}
