import { canUseFeature, type GatedFeature, type UserProfile } from '@lv/contracts';

/** Side-menu entries (owner-core spec, section 2 "Side menu"). */
export interface MenuEntry {
  label: string;
  to: string;
  requiresAuth: boolean;
  /** Tier-gated (spec, section 5): shown with an "Upgrade" hint to /pricing when the user lacks it. */
  feature?: GatedFeature;
}

export const PUBLIC_ENTRIES: readonly MenuEntry[] = [
  { label: 'Home', to: '/', requiresAuth: false },
  { label: 'How It Works', to: '/how-it-works', requiresAuth: false },
  { label: 'Access Request', to: '/request', requiresAuth: false },
];

export const MEMBER_ENTRIES: readonly MenuEntry[] = [
  { label: 'Personal Vault', to: '/vault', requiresAuth: true },
  { label: 'Record Video/Audio', to: '/record', requiresAuth: true },
  { label: 'Letters Unsent', to: '/letters', requiresAuth: true },
  { label: 'Who Am I', to: '/whoiam', requiresAuth: true },
  { label: 'Timeline', to: '/timeline', requiresAuth: true, feature: 'timeline' },
  { label: 'Parent Community', to: '/parent-community', requiresAuth: true },
  { label: 'Court Journal', to: '/court-journal', requiresAuth: true },
  { label: "If I'm Not There", to: '/if-im-not-there', requiresAuth: true },
  { label: 'Access Control', to: '/access-control', requiresAuth: true },
  { label: 'Settings', to: '/settings', requiresAuth: true },
];

export const UPGRADE_PATH = '/pricing';
/** Delay between consecutive entries' entrance animations. */
export const MENU_STAGGER_MS = 50;

export type EntryState = { kind: 'enabled'; to: string } | { kind: 'disabled' } | { kind: 'upgrade'; to: typeof UPGRADE_PATH };

export function entryState(entry: MenuEntry, user: UserProfile | null): EntryState {
  if (entry.requiresAuth && !user) return { kind: 'disabled' };
  if (entry.feature && !canUseFeature(user, entry.feature)) return { kind: 'upgrade', to: UPGRADE_PATH };
  return { kind: 'enabled', to: entry.to };
}

/** "/" is active only on "/"; any other entry is active on its path and its sub-paths. */
export function isEntryActive(entry: MenuEntry, pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (entry.to === '/') return path === '/';
  return path === entry.to || path.startsWith(`${entry.to}/`);
}

export function staggerDelay(index: number): string {
  return `${index * MENU_STAGGER_MS}ms`;
}
