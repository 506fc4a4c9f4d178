import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { twMerge } from 'tailwind-merge';
import { cn } from '../../apps/web/src/lib/cn.js';
import { appClasses, classVocabulary, CONFIG_FILE, configSource } from './tw-merge-config.mjs';

const words = classVocabulary();
const classes = appClasses(words);

describe("the SPA's class-merging table", () => {
  it('is what the script writes for the sources as they are (run node tools/build/tw-merge-config.mjs)', () => {
    expect(readFileSync(CONFIG_FILE, 'utf8')).toBe(configSource(words));
  });

  it("finds the app's classes among the words of its sources", () => {
    expect(classes.length).toBeGreaterThan(300);
    for (const known of ['px-4', 'text-sm', 'hover:bg-muted', 'text-accent-foreground/80', 'focus-visible:outline-2']) expect(classes).toContain(known);
    for (const word of ['Save', 'Reflection', '/api/vault/stats']) expect(classes).not.toContain(word);
  });

  it("merges every pair of the app's classes as tailwind-merge does", () => {
    const differ: string[] = [];
    for (const first of classes) {
      for (const second of classes) {
        const list = `${first} ${second}`;
        if (cn(list) !== twMerge(list)) differ.push(`${list}: ${cn(list)} / ${twMerge(list)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it("merges longer lists of the app's classes (and words of no class) as tailwind-merge does", () => {
    const word = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...classes) }, { weight: 1, arbitrary: fc.constantFrom('group', 'peer', 'prose', 'my-own-class') });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 12 }), (list) => {
        expect(cn(list.join(' '))).toBe(twMerge(list.join(' ')));
      }),
      { numRuns: 3000 },
    );
  });

  it('still lets a later utility override an earlier one of its group, across arguments and white space', () => {
    expect(cn('px-4 py-2', 'px-2')).toBe('py-2 px-2');
    expect(cn('text-sm text-primary', { 'text-lg': true, 'text-xs': false })).toBe('text-primary text-lg');
    expect(cn('hover:bg-muted bg-card\n  hover:bg-card')).toBe('bg-card hover:bg-card');
    expect(cn('p-4 px-2')).toBe('p-4 px-2');
    expect(cn('px-2 p-4')).toBe('p-4');
    expect(cn('h-9 px-3 text-sm', undefined, 'h-auto p-2')).toBe('text-sm h-auto p-2');
    expect(cn('', null, false)).toBe('');
  });

  it('keeps a word it does not know, and a word written twice once', () => {
    expect(cn('group px-4', 'my-own-class px-2')).toBe('group my-own-class px-2');
    expect(cn('group', 'group')).toBe('group');
  });
});
