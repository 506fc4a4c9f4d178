import { describe, expect, it } from '@jest/globals';
import type { UserProfile } from '@lv/contracts';
import { classifyPath, decideAdminAccess, decideRoute, isAdmin, normalizePath, readFrom, safeRedirectTarget } from './route-access.js';
import { sam } from '../test/profiles.js';

const profile = (over: Partial<UserProfile> = {}): UserProfile => ({ ...sam, ...over });

describe('classifyPath', () => {
  it.each([
    ['/', 'public'],
    ['/how-it-works', 'public'],
    ['/how-it-works/details', 'public'],
    ['/access-request', 'public'],
    ['/access-request/new', 'public'],
    ['/request', 'public'],
    ['/request/new', 'public'],
    ['/access', 'public'],
    ['/access/anything/deep', 'public'],
    ['/redeem', 'public'],
    ['/redeem/timeline', 'public'],
    ['/privacy', 'public'],
    ['/settings', 'protected'],
    ['/auth', 'auth'],
    ['/login', 'auth'],
    ['/login-signup', 'auth'],
    ['/login/', 'auth'],
    ['/vault', 'protected'],
    ['/record', 'protected'],
    ['/access-control', 'protected'],
    ['/requests', 'protected'],
    ['/redeemed', 'protected'],
    ['/admin', 'protected'],
    ['/no-such-page', 'protected'],
    ['/authx', 'protected'],
  ] as const)('%s is %s', (path, expected) => {
    expect(classifyPath(path)).toBe(expected);
  });

  it('is not fooled by case, encoding or doubled slashes', () => {
    expect(classifyPath('/HOW-IT-WORKS')).toBe('public');
    expect(classifyPath('/%68ow-it-works')).toBe('public');
    expect(classifyPath('//vault')).toBe('protected');
    expect(classifyPath('/%E0%A4%A')).toBe('protected');
    expect(normalizePath('/Vault//Home/')).toBe('/vault/home');
  });
});

describe('decideRoute', () => {
  const at = (pathname: string, sessionStatus: 'loading' | 'anonymous' | 'authenticated', search = '', state?: unknown) =>
    decideRoute({ pathname, search, state, sessionStatus });

  it('waits while the session loads where the session decides (members and sign-in pages); public pages paint at once', () => {
    expect(at('/vault', 'loading')).toEqual({ kind: 'loading' });
    expect(at('/auth', 'loading')).toEqual({ kind: 'render' });
    expect(at('/', 'loading')).toEqual({ kind: 'render' });
    expect(at('/how-it-works', 'loading')).toEqual({ kind: 'render' });
  });

  it('renders public pages for everybody', () => {
    expect(at('/', 'anonymous')).toEqual({ kind: 'render' });
    expect(at('/how-it-works', 'authenticated')).toEqual({ kind: 'render' });
    expect(at('/redeem/timeline', 'anonymous')).toEqual({ kind: 'render' });
  });

  it('sends a signed-out visitor of a protected path to /auth, carrying the original location as "from"', () => {
    expect(decideRoute({ pathname: '/letters', search: '?x=1', hash: '#top', sessionStatus: 'anonymous' })).toEqual({
      kind: 'redirect',
      to: '/auth',
      replace: true,
      state: { from: '/letters?x=1#top' },
    });
    // Unknown paths are not public either: the guard applies before the not-found screen.
    expect(at('/timeline', 'anonymous')).toMatchObject({ kind: 'redirect', to: '/auth' });
    expect(at('/admin', 'anonymous')).toMatchObject({ kind: 'redirect', to: '/auth' });
  });

  it('renders protected pages for a signed-in user', () => {
    expect(at('/vault', 'authenticated')).toEqual({ kind: 'render' });
  });

  it('shows the sign-in screens to signed-out visitors and sends signed-in users on', () => {
    expect(at('/auth', 'anonymous')).toEqual({ kind: 'render' });
    expect(at('/login', 'authenticated')).toEqual({ kind: 'redirect', to: '/vault', replace: true });
    expect(at('/auth', 'authenticated', '', { from: '/letters' })).toEqual({ kind: 'redirect', to: '/letters', replace: true });
    expect(at('/auth', 'authenticated', '?from=%2Frecord')).toEqual({ kind: 'redirect', to: '/record', replace: true });
  });
});

describe('readFrom / safeRedirectTarget', () => {
  it('reads "from" from router state (string or location) or from ?from=', () => {
    expect(readFrom('', { from: '/letters' })).toBe('/letters');
    expect(readFrom('', { from: { pathname: '/record', search: '?type=audio', hash: '' } })).toBe('/record?type=audio');
    expect(readFrom('?from=/timeline', null)).toBe('/timeline');
    expect(readFrom('', null)).toBeNull();
  });

  it('refuses other origins, sign-in screens and junk', () => {
    expect(safeRedirectTarget('https://evil.example')).toBeNull();
    expect(safeRedirectTarget('//evil.example')).toBeNull();
    expect(safeRedirectTarget('/\\evil.example')).toBeNull();
    expect(safeRedirectTarget('/auth')).toBeNull();
    expect(safeRedirectTarget('/login?from=/vault')).toBeNull();
    expect(safeRedirectTarget(42)).toBeNull();
    expect(safeRedirectTarget('/vault')).toBe('/vault');
    expect(readFrom('?from=//evil.example', { from: 'https://evil.example' })).toBeNull();
  });
});

describe('admin access', () => {
  it('lets admins in and turns everyone else away with "Access denied"', () => {
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin(profile())).toBe(false);
    expect(isAdmin(profile({ ai_admin: true }))).toBe(true);
    expect(isAdmin({ ...profile(), is_admin: true } as UserProfile)).toBe(true);
    expect(decideAdminAccess(profile({ ai_admin: true }))).toEqual({ kind: 'render' });
    expect(decideAdminAccess(profile())).toEqual({ kind: 'redirect', to: '/', notice: 'Access denied' });
    expect(decideAdminAccess(null)).toEqual({ kind: 'redirect', to: '/', notice: 'Access denied' });
  });
});
