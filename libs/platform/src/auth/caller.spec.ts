import { AccessMessages, SUDO_WINDOW_SECONDS, VIEW_SECTIONS } from '@lv/contracts';
import { readsSection, requireFeature, requireRecentProof, requireSection, type Caller, type UserCaller, type ViewerCaller, type ViewerScope } from './caller.js';

const viewer = (scopes: ViewerScope[]): ViewerCaller => ({ kind: 'viewer', vaultOwnerId: 'owner-1', viewSessionId: 'view-1', scopes, expiresAt: Date.now() + 60_000, mayDownload: false });
const owner: Caller = { kind: 'user', userId: 'owner-1', sessionId: 's-1', email: 'a@example.com', tier: 'none', isAdmin: false, emailVerified: true, provedAt: Date.now() };
const operator: Caller = { kind: 'operator', userId: 'operator:ops', sessionId: 'operator', email: '', tier: 'none', isAdmin: true, emailVerified: true, provedAt: Date.now() };

describe('a viewer reads only the sections his key opens', () => {
  it('lets a viewer read each section his token carries, and none other', () => {
    const lettersOnly = viewer(['letters']);
    expect(VIEW_SECTIONS.filter((section) => readsSection(lettersOnly, section))).toEqual(['letters']);
    expect(() => requireSection(lettersOnly, 'letters')).not.toThrow();
    for (const section of VIEW_SECTIONS.filter((s) => s !== 'letters')) {
      expect(() => requireSection(lettersOnly, section)).toThrow(expect.objectContaining({ code: 'FORBIDDEN', message: AccessMessages.sectionNotShared }));
    }
  });

  it('refuses every section to a viewer whose token carries none', () => {
    expect(VIEW_SECTIONS.filter((section) => readsSection(viewer([]), section))).toEqual([]);
  });

  it('does not limit an account by sections (an owner reads his whole vault)', () => {
    for (const section of VIEW_SECTIONS) {
      expect(readsSection(owner, section)).toBe(true);
      expect(() => requireSection(owner, section)).not.toThrow();
      expect(readsSection(operator, section)).toBe(true);
    }
  });
});

describe('a gated feature takes the rule the product passes', () => {
  const member: UserCaller = { kind: 'user', userId: 'member-1', sessionId: 's-2', email: 'm@example.com', tier: 'none', isAdmin: false, emailVerified: true, provedAt: Date.now() };
  const onlyMember1 = (user: UserCaller) => user.userId === 'member-1';

  it('hands back the member the rule admits, and refuses one it does not with the caller\'s message', () => {
    expect(requireFeature(member, onlyMember1, 'Upgrade to use this.')).toBe(member);
    expect(() => requireFeature(owner, onlyMember1, 'Upgrade to use this.')).toThrow(expect.objectContaining({ code: 'UPGRADE_REQUIRED', message: 'Upgrade to use this.' }));
  });

  it('refuses viewers and operators whatever the rule says', () => {
    for (const caller of [viewer(['letters']), operator]) expect(() => requireFeature(caller, () => true, 'Upgrade to use this.')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});

describe('sudo mode: a sensitive action needs a proof of who he is within SUDO_WINDOW_SECONDS', () => {
  const now = Date.parse('2026-12-07T12:00:00Z');
  const provedAgo = (seconds: number): UserCaller => ({ kind: 'user', userId: 'owner-1', sessionId: 's-1', email: 'a@example.com', tier: 'none', isAdmin: false, emailVerified: true, provedAt: now - seconds * 1000 });

  it('lets an owner through up to the window, and asks for the password again one millisecond after', () => {
    expect(requireRecentProof(provedAgo(0), SUDO_WINDOW_SECONDS, now).userId).toBe('owner-1');
    expect(requireRecentProof(provedAgo(SUDO_WINDOW_SECONDS), SUDO_WINDOW_SECONDS, now).userId).toBe('owner-1');
    const stale = { ...provedAgo(SUDO_WINDOW_SECONDS), provedAt: now - SUDO_WINDOW_SECONDS * 1000 - 1 };
    expect(() => requireRecentProof(stale, SUDO_WINDOW_SECONDS, now)).toThrow(expect.objectContaining({ code: 'SUDO_REQUIRED' }));
  });

  it('refuses viewers and operators outright (a password again would not make them owners)', () => {
    for (const caller of [viewer(['letters']), operator]) expect(() => requireRecentProof(caller, SUDO_WINDOW_SECONDS, now)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});
