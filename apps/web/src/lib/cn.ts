import { clsx, type ClassValue } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';
import { TW_MERGE_CONFIG } from './tw-merge-config.js';

// tailwind-merge with the class groups the app uses (tools/build/tw-merge-config.mjs writes them):
// the default configuration's other groups were 6 KB gzipped in every page's first load (issue 10).
const twMerge = createTailwindMerge(() => TW_MERGE_CONFIG);

/** Joins class names and lets later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
