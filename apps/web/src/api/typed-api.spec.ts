/** @jest-environment node */
import { describe, expect, it } from '@jest/globals';
import { createApiClient } from './client.js';
import { createTypedApi, urlFor, type Schema } from './typed-api.js';

type Sent = { url: string; method: string | undefined; body: unknown; signal: AbortSignal | null | undefined };

/** A typed API over a client whose fetch records each request and answers with the given JSON. */
function typedApiAnswering(status: number, answer: unknown) {
  const sent: Sent[] = [];
  const client = createApiClient({
    fetch: async (url, init) => {
      sent.push({ url, method: init?.method, body: init?.body ? JSON.parse(String(init.body)) : undefined, signal: init?.signal });
      return new Response(status === 204 ? null : JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
    },
    getAccessToken: () => 'T',
    refresh: async () => false,
    onUnauthenticated: () => undefined,
  });
  return { http: createTypedApi((url, options) => client.request(url, options)), sent };
}

describe('urlFor', () => {
  it('fills the path parameters, encoded, and appends the defined query values', () => {
    expect(urlFor('/api/letters/{id}/seal', { id: 'a b/c' })).toBe('/api/letters/a%20b%2Fc/seal');
    expect(urlFor('/api/letters', undefined, { cursor: 'x&y z', limit: undefined, skip: null })).toBe('/api/letters?cursor=x%26y%20z');
    expect(urlFor('/api/things', undefined, { tag: ['a', 'b'], on: true })).toBe('/api/things?tag=a&tag=b&on=true');
  });

  it('refuses a path whose parameter is missing rather than calling a wrong URL', () => {
    expect(() => urlFor('/api/letters/{id}', {})).toThrow('/api/letters/{id} needs its id parameter');
  });
});

describe('the typed API', () => {
  it('sends the method, URL, body and signal through the client and returns its answer', async () => {
    const letter = { id: 'L1', title: 'T', content: 'C', version: 2 };
    const { http, sent } = typedApiAnswering(200, letter);
    const signal = new AbortController().signal;
    await expect(http.put('/api/letters/{id}', { path: { id: 'L1' }, body: { title: 'T', content: 'C', expectedVersion: 1 }, signal })).resolves.toEqual(letter);
    expect(sent).toEqual([{ url: '/api/letters/L1', method: 'PUT', body: { title: 'T', content: 'C', expectedVersion: 1 }, signal }]);
  });

  it('calls a route without options, and takes a 204 as undefined', async () => {
    const { http, sent } = typedApiAnswering(204, undefined);
    await expect(http.del('/api/letters/{id}', { path: { id: 'L1' } })).resolves.toBeUndefined();
    await http.post('/api/court/evidence/bundle-link');
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /api/letters/L1', 'POST /api/court/evidence/bundle-link']);
  });
});

// What the type check refuses (tsc runs over the specs): each line below must stay an error.
export function refusedByTheTypeCheck(http: ReturnType<typeof createTypedApi>): void {
  // @ts-expect-error a path the gateway does not document
  void http.get('/api/letterz');
  // @ts-expect-error a documented path, but not for this method
  void http.patch('/api/letters');
  // @ts-expect-error the path parameter is required
  void http.get('/api/letters/{id}');
  // @ts-expect-error a body field the route does not take
  void http.put('/api/letters/{id}', { path: { id: 'L1' }, body: { title: 'T', content: 'C', expectedVersion: 1, colour: 'red' } });
  // @ts-expect-error a query parameter the route does not take
  void http.get('/api/letters', { query: { page: '2' } });
  void http.get('/api/letters/{id}', { path: { id: 'L1' } }).then((letter: Schema<'LetterDto'>) => {
    // @ts-expect-error a field the answer does not have
    void letter.body;
  });
}
