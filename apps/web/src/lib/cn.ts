import { clsx, type ClassValue } from 'clsx';
import { CLASS_KINDS, KIND_REPLACES } from './class-kinds.js';

// tailwind-merge's answers for the app's classes, read off the library at build time
// (tools/build/tw-merge-config.mjs): the library itself was 5.2 KB gzipped in every page's first load.
const kindOf = new Map<string, number>();
CLASS_KINDS.split('|').forEach((written, kind) => {
  const [prefix, classes] = written.includes('~') ? written.split('~') : ['', written];
  for (const rest of classes!.split(' ')) kindOf.set(prefix + rest, kind);
});
const replaced = KIND_REPLACES.split('|').map((kinds) => (kinds ? kinds.split(',').map(Number) : []));

/**
 * Joins class names and lets later Tailwind utilities override earlier ones, as tailwind-merge does: an
 * earlier class goes when a later one kept is of its kind or of a kind that replaces it. A word written
 * twice is kept once (tailwind-merge keeps a repeated word that is no Tailwind class twice: the same to the browser).
 */
export function cn(...inputs: ClassValue[]): string {
  const words = clsx(inputs).trim().split(/\s+/);
  const taken = new Set<string | number>();
  const kept: string[] = [];
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i]!;
    const kind = kindOf.get(word);
    if (taken.has(word) || (kind !== undefined && taken.has(kind))) continue;
    taken.add(word);
    if (kind !== undefined) for (const other of [kind, ...replaced[kind]!]) taken.add(other);
    kept.push(word);
  }
  return kept.reverse().join(' ');
}
