import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { BrowserRouter } from 'react-router-dom';
import { AccessMessages, CONSENT_VERSION, KeyStatusMessages, VIEWER_CONSENT_TEXT } from '@lv/contracts';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../queries/query-client.js';
import { AppRoutes } from '../../app/routes.js';
import { SessionManager } from '../../api/session.js';
import { CONSENT_ACCEPTED_STORAGE, VIEW_SESSION_STORAGE } from './viewer-session.js';

// Issues 28 and 29 in the whole app, in a browser router over jsdom's real address and history: a key
// e-mail's link lands on whose vault it is with Open vault ready (or why the key no longer works),
// before any disclaimer; the key and the view session's secret leave the address at once (replaceState)
// and the secret lives in sessionStorage only; after Clear access the key field is offered again.

const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const KEY = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const SESSION = 'T'.repeat(43);
const CONSENT_HASH = createHash('sha256').update(VIEWER_CONSENT_TEXT).digest('hex');
const GRANT = { session_id: '2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e', owner_id: OWNER, scopes: ['timeline'], viewer_token: 'vt', viewer_token_expires_at: Date.now() + 900_000, session_expires_at: '2026-12-25T00:00:00.000Z' };

type Answer = [status: number, body?: unknown];
let answers: Record<string, Answer>;
let requests: { route: string; body: unknown }[];

const fakeFetch = async (input: string, init: RequestInit = {}) => {
  const route = `${init.method ?? 'GET'} ${new URL(input, 'http://vault.test').pathname}`;
  requests.push({ route, body: init.body ? JSON.parse(String(init.body)) : undefined });
  const [status, body] = answers[route] ?? [404, { code: 'NOT_FOUND', message: 'Not found' }];
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
};

/** The app at `address`, in a browser router: what it reads is jsdom's own location. */
function openAt(address: string) {
  window.history.replaceState(null, '', address);
  const replaceState = jest.spyOn(window.history, 'replaceState');
  const session = new SessionManager({ signIn: jest.fn<any>(), signUp: jest.fn<any>(), refresh: async () => null, signOut: async () => undefined });
  render(
    <AppProviders session={session} queryClient={createQueryClient()}>
      <BrowserRouter><AppRoutes /></BrowserRouter>
    </AppProviders>,
  );
  return { replaceState };
}

const called = (route: string) => requests.filter((r) => r.route === route);
const secretsIn = (text: string) => [KEY, SESSION].filter((s) => text.includes(s));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  requests = [];
  answers = {
    'POST /api/view/key-status': [200, { status: 'active', owner_name: 'Sam Taylor' }],
    // The link's vault takes requests (issue 28): the request form shows below.
    [`GET /api/access/request-form/${OWNER}`]: [200, { open: true, owner_name: 'Sam Taylor' }],
    'GET /api/access/consent': [200, { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH }],
    'POST /api/view/redeem': [201, { ...GRANT, session: SESSION }],
    'POST /api/view/token': [200, GRANT],
    'POST /api/view/close': [204],
    'GET /api/view/entries/timeline': [200, []],
    'POST /api/auth/session': [200, { session: null }],
  };
  (globalThis as { fetch: unknown }).fetch = jest.fn(fakeFetch);
  if (!process.env.DEBUG_CONSOLE) jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  jest.restoreAllMocks();
});

describe("a key e-mail's link (/access#k=…&owner=…)", () => {
  it("first says whose vault it is, with Open vault and the key filled in, above the request form; the key leaves the address", async () => {
    const { replaceState } = openAt(`/access#k=${KEY}&owner=${OWNER}`);
    const heading = await screen.findByRole('heading', { name: "You've been given access to Sam Taylor's vault" });
    expect((screen.getByLabelText('Access key or link') as HTMLInputElement).value).toBe(KEY);
    const open = screen.getByRole('button', { name: 'Open vault' });
    expect(heading.compareDocumentPosition(open) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // The first screen: nothing of the request form comes before the vault's name and Open vault.
    const form = await screen.findByRole('button', { name: 'Submit Access Request' });
    expect(open.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Open vault' })).toHaveLength(1);
    // Checked before any disclaimer, with the link's owner.
    expect(called('POST /api/view/key-status')[0]!.body).toEqual({ access_key: KEY, owner: OWNER });
    expect(screen.queryByRole('dialog')).toBeNull();
    // Out of the address at once, with no new history entry; the owner stays for the request form.
    await waitFor(() => expect(replaceState).toHaveBeenCalled());
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe(`?owner=${OWNER}`);
    expect(secretsIn(window.location.href)).toEqual([]);

    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand and agree.' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(window.location.pathname).toBe('/vault/view');
    expect(window.location.search + window.location.hash).toBe('');
    expect(sessionStorage.getItem(VIEW_SESSION_STORAGE)).toBe(SESSION);
    expect(secretsIn(JSON.stringify({ ...localStorage }))).toEqual([]);
  });

  it.each([
    ['revoked', KeyStatusMessages.revoked],
    ['expired', KeyStatusMessages.expired],
  ] as const)('says a %s key cannot open the vault before any disclaimer, offers no Open vault, and keeps the request form', async (status, message) => {
    answers['POST /api/view/key-status'] = [200, { status, owner_name: 'Sam Taylor' }];
    openAt(`/access#k=${KEY}&owner=${OWNER}`);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('heading', { name: "You've been given access to Sam Taylor's vault" })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open vault' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Submit Access Request' })).toBeTruthy();
    expect(called('POST /api/view/redeem')).toEqual([]);
    expect(called('GET /api/access/consent')).toEqual([]);
  });

  it("says an unknown key is invalid, expired, or already used, as redeem does", async () => {
    answers['POST /api/view/key-status'] = [401, { code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid }];
    openAt(`/access#k=${KEY}&owner=${OWNER}`);
    expect((await screen.findByRole('alert')).textContent).toBe(AccessMessages.keyInvalid);
    expect(screen.queryByRole('button', { name: 'Open vault' })).toBeNull();
  });

  it('still opens an e-mail sent before the key moved to the fragment (?k=), and takes the key out of the address', async () => {
    const { replaceState } = openAt(`/access?k=${KEY}&owner=${OWNER}`);
    expect(await screen.findByRole('heading', { name: "You've been given access to Sam Taylor's vault" })).toBeTruthy();
    expect((screen.getByLabelText('Access key or link') as HTMLInputElement).value).toBe(KEY);
    await waitFor(() => expect(replaceState).toHaveBeenCalled());
    expect(window.location.search).toBe(`?owner=${OWNER}`);
    expect(secretsIn(window.location.href)).toEqual([]);
  });
});

describe('the view session’s secret (issue 29)', () => {
  it.each([`/vault/view?session=${SESSION}`, `/vault/view#session=${SESSION}`])('is read once from %s, kept in sessionStorage only, and removed from the address', async (address) => {
    const { replaceState } = openAt(address);
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(called('POST /api/view/token')[0]!.body).toEqual({ session: SESSION });
    expect(replaceState).toHaveBeenCalled();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/vault/view');
    expect(sessionStorage.getItem(VIEW_SESSION_STORAGE)).toBe(SESSION);
    expect(secretsIn(JSON.stringify({ ...localStorage }))).toEqual([]);
  });

  it('a reload of /vault/view finds the session in this tab’s storage, and never writes it into the address', async () => {
    sessionStorage.setItem(VIEW_SESSION_STORAGE, SESSION);
    openAt('/vault/view');
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(window.location.search + window.location.hash).toBe('');
  });
});

describe('the way back into the viewer', () => {
  it('after Clear access, offers the key field again: a pasted key opens the vault', async () => {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, JSON.stringify({ version: CONSENT_VERSION, text_hash: CONSENT_HASH }));
    sessionStorage.setItem(VIEW_SESSION_STORAGE, SESSION);
    openAt('/vault/view');
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear access' }));
    expect(await screen.findByText(AccessMessages.accessCleared)).toBeTruthy();
    expect(sessionStorage.getItem(VIEW_SESSION_STORAGE)).toBeNull();
    // Bad input says so and keeps what was typed.
    fireEvent.change(screen.getByLabelText('Access key or link'), { target: { value: 'not-a-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByText(AccessMessages.keyMalformed)).toBeTruthy();
    expect((screen.getByLabelText('Access key or link') as HTMLInputElement).value).toBe('not-a-key');
    fireEvent.change(screen.getByLabelText('Access key or link'), { target: { value: `https://vault.example.com/access#k=${KEY}&owner=${OWNER}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByRole('button', { name: 'Clear access' })).toBeTruthy();
    expect(called('POST /api/view/redeem')[0]!.body).toMatchObject({ access_key: KEY, owner: OWNER });
    expect(sessionStorage.getItem(VIEW_SESSION_STORAGE)).toBe(SESSION);
    expect(window.location.search + window.location.hash).toBe('');
  });

  it('with no view session, says how to open the viewer and offers the key field', async () => {
    openAt('/vault/view');
    expect(await screen.findByText(AccessMessages.noViewSession)).toBeTruthy();
    expect(screen.getByLabelText('Access key or link')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open vault' })).toBeTruthy();
  });
});
