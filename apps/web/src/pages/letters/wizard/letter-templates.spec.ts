import { describe, expect, it, jest } from '@jest/globals';
import { countWords } from '@lv/contracts';
import { GENERIC_LETTER, LETTER_EMOTIONS, LETTER_PURPOSES, LETTER_TEMPLATES, letterTemplate, wizardLetterTitle } from './letter-templates.js';

describe('the letter wizard table', () => {
  it('has the spec’s emotions and purposes', () => {
    expect(LETTER_EMOTIONS).toEqual(['love', 'sad', 'frustrated', 'grateful', 'unsure']);
    expect(LETTER_PURPOSES).toEqual(['apology', 'encouragement', 'memory', 'advice', 'care']);
  });

  it('has one real letter for every emotion and purpose (25, all different), plus a generic one', () => {
    const all = LETTER_EMOTIONS.flatMap((e) => LETTER_PURPOSES.map((p) => LETTER_TEMPLATES[e][p]));
    expect(all).toHaveLength(25);
    expect(new Set([...all, GENERIC_LETTER]).size).toBe(26);
    for (const text of [...all, GENERIC_LETTER]) {
      expect(text.startsWith('My dear child,\n\n')).toBe(true);
      expect(countWords(text)).toBeGreaterThan(80);
      expect(text).not.toMatch(/\[[^\]]*\]|TODO|lorem/i); // no placeholders left to fill
      expect(text).toBe(text.trim());
    }
  });

  it('picks the letter for the choice, and the generic letter otherwise', () => {
    expect(letterTemplate('grateful', 'memory')).toBe(LETTER_TEMPLATES.grateful.memory);
    expect(letterTemplate('sad', 'apology')).toContain('I am sorry');
    expect(letterTemplate(null, 'care')).toBe(GENERIC_LETTER);
    expect(letterTemplate('love', undefined)).toBe(GENERIC_LETTER);
    expect(letterTemplate('toString', 'constructor')).toBe(GENERIC_LETTER);
  });

  it('titles a saved draft "AI-Assisted Letter - {date}" in the one date style, never a numeric US date', () => {
    const language = jest.spyOn(navigator, 'language', 'get');
    try {
      language.mockReturnValue('en-GB');
      expect(wizardLetterTitle(new Date(2026, 11, 5))).toBe('AI-Assisted Letter - 5 December 2026');
      language.mockReturnValue('en-US');
      expect(wizardLetterTitle(new Date(2026, 11, 5))).toBe('AI-Assisted Letter - December 5, 2026');
    } finally {
      language.mockRestore();
    }
  });
});
