import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AccessMessages, CONSENT_VERSION, VIEWER_CONSENT_TEXT, type AccessRequest, type SessionView, type UserProfile } from '@lv/contracts';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../app/query-client.js';
import { routes } from '../../app/routes.js';
import { SessionManager } from '../../auth/session.js';
import { CONSENT_ACCEPTED_STORAGE } from './viewer-session.js';

// The family-access screens in the whole app (router, session, shell, toasts), with the gateway
// replaced by an in-memory stand-in behind fetch.

const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const KEY = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const SESSION = 'S'.repeat(43);
const SESSION_ID = '2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e';
const dad: UserProfile = { id: OWNER, email: 'dad@example.com', full_name: 'Dad', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: 'none', ai_admin: false };
const view: SessionView = { accessToken: 'owner-token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile: dad };

interface Call { method: string; path: string; body?: any; auth?: string | null }

function fakeGateway() {
  const calls: Call[] = [];
  const pending: AccessRequest[] = [{
    id: '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f', owner_id: OWNER, requester_email: 'sam@example.com', requester_name: 'Sam', relationship: 'Son', message: 'I miss you',
    child_name: 'Sam', child_dob: '2012-05-01', created_at: '2026-11-20T10:00:00.000Z', status: 'pending', decided_at: null, key_id: null, held_key: null,
  }];
  const overrides = new Map<string, { status: number; body: unknown }>();
  const json = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const grant = { session_id: SESSION_ID, owner_id: OWNER, scopes: ['timeline', 'letters', 'court-journal'], viewer_token: 'viewer-token', viewer_token_expires_at: Date.now() + 15 * 60_000, session_expires_at: '2026-12-25T00:00:00.000Z' };
  const handler = async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(input, 'http://vault.test');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    const headers = new Headers(init.headers);
    calls.push({ method, path: url.pathname + url.search, body, auth: headers.get('authorization') });
    const override = overrides.get(`${method} ${url.pathname}`);
    if (override) return json(override.status, override.body);
    switch (`${method} ${url.pathname}`) {
      case 'POST /api/auth/refresh': return json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' });
      case 'POST /api/access/requests': return json(201, { success: true });
      case 'GET /api/access/consent': return json(200, { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: 'a'.repeat(64) });
      case 'POST /api/view/redeem': return json(201, { ...grant, session: SESSION });
      case 'POST /api/view/token': return json(200, grant);
      case 'POST /api/view/close': return new Response(null, { status: 204 });
      case 'GET /api/view/entries/letters': return json(200, [{ id: 'l1', created_at: '2026-11-21T09:00:00.000Z', headline: 'To Sam, on your birthday' }]);
      case 'GET /api/view/entries/timeline': return json(200, []);
      case 'GET /api/view/entries/court-journal': return json(200, []);
      case 'GET /api/access/requests': return json(200, { items: pending });
      case `POST /api/access/requests/${pending[0]?.id}/approve`:
        return json(200, { key_id: 'k1', access_key: KEY, recipient_email: 'sam@example.com', expires_at: '2026-12-25T10:00:00.000Z', scopes: body.scopes, emailed: true });
      case 'GET /api/access/keys': return json(200, []);
      case 'GET /api/access/sessions': return json(200, []);
      default: return json(404, { code: 'NOT_FOUND', message: 'Not found' });
    }
  };
  return { calls, pending, fetch: jest.fn(handler), answer: (route: string, status: number, body: unknown) => overrides.set(route, { status, body }) };
}

let gateway: ReturnType<typeof fakeGateway>;

function renderAt(path: string, user?: UserProfile) {
  const session = new SessionManager({
    signIn: async () => view, signUp: async () => view, refresh: async () => (user ? view : Promise.reject(new Error('no session'))) as Promise<SessionView>, signOut: async () => undefined,
  });
  if (user) void session.signIn({ email: user.email, password: 'x' });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={session} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router };
}

const sent = (method: string, path: string) => gateway.calls.filter((c) => c.method === method && c.path.startsWith(path));
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  Object.assign(navigator, { clipboard: { writeText: jest.fn(async () => undefined) } });
  if (!process.env.DEBUG_CONSOLE) {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  }
});

afterEach(() => {
  cleanup();
  toast.dismiss();
  jest.restoreAllMocks();
});

describe('access request form', () => {
  it('without an owner, says so and sends nothing', async () => {
    renderAt('/request');
    const form = await screen.findByRole('form', { name: 'Access Request Form' });
    expect(within(form).getByRole('alert').textContent).toContain(AccessMessages.missingOwner);
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Access Request' }));
    await waitFor(() => expect(within(form).getAllByRole('alert').at(-1)?.textContent).toContain(AccessMessages.missingOwner));
    expect(sent('POST', '/api/access/requests')).toHaveLength(0);
  });

  it('asks for each required field in the spec’s words, then sends, says so and clears the form', async () => {
    renderAt(`/access?owner=${OWNER}`);
    const form = await screen.findByRole('form', { name: 'Access Request Form' });
    const submit = () => fireEvent.click(within(form).getByRole('button', { name: 'Submit Access Request' }));
    submit();
    expect((await within(form).findByRole('alert')).textContent).toContain(AccessMessages.emailRequired);
    type('Your Email', 'sam@example.com');
    submit();
    expect(await within(form).findByText(AccessMessages.relationshipRequired)).toBeTruthy();
    type('Your Relationship', 'Son');
    submit();
    expect(await within(form).findByText(AccessMessages.reasonRequired)).toBeTruthy();
    type('Reason for Access', 'I would like to read your letters.');
    type('Child Name', '  ');
    submit();
    expect((await within(form).findByRole('status')).textContent).toContain(AccessMessages.submitted);
    expect(sent('POST', '/api/access/requests')[0]!.body).toEqual({
      user_id: OWNER, requester_email: 'sam@example.com', requester_name: null, relationship: 'Son', message: 'I would like to read your letters.', child_name: null, child_dob: null, access_key: null,
    });
    expect((screen.getByLabelText('Your Email') as HTMLInputElement).value).toBe(String(''));
  });

  it('shows a refused submission with its status and the server’s words', async () => {
    gateway.answer('POST /api/access/requests', 400, { code: 'VALIDATION_FAILED', message: AccessMessages.childDobInvalid });
    renderAt(`/access?owner=${OWNER}`);
    await screen.findByRole('form', { name: 'Access Request Form' });
    type('Your Email', 'sam@example.com');
    type('Your Relationship', 'Son');
    type('Reason for Access', 'Please');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Access Request' }));
    expect(await screen.findByText(AccessMessages.submitFailed(400, AccessMessages.childDobInvalid))).toBeTruthy();
  });
});

describe('opening the vault with a key', () => {
  it('checks the key’s form, asks for the disclaimer once, redeems with the consent and opens the viewer with the session only', async () => {
    const { router } = renderAt('/access');
    await screen.findByRole('heading', { name: 'Already have an access key?' });
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByText(AccessMessages.keyEmpty)).toBeTruthy();
    type('Access key or link', 'not-a-key');
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByText(AccessMessages.keyMalformed)).toBeTruthy();

    type('Access key or link', `http://vault.test/access?k=${KEY}&owner=${OWNER}`);
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    const dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    const proceed = within(dialog).getByRole('button', { name: 'Continue' });
    expect((proceed as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand and agree.' }));
    expect((proceed as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(proceed);

    await waitFor(() => expect(router.state.location.pathname).toBe('/vault/view'));
    expect(router.state.location.search).toBe(`?session=${SESSION}`);
    expect(sent('POST', '/api/view/redeem')[0]!.body).toEqual({ access_key: KEY, owner: OWNER, consent: { version: CONSENT_VERSION, text_hash: 'a'.repeat(64) } });
    expect(localStorage.getItem(CONSENT_ACCEPTED_STORAGE)).toBe(CONSENT_VERSION);
    // The viewer: its tabs, this vault's letters, empty texts, and what was not shared.
    await screen.findByRole('heading', { name: 'Vault (read-only)' });
    expect(screen.getByLabelText('View session').textContent).toContain(SESSION_ID.slice(0, 8));
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Letters' }));
    expect(await screen.findByText('To Sam, on your birthday')).toBeTruthy();
    expect(sent('GET', '/api/view/entries/letters')[0]!.auth).toBe('Bearer viewer-token');
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Who I Am' }));
    expect(await screen.findByText(AccessMessages.sectionNotShared)).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Timeline', 'Letters', 'Court Journal', 'Who I Am', "If I'm Not There"]);

    fireEvent.click(screen.getByRole('button', { name: 'Clear access' }));
    expect(await screen.findByText(AccessMessages.accessCleared)).toBeTruthy();
    expect(sent('POST', '/api/view/close')[0]!.body).toEqual({ session: SESSION });
    expect(sessionStorage.length).toBe(0);
  });

  it('says a refused key is invalid, expired, or already used, and too many tries the way the limit does', async () => {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, CONSENT_VERSION);
    gateway.answer('POST /api/view/redeem', 401, { code: 'INVALID_OR_EXPIRED_KEY', message: 'That access key is invalid, expired, or already used.' });
    renderAt('/access');
    type(await screen.findByLabelText('Access key or link').then(() => 'Access key or link'), KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByText(AccessMessages.keyInvalid)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    gateway.answer('POST /api/view/redeem', 429, { code: 'RATE_LIMITED', message: AccessMessages.tooManyKeyAttempts });
    fireEvent.click(screen.getByRole('button', { name: 'Open vault' }));
    expect(await screen.findByText(AccessMessages.tooManyKeyAttempts)).toBeTruthy();
  });

  it('shows an ended session in the viewer’s words, with Clear Access / Try Again', async () => {
    gateway.answer('POST /api/view/token', 401, { code: 'VIEW_SESSION_ENDED', message: AccessMessages.viewExpired });
    renderAt(`/vault/view?session=${SESSION}`);
    expect(await screen.findByText(`Error: ${AccessMessages.viewExpired}`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Vault access' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear Access / Try Again' })).toBeTruthy();
  });

  it('a session revoked while reading: the next tab ends the whole viewer in the viewer’s words', async () => {
    renderAt(`/vault/view?session=${SESSION}`);
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    gateway.answer('GET /api/view/entries/letters', 401, { code: 'SESSION_EXPIRED', message: AccessMessages.viewExpired });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Letters' }));
    expect(await screen.findByText(`Error: ${AccessMessages.viewExpired}`)).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('without a session or key, says how to open the viewer', async () => {
    renderAt('/vault/view');
    expect(await screen.findByText(AccessMessages.noViewSession)).toBeTruthy();
  });

  it('/redeem without a key says so', async () => {
    renderAt('/redeem');
    expect(await screen.findByText(AccessMessages.noKeyProvided)).toBeTruthy();
  });

  it('/redeem/timeline needs the owner and a token', async () => {
    renderAt('/redeem/timeline?k=abc');
    expect(await screen.findByText(AccessMessages.missingOwnerOrToken)).toBeTruthy();
  });
});

describe('connection requests', () => {
  it('lists the pending requests, approves one with the sections chosen, and shows the key once with Copy', async () => {
    renderAt('/access-control', dad);
    expect(await screen.findByText('1 Pending')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Claim Unowned' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: /Click to respond/ }));
    const details = await screen.findByRole('dialog', { name: 'Access Request Details' });
    expect(within(details).getByText('sam@example.com')).toBeTruthy();
    fireEvent.click(within(details).getByRole('checkbox', { name: 'Court Journal' }));
    fireEvent.click(within(details).getByRole('button', { name: 'Approve Access' }));
    const created = await screen.findByRole('dialog', { name: 'Access Key Created' });
    expect((within(created).getByLabelText('Access key') as HTMLInputElement).value).toBe(String(KEY));
    expect(created.textContent).toContain("We've emailed the key to sam@example.com");
    expect(sent('POST', '/api/access/requests/')[0]!.body.scopes).toEqual(['timeline', 'letters', 'who-i-am', 'if-im-not-there']);
    fireEvent.click(within(created).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(AccessMessages.keyCopied)).toBeTruthy();
  });

  it('says a request answered elsewhere has already been answered', async () => {
    gateway.answer(`POST /api/access/requests/${gateway.pending[0]!.id}/decline`, 409, { code: 'ALREADY_DECIDED', message: AccessMessages.alreadyDecided });
    renderAt('/access-control', dad);
    fireEvent.click(await screen.findByRole('button', { name: /Click to respond/ }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Access Request Details' })).getByRole('button', { name: 'Decline Request' }));
    expect(await screen.findByText(AccessMessages.alreadyDecided)).toBeTruthy();
  });

  it('shows an empty list for the owner’s e-mail', async () => {
    gateway.pending.length = 0;
    renderAt('/access-control', dad);
    expect(await screen.findByText('No pending requests for dad@example.com')).toBeTruthy();
  });
});

describe('generate keys', () => {
  it('needs a generated key, a name and an e-mail, in the spec’s words', async () => {
    renderAt('/access-key', dad);
    const save = await screen.findByRole('button', { name: 'Save Key' });
    fireEvent.click(save);
    expect(await screen.findByText(AccessMessages.noKeyGenerated)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Access Key' }));
    expect((screen.getByLabelText('Access key') as HTMLInputElement).value).toMatch(/^[0-9a-f-]{36}$/);
    fireEvent.click(save);
    expect(await screen.findByText(AccessMessages.missingName)).toBeTruthy();
    type('Family member name', 'Ellie');
    fireEvent.click(save);
    expect(await screen.findByText(AccessMessages.missingEmail)).toBeTruthy();
    expect((screen.getByLabelText('Expiry (days)') as HTMLInputElement).value).toBe(String(30));
    expect(sent('POST', '/api/access/keys')).toHaveLength(0);
  });
});
