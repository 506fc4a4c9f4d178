import { LETTER_PREVIEW_LENGTH } from '@lv/contracts';
import { formatDate } from '../../lib/dates.js';

/** "22 November 2026" in the reader's language. */
export const formatLetterDate = (iso: string): string => formatDate(iso);

export function formatWordCount(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'word' : 'words'}`;
}

/** The list's first 100 characters, with an ellipsis when the letter goes on. */
export function previewText(preview: string, wordCount: number): string {
  const chars = Array.from(preview);
  const cut = chars.length >= LETTER_PREVIEW_LENGTH && wordCount > 0;
  return cut ? `${preview.trimEnd()}…` : preview;
}
