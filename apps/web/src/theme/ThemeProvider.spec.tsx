import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ThemeProvider, useTheme } from './ThemeProvider.js';

type Listener = () => void;

function mockMatchMedia(initiallyDark: boolean) {
  const listeners = new Set<Listener>();
  const media = {
    matches: initiallyDark,
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  };
  window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
  return {
    setDark(dark: boolean) {
      media.matches = dark;
      for (const l of listeners) l();
    },
  };
}

const wrapper = ({ children }: { children: ReactNode }) => <ThemeProvider>{children}</ThemeProvider>;

describe('ThemeProvider', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.className = '';
  });
  afterEach(() => {
    cleanup();
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it('throws when useTheme is used outside its provider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useTheme())).toThrow('useTheme must be used within a ThemeProvider');
    jest.restoreAllMocks();
  });

  it('defaults to system and follows the OS preference live', () => {
    const os = mockMatchMedia(false);
    const { result } = renderHook(() => useTheme(), { wrapper });
    expect(result.current.theme).toBe('system');
    expect(document.documentElement.classList.contains('light')).toBe(true);
    act(() => os.setDark(true));
    expect(result.current.resolvedTheme).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.classList.contains('light')).toBe(false);
  });

  it('stores an explicit choice under "theme"', () => {
    mockMatchMedia(true);
    const { result } = renderHook(() => useTheme(), { wrapper });
    act(() => result.current.setTheme('light'));
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement.className).toBe('light');
  });

  it('starts from the stored choice', () => {
    mockMatchMedia(false);
    localStorage.setItem('theme', 'dark');
    const { result } = renderHook(() => useTheme(), { wrapper });
    expect(result.current.theme).toBe('dark');
    expect(document.documentElement.className).toBe('dark');
  });
});
