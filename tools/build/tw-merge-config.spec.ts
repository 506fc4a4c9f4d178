import { readFileSync } from 'node:fs';
import { createTailwindMerge, twMerge } from 'tailwind-merge';
import { TW_MERGE_CONFIG } from '../../apps/web/src/lib/tw-merge-config.js';
import { classGroupsOf, classVocabulary, CONFIG_FILE, configSource } from './tw-merge-config.mjs';

const words = classVocabulary();
const classes = [...classGroupsOf(words).keys()];
const leanMerge = createTailwindMerge(() => TW_MERGE_CONFIG);

describe("the SPA's tailwind-merge configuration", () => {
  it('is what the script writes for the sources as they are (run node tools/build/tw-merge-config.mjs)', () => {
    expect(readFileSync(CONFIG_FILE, 'utf8')).toBe(configSource(words));
  });

  it("finds the app's classes among the words of its sources", () => {
    expect(classes.length).toBeGreaterThan(300);
    for (const known of ['px-4', 'text-sm', 'hover:bg-muted', 'text-accent-foreground/80', 'focus-visible:outline-2']) expect(classes).toContain(known);
    for (const word of ['Save', 'Reflection', '/api/vault/stats']) expect(classes).not.toContain(word);
  });

  it("merges every pair of the app's classes as the default configuration does", () => {
    const differ: string[] = [];
    for (const first of classes) {
      for (const second of classes) {
        const list = `${first} ${second}`;
        if (leanMerge(list) !== twMerge(list)) differ.push(`${list}: ${leanMerge(list)} / ${twMerge(list)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('still lets a later utility override an earlier one of its group', () => {
    expect(leanMerge('px-4 py-2 px-2')).toBe('py-2 px-2');
    expect(leanMerge('text-sm text-primary text-lg')).toBe('text-primary text-lg');
    expect(leanMerge('hover:bg-muted bg-card hover:bg-accent')).toBe('bg-card hover:bg-accent');
    expect(leanMerge('p-4 px-2')).toBe('p-4 px-2');
    expect(leanMerge('px-2 p-4')).toBe('p-4');
  });
});
