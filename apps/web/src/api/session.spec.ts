import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { SessionView } from '@lv/contracts';
import { ApiError, NetworkError } from './client.js';
import { REFRESH_TICK_MS, shouldRefresh } from './refresh-schedule.js';
import { createHttpAuthTransport, SessionManager, type AuthTransport } from './session.js';
import { sam } from '../test/profiles.js';

const profile = sam;

const view = (token: string, expiresAt = 1_000_000): SessionView => ({ accessToken: token, accessTokenExpiresAt: expiresAt, profile });
const unauthenticated = () => new ApiError(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function transport(over: Partial<AuthTransport> = {}) {
  return {
    signIn: jest.fn<AuthTransport['signIn']>(over.signIn ?? (async () => view('signed-in'))),
    signUp: jest.fn<AuthTransport['signUp']>(over.signUp ?? (async () => view('signed-up'))),
    refresh: jest.fn<AuthTransport['refresh']>(
      over.refresh ??
        (async () => {
          throw unauthenticated();
        }),
    ),
    signOut: jest.fn<AuthTransport['signOut']>(over.signOut ?? (async () => undefined)),
  };
}

describe('shouldRefresh', () => {
  it('refreshes within 3 ticks (90 s) of expiry', () => {
    expect(REFRESH_TICK_MS).toBe(30_000);
    const now = 1_000_000;
    expect(shouldRefresh(now, now + 91_000)).toBe(false);
    expect(shouldRefresh(now, now + 90_000)).toBe(true);
    expect(shouldRefresh(now, now + 10_000)).toBe(true);
    expect(shouldRefresh(now, now - 1)).toBe(true);
  });
});

describe('SessionManager', () => {
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  it('starts loading, and a 401 on restore means signed out', async () => {
    const session = new SessionManager(transport());
    expect(session.getState()).toEqual({ status: 'loading' });
    await session.restore();
    expect(session.getState()).toEqual({ status: 'anonymous' });
    expect(session.getAccessToken()).toBeNull();
  });

  it('restores a session from the refresh cookie, once', async () => {
    const t = transport({ refresh: jest.fn(async () => view('restored', 5000)) });
    const session = new SessionManager(t);
    await Promise.all([session.restore(), session.restore()]);
    expect(t.refresh).toHaveBeenCalledTimes(1);
    expect(session.getState()).toEqual({ status: 'authenticated', user: profile, accessTokenExpiresAt: 5000 });
    expect(session.getAccessToken()).toBe('restored');
  });

  it('treats an unreachable server on restore as signed out', async () => {
    const session = new SessionManager(
      transport({
        refresh: jest.fn(async (): Promise<SessionView> => {
          throw new NetworkError('offline');
        }),
      }),
    );
    await session.restore();
    expect(session.getState()).toEqual({ status: 'anonymous' });
  });

  it('shares one refresh between concurrent callers', async () => {
    const d = deferred<SessionView>();
    const t = transport({ refresh: jest.fn(() => d.promise) });
    const session = new SessionManager(t);
    const a = session.refresh();
    const b = session.refresh();
    d.resolve(view('fresh'));
    await expect(Promise.all([a, b])).resolves.toEqual([true, true]);
    expect(t.refresh).toHaveBeenCalledTimes(1);
  });

  it('restores a signed-out browser as anonymous, quietly: no session is an answer, not a failure', async () => {
    // beforeEach's spy on console.warn is shared by the whole file: count from here.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    warn.mockClear();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const t = transport({ refresh: jest.fn(async () => null) });
      const session = new SessionManager(t);
      await session.restore();
      expect(session.getState()).toEqual({ status: 'anonymous' });
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('opens no session on a password whose account asks for a second step; the challenge and a code do', async () => {
    const challenge = { twoStepRequired: true as const, challenge: 'c1', challengeExpiresAt: 2_000_000 };
    const t = transport({ signIn: async (body) => ('challenge' in body ? view('two-step') : challenge) });
    const session = new SessionManager(t);
    await session.restore();
    await expect(session.signIn({ email: 'sam@example.com', password: 'secret1' })).resolves.toEqual(challenge);
    expect(session.getState().status).toBe('anonymous');
    expect(session.getAccessToken()).toBeNull();
    await expect(session.signIn({ challenge: 'c1', code: '123456' })).resolves.toEqual({ user: profile, passwordChangeRequired: false });
    expect(session.getState().status).toBe('authenticated');
    expect(session.getAccessToken()).toBe('two-step');
  });

  it('drops a signed-in session when the check finds none', async () => {
    const t = transport();
    const session = new SessionManager(t);
    await session.signIn({ email: 'sam@example.com', password: 'secret1' });
    t.refresh.mockImplementationOnce(async () => null);
    await expect(session.refresh()).resolves.toBe(false);
    expect(session.getState().status).toBe('anonymous');
    expect(session.getAccessToken()).toBeNull();
  });

  it('keeps the session through a network failure but drops it on a refused refresh', async () => {
    const t = transport();
    const session = new SessionManager(t);
    await session.signIn({ email: 'sam@example.com', password: 'secret1' });
    t.refresh.mockImplementationOnce(async () => {
      throw new NetworkError('offline');
    });
    await expect(session.refresh()).resolves.toBe(false);
    expect(session.getState().status).toBe('authenticated');
    t.refresh.mockImplementationOnce(async () => {
      throw unauthenticated();
    });
    await expect(session.refresh()).resolves.toBe(false);
    expect(session.getState().status).toBe('anonymous');
    expect(session.getAccessToken()).toBeNull();
  });

  it('refreshes on a tick only near expiry', async () => {
    const t = transport({ signIn: jest.fn(async () => view('a', 200_000)), refresh: jest.fn(async () => view('b', 400_000)) });
    const session = new SessionManager(t);
    await session.signIn({ email: 'sam@example.com', password: 'secret1' });
    expect(session.tick(100_000)).toBeUndefined(); // 100 s left
    expect(t.refresh).not.toHaveBeenCalled();
    await session.tick(110_000); // 90 s left
    expect(t.refresh).toHaveBeenCalledTimes(1);
    expect(session.getAccessToken()).toBe('b');
    expect(session.getState()).toMatchObject({ accessTokenExpiresAt: 400_000 });
  });

  it('does not tick when signed out', () => {
    const t = transport();
    const session = new SessionManager(t);
    expect(session.tick(0)).toBeUndefined();
    expect(t.refresh).not.toHaveBeenCalled();
  });

  it('does not let a late refresh answer revive a cleared session', async () => {
    const d = deferred<SessionView>();
    const t = transport({ refresh: jest.fn(() => d.promise) });
    const session = new SessionManager(t);
    const pending = session.refresh();
    session.clear();
    d.resolve(view('late'));
    await expect(pending).resolves.toBe(false);
    expect(session.getState()).toEqual({ status: 'anonymous' });
    expect(session.getAccessToken()).toBeNull();
  });

  it('revokes on the server with the token, treating a 401 as done, and notifies subscribers on clear', async () => {
    const t = transport();
    const session = new SessionManager(t);
    await session.signIn({ email: 'sam@example.com', password: 'secret1' });
    const listener = jest.fn();
    const unsubscribe = session.subscribe(listener);
    t.signOut.mockImplementationOnce(async () => {
      throw unauthenticated();
    });
    await expect(session.revoke()).resolves.toBeUndefined();
    expect(t.signOut).toHaveBeenCalledWith('signed-in');
    expect(session.getState().status).toBe('authenticated');
    session.clear();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('rethrows other sign-out failures', async () => {
    const t = transport();
    const session = new SessionManager(t);
    t.signOut.mockImplementationOnce(async () => {
      throw new NetworkError('offline');
    });
    await expect(session.revoke()).rejects.toBeInstanceOf(NetworkError);
  });

  it('never puts the token in localStorage', async () => {
    const session = new SessionManager(transport());
    await session.signIn({ email: 'sam@example.com', password: 'secret1' });
    expect(JSON.stringify({ ...localStorage })).not.toContain('signed-in');
  });
});

describe('the session check over HTTP (POST /api/auth/session)', () => {
  const answer = (body: unknown) => jest.fn(async (_input: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));

  it('asks /api/auth/session, never /api/auth/refresh whose 401 the browser logs, and reads a signed-out answer as no session', async () => {
    const fetchImpl = answer({ session: null });
    await expect(createHttpAuthTransport(fetchImpl).refresh()).resolves.toBeNull();
    expect(fetchImpl.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([['/api/auth/session', 'POST']]);
  });

  it('gives the session of a signed-in answer', async () => {
    await expect(createHttpAuthTransport(answer({ session: view('restored') })).refresh()).resolves.toEqual(view('restored'));
  });
});
