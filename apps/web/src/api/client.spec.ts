/** @jest-environment node */
import { describe, expect, it, jest } from '@jest/globals';
import { ApiError, createApiClient, NetworkError, sendRequest, toErrorBody } from './client.js';

type Call = { url: string; init: RequestInit };

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function fakeFetch(...responses: (Response | Error)[]) {
  const calls: Call[] = [];
  const fn = async (url: string, init?: RequestInit) => {
    calls.push({ url, init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fn, calls };
}

const authHeader = (call: Call | undefined) => (call?.init.headers as Record<string, string> | undefined)?.Authorization;

describe('sendRequest', () => {
  it('sends JSON with cookies and the bearer token, and parses JSON', async () => {
    const { fn, calls } = fakeFetch(json(200, { ok: true }));
    await expect(sendRequest(fn, '/api/x', { method: 'POST', body: { a: 1 }, token: 'T' })).resolves.toEqual({ ok: true });
    expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect(calls[0]!.init.headers).toMatchObject({ Authorization: 'Bearer T', 'Content-Type': 'application/json' });
  });

  it('returns undefined for 204', async () => {
    const { fn } = fakeFetch(new Response(null, { status: 204 }));
    await expect(sendRequest(fn, '/api/x', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('throws an ApiError carrying the ErrorBody and status', async () => {
    const body = { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Please wait a few minutes and try again.', retryAfter: 30 };
    const { fn } = fakeFetch(json(429, body));
    const error = await sendRequest(fn, '/api/auth/sign-in').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).body).toEqual(body);
    expect((error as ApiError).code).toBe('RATE_LIMITED');
    expect((error as ApiError).message).toBe(body.message);
  });

  it('makes an ErrorBody out of a non-JSON error answer', async () => {
    const { fn } = fakeFetch(new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const error = (await sendRequest(fn, '/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error.body).toEqual({ code: 'INTERNAL', message: 'Something went wrong on our side.' });
    expect(toErrorBody(503, null)).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The vault is temporarily unavailable. Please try again in a moment.' });
  });

  it('throws a NetworkError when there is no answer', async () => {
    const { fn } = fakeFetch(new TypeError('Failed to fetch'));
    await expect(sendRequest(fn, '/api/x')).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('createApiClient', () => {
  function setup(responses: (Response | Error)[], refreshResult: boolean | Error = true) {
    let token: string | null = 'old';
    const { fn, calls } = fakeFetch(...responses);
    const refresh = jest.fn(async () => {
      if (refreshResult instanceof Error) throw refreshResult;
      if (refreshResult) token = 'new';
      return refreshResult;
    });
    const onUnauthenticated = jest.fn();
    const client = createApiClient({ fetch: fn, getAccessToken: () => token, refresh, onUnauthenticated });
    return { client, calls, refresh, onUnauthenticated };
  }

  it('sends the bearer token', async () => {
    const { client, calls } = setup([json(200, { videosSaved: 1 })]);
    await expect(client.request('/api/vault/stats')).resolves.toEqual({ videosSaved: 1 });
    expect(authHeader(calls[0])).toBe('Bearer old');
  });

  it('on a 401 refreshes once and retries once with the new token', async () => {
    const { client, calls, refresh, onUnauthenticated } = setup([json(401, { code: 'SESSION_EXPIRED', message: 'x' }), json(200, { ok: 1 })]);
    await expect(client.request('/api/me')).resolves.toEqual({ ok: 1 });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.map(authHeader)).toEqual(['Bearer old', 'Bearer new']);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('signs out locally when the refresh fails', async () => {
    const { client, calls, onUnauthenticated } = setup([json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' })], false);
    await expect(client.request('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('signs out locally when the retry is refused again, and does not loop', async () => {
    const { client, calls, refresh, onUnauthenticated } = setup([
      json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' }),
      json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' }),
    ]);
    await expect(client.request('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('does not refresh for other errors', async () => {
    const { client, refresh } = setup([json(403, { code: 'FORBIDDEN', message: 'Access denied' })]);
    await expect(client.request('/api/admin')).rejects.toMatchObject({ status: 403, body: { message: 'Access denied' } });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('treats a throwing refresh as a failed one', async () => {
    const { client, onUnauthenticated } = setup([json(401, { code: 'UNAUTHENTICATED', message: 'x' })], new Error('boom'));
    await expect(client.request('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });
});

describe('createApiClient: sudo mode', () => {
  const sudoRequired = () => json(403, { code: 'SUDO_REQUIRED', message: 'For your safety, enter your password again to continue.' });

  it('asks for the password again on SUDO_REQUIRED, then retries once with the new token', async () => {
    const { fn, calls } = fakeFetch(sudoRequired(), json(201, { id: 'key-1' }));
    let token = 'OLD';
    const confirmIdentity = jest.fn(async () => {
      token = 'PROVED';
      return true;
    });
    const client = createApiClient({ fetch: fn, getAccessToken: () => token, refresh: async () => false, onUnauthenticated: () => undefined, confirmIdentity });
    await expect(client.request('/api/access/keys', { method: 'POST', body: { name: 'Anna' } })).resolves.toEqual({ id: 'key-1' });
    expect(confirmIdentity).toHaveBeenCalledTimes(1);
    expect(calls.map(authHeader)).toEqual(['Bearer OLD', 'Bearer PROVED']);
    expect(calls[1]!.init.body).toBe('{"name":"Anna"}');
  });

  it('leaves the refusal to the page when the owner cancels, or when nothing can ask', async () => {
    const cancelled = fakeFetch(sudoRequired());
    const cancelling = createApiClient({ fetch: cancelled.fn, getAccessToken: () => 'T', refresh: async () => false, onUnauthenticated: () => undefined, confirmIdentity: async () => false });
    await expect(cancelling.request('/api/access/keys/k', { method: 'DELETE' })).rejects.toMatchObject({ status: 403, code: 'SUDO_REQUIRED' });
    expect(cancelled.calls).toHaveLength(1);

    const unasked = fakeFetch(sudoRequired());
    const silent = createApiClient({ fetch: unasked.fn, getAccessToken: () => 'T', refresh: async () => false, onUnauthenticated: () => undefined });
    await expect(silent.request('/api/access/keys/k', { method: 'DELETE' })).rejects.toMatchObject({ code: 'SUDO_REQUIRED' });
  });

  it('asks once only: a second refusal after the password is the page\'s to show', async () => {
    const { fn, calls } = fakeFetch(sudoRequired(), sudoRequired());
    const confirmIdentity = jest.fn(async () => true);
    const client = createApiClient({ fetch: fn, getAccessToken: () => 'T', refresh: async () => false, onUnauthenticated: () => undefined, confirmIdentity });
    await expect(client.request('/api/x', { method: 'POST' })).rejects.toMatchObject({ code: 'SUDO_REQUIRED' });
    expect(confirmIdentity).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(2);
  });
});
