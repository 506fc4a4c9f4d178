import type { UserProfile } from '@lv/contracts';

/**
 * Route protection (owner-core spec, section 2 "Route protection" and section 4 "Session").
 * Pure functions so the rules can be tested without a browser.
 */

/** Public for the session guard; each prefix also matches its sub-paths. "/" itself is public (exactly). */
export const PUBLIC_PREFIXES = ['/how-it-works', '/access-request', '/request', '/access', '/redeem', '/vault/view', '/pricing', '/subscribe', '/privacy', '/still-here', '/forgot-password', '/reset-password', '/confirm-email', '/undo-email-change', '/not-me', '/verify-email', '/keep-account', '/trustee'] as const;
/** Sign-in screens: a signed-in user is sent on to "from" (default /vault). */
export const AUTH_PATHS = ['/auth', '/login', '/login-signup'] as const;
export const DEFAULT_AFTER_SIGN_IN = '/vault';
export const SIGN_IN_PATH = '/auth';

export type RouteAccess = 'public' | 'auth' | 'protected';

/** Decodes, lower-cases (the router matches case-insensitively), collapses slashes and drops a trailing slash. */
export function normalizePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // keep the raw path: it will simply not match a public prefix
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/');
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

const matchesPrefix = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

export function classifyPath(pathname: string): RouteAccess {
  const path = normalizePath(pathname);
  if ((AUTH_PATHS as readonly string[]).includes(path)) return 'auth';
  if (path === '/') return 'public';
  if (PUBLIC_PREFIXES.some((prefix) => matchesPrefix(path, prefix))) return 'public';
  return 'protected';
}

export const isAuthPath = (pathname: string): boolean => classifyPath(pathname) === 'auth';

/**
 * A same-origin in-app path that is safe to send the user to after sign-in: it must start with a
 * single "/" (no protocol-relative "//host" or "/\host") and must not be a sign-in screen itself.
 */
export function safeRedirectTarget(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f]/.test(value)) return null;
  const pathOnly = value.split(/[?#]/)[0] ?? value;
  if (isAuthPath(pathOnly)) return null;
  return value;
}

interface LocationLike {
  pathname: string;
  search?: string;
  hash?: string;
}

/** "from" as carried by the guard: router state { from } (a string or a location), or ?from= in the address. */
export function readFrom(search: string, state: unknown): string | null {
  if (state && typeof state === 'object' && 'from' in state) {
    const from = (state as { from: unknown }).from;
    if (typeof from === 'string') {
      const target = safeRedirectTarget(from);
      if (target) return target;
    } else if (from && typeof from === 'object' && typeof (from as LocationLike).pathname === 'string') {
      const loc = from as LocationLike;
      const target = safeRedirectTarget(`${loc.pathname}${loc.search ?? ''}${loc.hash ?? ''}`);
      if (target) return target;
    }
  }
  const fromParam = new URLSearchParams(search).get('from');
  return safeRedirectTarget(fromParam);
}

export type RouteDecision =
  | { kind: 'loading' }
  | { kind: 'render' }
  | { kind: 'redirect'; to: string; replace: true; state?: { from: string } };

export interface RouteDecisionInput {
  pathname: string;
  search: string;
  hash?: string;
  state?: unknown;
  sessionStatus: 'loading' | 'anonymous' | 'authenticated';
}

/** What the session guard does for a location. */
export function decideRoute(input: RouteDecisionInput): RouteDecision {
  const access = classifyPath(input.pathname);
  // A public page needs no session to be shown: it paints at once instead of after the session's
  // round trip (issue 10, first load), and the top bar catches up when the session is known.
  if (access === 'public') return { kind: 'render' };
  const signedIn = input.sessionStatus === 'authenticated';
  // The sign-in form too (it is prerendered, and the browser hydrates it while the session loads); a
  // visitor who turns out to be signed in is sent on once that is known.
  if (access === 'auth') {
    if (!signedIn) return { kind: 'render' };
    return { kind: 'redirect', to: readFrom(input.search, input.state) ?? DEFAULT_AFTER_SIGN_IN, replace: true };
  }
  if (input.sessionStatus === 'loading') return { kind: 'loading' };
  if (signedIn) return { kind: 'render' };
  const from = `${input.pathname}${input.search}${input.hash ?? ''}`;
  return { kind: 'redirect', to: SIGN_IN_PATH, replace: true, state: { from } };
}

/** Admins: the ai_admin flag (an is_admin flag is also honoured when a profile carries one). */
export function isAdmin(user: UserProfile | null): boolean {
  if (!user) return false;
  return user.ai_admin === true || (user as UserProfile & { is_admin?: boolean }).is_admin === true;
}

export type AdminDecision = { kind: 'render' } | { kind: 'redirect'; to: '/'; notice: 'Access denied' };

/** /admin: only admins get in; anyone else goes to / with the toast "Access denied". */
export function decideAdminAccess(user: UserProfile | null): AdminDecision {
  return isAdmin(user) ? { kind: 'render' } : { kind: 'redirect', to: '/', notice: 'Access denied' };
}
