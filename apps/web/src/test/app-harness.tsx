import { afterEach, beforeEach, jest } from '@jest/globals';
import { cleanup, render } from '@testing-library/react';
import { toast } from 'sonner';
import type { SessionView, UserProfile } from '@lv/contracts';
import { AppProviders } from '../app/providers.js';
import { createQueryClient } from '../queries/query-client.js';
import { SessionManager } from '../api/session.js';
import { memoryApp } from './memory-router.js';
import { sam } from './profiles.js';

// The whole app (router, session, shell, toasts) for page specs, the gateway replaced by the spec's
// own stand-in behind fetch.

export { sam };

/**
 * Renders the app at `path` with `user` signed in (none: signed out), queries not retried.
 * `profileOnRefresh`: the profile each session renewal brings (a change made on the server meanwhile).
 */
export function renderApp(path: string, user: UserProfile | null = sam, { profileOnRefresh }: { profileOnRefresh?: () => UserProfile } = {}) {
  const view: SessionView = { accessToken: 'token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile: user ?? sam };
  const session = new SessionManager({
    signIn: async () => view,
    signUp: async () => view,
    refresh: async () => (user ? { ...view, profile: profileOnRefresh?.() ?? view.profile } : null),
    signOut: async () => undefined,
  });
  const { router, element } = memoryApp(path);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={session} queryClient={queryClient}>
      {element}
    </AppProviders>,
  );
  return { router, queryClient };
}

/** A JSON answer, as the gateway gives it. */
export const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One request the stand-in gateway received, its JSON body parsed. */
export interface GatewayCall {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/**
 * A stand-in gateway's fetch: every request is recorded in `calls`, in order, then answered by `answer`
 * (given the request's URL too, for its query).
 */
export function recordingFetch(answer: (call: GatewayCall, url: URL) => Promise<Response>) {
  const calls: GatewayCall[] = [];
  const fetch = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://vault.test');
    const call: GatewayCall = { method: init.method ?? 'GET', path: url.pathname, body: init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined };
    calls.push(call);
    return answer(call, url);
  });
  return { calls, fetch };
}

/** React's and the router's expected noise stays out of the output unless DEBUG_CONSOLE is set. */
export function quietConsole(): void {
  if (process.env.DEBUG_CONSOLE) return;
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
}

/** After each spec: unmount, and dismiss toasts (sonner keeps them in module state for the next Toaster). */
export function resetApp(): void {
  cleanup();
  toast.dismiss();
  jest.restoreAllMocks();
}

/**
 * A spec's stand-in gateway, made fresh before each test and put behind fetch (console noise quieted),
 * the app reset after each. Returns the current one: `const gateway = withFakeGateway(fakeGateway)`, then `gateway()`.
 */
export function withFakeGateway<G extends { fetch: unknown }>(make: () => G): () => G {
  let current: G | undefined;
  beforeEach(() => {
    current = make();
    (globalThis as { fetch: unknown }).fetch = current.fetch;
    quietConsole();
  });
  afterEach(resetApp);
  return () => {
    if (!current) throw new Error('withFakeGateway: no test is running');
    return current;
  };
}
