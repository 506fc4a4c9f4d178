import { describe, expect, it } from '@jest/globals';
import type { UserProfile } from '@lv/contracts';
import { entryState, isEntryActive, MEMBER_ENTRIES, PUBLIC_ENTRIES, staggerDelay } from './menu-items.js';
import { sam } from '../test/profiles.js';

const user = (over: Partial<UserProfile> = {}): UserProfile => ({ ...sam, full_name: null, ...over });

const byLabel = (label: string) => [...PUBLIC_ENTRIES, ...MEMBER_ENTRIES].find((e) => e.label === label)!;

describe('side menu entries', () => {
  it('lists the spec entries in order', () => {
    expect(PUBLIC_ENTRIES.map((e) => [e.label, e.to])).toEqual([
      ['Home', '/'],
      ['How It Works', '/how-it-works'],
      ['Access Request', '/request'],
    ]);
    expect(MEMBER_ENTRIES.map((e) => e.label)).toEqual([
      'Personal Vault',
      'Record Video/Audio',
      'Letters Unsent',
      'Who Am I',
      'Timeline',
      'Parent Community',
      'Court Journal',
      "If I'm Not There",
      'Access Control',
      'Settings',
    ]);
  });

  it('disables sign-in entries when nobody is signed in', () => {
    expect(entryState(byLabel('Home'), null)).toEqual({ kind: 'enabled', to: '/' });
    expect(entryState(byLabel('Personal Vault'), null)).toEqual({ kind: 'disabled' });
    expect(entryState(byLabel('Timeline'), null)).toEqual({ kind: 'disabled' });
  });

  it('gates the timeline by tier (or admin) with an upgrade hint', () => {
    expect(entryState(byLabel('Timeline'), user())).toEqual({ kind: 'upgrade', to: '/pricing' });
    for (const tier of ['essentials', 'pro', 'legacy'] as const) {
      expect(entryState(byLabel('Timeline'), user({ subscription_tier: tier }))).toEqual({ kind: 'enabled', to: '/timeline' });
    }
    expect(entryState(byLabel('Timeline'), user({ ai_admin: true }))).toEqual({ kind: 'enabled', to: '/timeline' });
    expect(entryState(byLabel('Letters Unsent'), user())).toEqual({ kind: 'enabled', to: '/letters' });
  });

  it('highlights the active entry', () => {
    expect(isEntryActive(byLabel('Home'), '/')).toBe(true);
    expect(isEntryActive(byLabel('Home'), '/vault')).toBe(false);
    expect(isEntryActive(byLabel('Personal Vault'), '/vault')).toBe(true);
    expect(isEntryActive(byLabel('Personal Vault'), '/vault/')).toBe(true);
    expect(isEntryActive(byLabel('Record Video/Audio'), '/record-media')).toBe(false);
    expect(isEntryActive(byLabel('Access Request'), '/request/abc')).toBe(true);
  });

  it('staggers entries by 50 ms', () => {
    expect([0, 1, 5].map(staggerDelay)).toEqual(['0ms', '50ms', '250ms']);
  });
});
