/** Theme preference (owner-core spec, section 3): light, dark or system, kept under localStorage "theme". */
export const THEME_STORAGE_KEY = 'theme';
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export type ResolvedTheme = 'light' | 'dark';

export const DARK_QUERY = '(prefers-color-scheme: dark)';

export function parseTheme(value: unknown): Theme {
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark ? 'dark' : 'light';
  return theme;
}

/** Puts exactly one of the classes light / dark on the root element. */
export function applyThemeClass(root: HTMLElement, resolved: ResolvedTheme): void {
  root.classList.remove('light', 'dark');
  root.classList.add(resolved);
  root.style.colorScheme = resolved;
}

export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined): Theme {
  try {
    return parseTheme(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}
