import { describe, expect, it } from '@jest/globals';
import { applyThemeClass, parseTheme, readStoredTheme, resolveTheme } from './theme.js';

describe('theme', () => {
  it('parses the stored preference, defaulting to system', () => {
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('system')).toBe('system');
    expect(parseTheme('purple')).toBe('system');
    expect(parseTheme(null)).toBe('system');
    expect(readStoredTheme({ getItem: () => 'dark' })).toBe('dark');
    expect(
      readStoredTheme({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('system');
  });

  it('resolves system from the OS preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('puts exactly one theme class on the root', () => {
    const root = document.createElement('html');
    applyThemeClass(root, 'dark');
    expect([...root.classList]).toEqual(['dark']);
    applyThemeClass(root, 'light');
    expect([...root.classList]).toEqual(['light']);
  });
});
