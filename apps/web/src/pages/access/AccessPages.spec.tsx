import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  AccessMessages, CONSENT_VERSION, RequestLinkMessages, VIEWER_CONSENT_TEXT, type AccessKeySummary, type AccessRequest, type SessionView, type UserProfile, type ViewSessionSummary,
} from '@lv/contracts';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../queries/query-client.js';
import { memoryApp } from '../../test/memory-router.js';
import { SessionManager } from '../../api/session.js';
import { CONSENT_ACCEPTED_STORAGE } from './viewer-session.js';
import { LINK_INCOMPLETE, TOO_MANY_LOOKUPS } from './LinkedRequestForm.js';
import { resetApp, quietConsole } from '../../test/app-harness.js';

// The family-access screens in the whole app (router, session, shell, toasts), with the gateway
// replaced by an in-memory stand-in behind fetch.

const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const KEY = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const SESSION = 'S'.repeat(43);
const SESSION_ID = '2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e';
const dad: UserProfile = { id: OWNER, email: 'dad@example.com', full_name: 'Dad', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: 'none', ai_admin: false, emailVerified: true };
// What access-keys compares the consent with: the SHA-256 of the text it records.
const CONSENT_HASH = createHash('sha256').update(VIEWER_CONSENT_TEXT).digest('hex');
const accepted = JSON.stringify({ version: CONSENT_VERSION, text_hash: CONSENT_HASH });
const view: SessionView = { accessToken: 'owner-token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile: dad };

interface Call { method: string; path: string; body?: any; auth?: string | null }

const DRAFTED_KEY = '2f6e8a1c-3b4d-4e5f-9a6b-7c8d9e0f1a2b';

const KEY_FIXTURE: AccessKeySummary = {
  id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', name: 'Ellie', recipient_email: 'ellie@example.com', source: 'owner', request_id: null, scopes: ['letters'],
  created_at: '2026-11-01T10:00:00.000Z', expires_at: '2026-12-01T10:00:00.000Z', status: 'active', revoked_at: null, email_status: 'failed', email_sent_at: null, email_failure: 'undeliverable',
  sessions: 1, last_viewed_at: '2026-11-02T18:30:00.000Z', allow_download: true,
};

function fakeGateway() {
  const calls: Call[] = [];
  const pending: AccessRequest[] = [{
    id: '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f', owner_id: OWNER, requester_email: 'sam@example.com', requester_name: 'Sam', relationship: 'Son', message: 'I miss you',
    child_name: 'Sam', child_dob: '2012-05-01', created_at: '2026-11-20T10:00:00.000Z', status: 'pending', decided_at: null, key_id: null, held_key: null,
  }];
  const keys: AccessKeySummary[] = [{ ...KEY_FIXTURE }];
  const sessions: ViewSessionSummary[] = [{
    id: SESSION_ID, key_id: keys[0]!.id, key_name: 'Ellie', recipient_email: 'ellie@example.com', scopes: ['letters'], opened_at: '2026-11-02T18:00:00.000Z',
    expires_at: '2026-12-01T10:00:00.000Z', status: 'active', ended_at: null,
    consent: { consent_version: CONSENT_VERSION, consent_text: VIEWER_CONSENT_TEXT, consent_hash: CONSENT_HASH, user_agent: null, origin: null, accepted_at: '2026-11-02T18:00:00.000Z' },
    views: [
      { section: 'letters', at: '2026-11-02T18:31:00.000Z', item: { kind: 'letter', id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b', title: 'To Ellie, at eighteen' } },
      { section: 'letters', at: '2026-11-02T18:30:00.000Z' },
    ],
  }];
  // The owner's request link (issue 28): his switch, and what the public lookup says of his vault.
  const setting = { open: true };
  const owner = { name: 'Dad' as string | null };
  const overrides = new Map<string, { status: number; body: unknown; once?: boolean }>();
  const json = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const grant = { session_id: SESSION_ID, owner_id: OWNER, scopes: ['timeline', 'letters', 'court-journal'], viewer_token: 'viewer-token', viewer_token_expires_at: Date.now() + 15 * 60_000, session_expires_at: '2026-12-25T00:00:00.000Z' };
  const handler = async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(input, 'http://vault.test');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    const headers = new Headers(init.headers);
    calls.push({ method, path: url.pathname + url.search, body, auth: headers.get('authorization') });
    const override = overrides.get(`${method} ${url.pathname}`);
    if (override) {
      if (override.once) overrides.delete(`${method} ${url.pathname}`);
      return json(override.status, override.body);
    }
    if (method === 'GET' && url.pathname.startsWith('/api/access/request-form/')) {
      const id = url.pathname.slice('/api/access/request-form/'.length);
      if (!/^[0-9a-f-]{36}$/.test(id)) return json(400, { code: 'VALIDATION_FAILED', message: 'This request link is not complete.' });
      if (id !== OWNER) return json(404, { code: 'NOT_FOUND', message: 'Not found' });
      return json(200, { open: setting.open, owner_name: owner.name });
    }
    switch (`${method} ${url.pathname}`) {
      case 'GET /api/access/request-setting': return json(200, setting);
      case 'PUT /api/access/request-setting':
        setting.open = body.open;
        return json(200, setting);
      case 'POST /api/auth/session': return json(200, { session: null });
      case 'POST /api/access/requests': return json(201, { success: true });
      case 'GET /api/access/consent': return json(200, { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH });
      case 'POST /api/view/redeem':
        if (body.consent?.version !== CONSENT_VERSION || body.consent?.text_hash !== CONSENT_HASH) return json(400, { code: 'CONSENT_REQUIRED', message: AccessMessages.consentRequired });
        return json(201, { ...grant, session: SESSION });
      case 'POST /api/view/token': return json(200, grant);
      case 'POST /api/view/close': return new Response(null, { status: 204 });
      case 'GET /api/view/entries/letters': return json(200, [{ id: 'l1', created_at: '2026-11-21T09:00:00.000Z', headline: 'To Sam, on your birthday' }]);
      case 'GET /api/view/entries/timeline': return json(200, []);
      case 'GET /api/view/entries/court-journal': return json(200, []);
      case 'GET /api/access/requests': return json(200, { items: pending });
      case `POST /api/access/requests/${pending[0]?.id}/approve`:
        return json(200, { key_id: 'k1', access_key: KEY, recipient_email: 'sam@example.com', expires_at: '2026-12-25T10:00:00.000Z', scopes: body.scopes, emailed: true });
      case `POST /api/access/requests/${pending[0]?.id}/decline`: return json(200, { ...pending.splice(0, 1)[0], status: 'declined' });
      case 'GET /api/access/keys': return json(200, keys);
      case 'POST /api/access/keys/draft': return json(201, { access_key: DRAFTED_KEY, draft: 'draft-signature' });
      case 'POST /api/access/keys':
        return json(201, { key_id: '8d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a', access_key: body.access_key, recipient_email: body.email, expires_at: '2026-12-25T10:00:00.000Z', scopes: body.scopes, emailed: true });
      case `POST /api/access/keys/${keys[0]!.id}/revoke`: return json(200, Object.assign(keys[0]!, { status: 'revoked' }));
      case 'GET /api/access/sessions': return json(200, sessions);
      case `POST /api/access/sessions/${SESSION_ID}/revoke`: return json(200, Object.assign(sessions[0]!, { status: 'revoked' }));
      default: return json(404, { code: 'NOT_FOUND', message: 'Not found' });
    }
  };
  return {
    calls, pending, grant, setting, owner, fetch: jest.fn(handler),
    answer: (route: string, status: number, body: unknown) => overrides.set(route, { status, body }),
    answerOnce: (route: string, status: number, body: unknown) => overrides.set(route, { status, body, once: true }),
  };
}

let gateway: ReturnType<typeof fakeGateway>;

/** Waits until the fake gateway has answered every request so far and React has rendered the answers. */
async function everyAnswerRendered(): Promise<void> {
  await act(async () => {
    await Promise.all(gateway.fetch.mock.results.map((result) => result.value));
  });
}

function renderAt(path: string, user?: UserProfile) {
  const session = new SessionManager({
    signIn: async () => view, signUp: async () => view, refresh: async () => (user ? view : null), signOut: async () => undefined,
  });
  if (user) void session.signIn({ email: user.email, password: 'x' });
  const { router, element } = memoryApp(path);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={session} queryClient={queryClient}>
      {element}
    </AppProviders>,
  );
  return { router };
}

const sent = (method: string, path: string) => gateway.calls.filter((c) => c.method === method && c.path.startsWith(path));
/** Calls to exactly this path (`sent` matches a prefix, so /api/access/keys also finds /api/access/keys/draft). */
const sentTo = (method: string, path: string) => gateway.calls.filter((c) => c.method === method && c.path === path);
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  Object.assign(navigator, { clipboard: { writeText: jest.fn(async () => undefined) } });
  quietConsole();
});

afterEach(resetApp);

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
      submission_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
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
  it('checks the key’s form, asks for the disclaimer once, redeems with the consent and opens the viewer, the session in this tab only', async () => {
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
    expect(router.state.location.search).toBe('');
    expect(sessionStorage.getItem('lv:view-session')).toBe(SESSION);
    expect(sent('POST', '/api/view/redeem')[0]!.body).toEqual({ access_key: KEY, owner: OWNER, consent: { version: CONSENT_VERSION, text_hash: CONSENT_HASH } });
    expect(localStorage.getItem(CONSENT_ACCEPTED_STORAGE)).toBe(accepted);
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
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, accepted);
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
    gateway.answer('POST /api/view/token', 401, { code: 'VIEW_SESSION_ENDED', message: AccessMessages.viewExpired });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Letters' }));
    expect(await screen.findByText(`Error: ${AccessMessages.viewExpired}`)).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('a viewer token that lapsed (a laptop asleep past its renewal) is renewed from the session, and reading goes on', async () => {
    renderAt(`/vault/view?session=${SESSION}`);
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    gateway.answerOnce('GET /api/view/entries/letters', 401, { code: 'SESSION_EXPIRED', message: AccessMessages.viewExpired });
    gateway.answerOnce('POST /api/view/token', 200, { ...gateway.grant, viewer_token: 'renewed-token' });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Letters' }));
    expect(await screen.findByText('To Sam, on your birthday')).toBeTruthy();
    expect(sent('GET', '/api/view/entries/letters').map((c) => c.auth)).toEqual(['Bearer viewer-token', 'Bearer renewed-token']);
    expect(sent('POST', '/api/view/token').map((c) => c.body)).toEqual([{ session: SESSION }, { session: SESSION }]);
    expect(sessionStorage.length).toBe(1);
  });

  it('the timeline tab shows a video’s poster (a poster-only link, asked with the viewer token) and a recording’s length; nothing for one without', async () => {
    const READY = 'aa7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    const PENDING = 'bb7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    gateway.answer('GET /api/view/entries/timeline', 200, [
      { id: READY, created_at: '2026-11-21T09:00:00.000Z', headline: 'Beach day', kind: 'recording', media: 'video', poster: true, duration_seconds: 65 },
      { id: PENDING, created_at: '2026-11-20T09:00:00.000Z', headline: 'Still converting', kind: 'recording', media: 'video' },
    ]);
    gateway.answer(`GET /api/view/media/${READY}/poster`, 200, { url: `/api/view/media/${READY}?s=v&exp=1&sig=p&poster=1`, expiresAt: Date.now() + 3600_000 });
    renderAt(`/vault/view?session=${SESSION}`);
    const entry = await screen.findByRole('button', { name: /Beach day/ });
    const poster = await within(entry).findByRole('img', { name: 'Beach day' });
    expect(poster.getAttribute('src')).toBe(`/api/view/media/${READY}?s=v&exp=1&sig=p&poster=1`);
    expect(within(entry).getByText('1:05').getAttribute('datetime')).toBe('PT65S');
    expect(sent('GET', `/api/view/media/${READY}/poster`)[0]!.auth).toBe('Bearer viewer-token');
    const pending = screen.getByRole('button', { name: /Still converting/ });
    expect(within(pending).queryByRole('img')).toBeNull();
    expect(pending.querySelector('time[datetime^="PT"]')).toBeNull();
    expect(sent('GET', `/api/view/media/${PENDING}/poster`)).toEqual([]);
  });

  it('a milestone key’s Letters tab shows its one letter whole, read with the viewer token, as text', async () => {
    const LETTER = 'e0000000-0000-4000-8000-000000000001';
    gateway.answer('POST /api/view/token', 200, { ...gateway.grant, scopes: ['letters'], letter_id: LETTER });
    gateway.answer('GET /api/view/letter', 200, {
      id: LETTER, title: 'For Ellie at 18', content: 'Happy birthday, my girl.\n<b>Not bold</b>', preview: 'Happy birthday', word_count: 5,
      created_at: '2026-11-21T09:00:00.000Z', updated_at: '2026-11-21T09:00:00.000Z', version: 4, milestone: null,
    });
    renderAt(`/vault/view?session=${SESSION}`);
    const letter = await screen.findByRole('article', { name: 'For Ellie at 18' });
    expect(letter.textContent).toContain('Happy birthday, my girl.');
    expect(letter.textContent).toContain('<b>Not bold</b>');
    expect(sent('GET', '/api/view/letter')[0]!.auth).toBe('Bearer viewer-token');
    expect(sent('GET', '/api/view/entries/letters')).toEqual([]);
  });

  it('a lost connection while opening is tried again with the same session, which is not closed', async () => {
    gateway.answerOnce('POST /api/view/token', 503, { code: 'SERVICE_UNAVAILABLE', message: 'The vault is temporarily unavailable. Please try again in a moment.' });
    renderAt(`/vault/view?session=${SESSION}`);
    expect(await screen.findByText('Error: The vault is temporarily unavailable. Please try again in a moment.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear Access / Try Again' }));
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(sent('POST', '/api/view/close')).toHaveLength(0);
  });

  it('a disclaimer accepted for another text is shown again before a link’s key is redeemed; the address keeps neither key nor session', async () => {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, JSON.stringify({ version: CONSENT_VERSION, text_hash: 'b'.repeat(64) }));
    const { router } = renderAt(`/vault/view?k=${KEY}&owner=${OWNER}`);
    const dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    expect(dialog.textContent).toContain(VIEWER_CONSENT_TEXT.slice(0, 40));
    expect(sent('POST', '/api/view/redeem')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand and agree.' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(sent('POST', '/api/view/redeem')[1]!.body).toEqual({ access_key: KEY, owner: OWNER, consent: { version: CONSENT_VERSION, text_hash: CONSENT_HASH } });
    expect(router.state.location.search).toBe(`?owner=${OWNER}`);
    expect(sessionStorage.getItem('lv:view-session')).toBe(SESSION);
  });

  it('the consent sent is the SHA-256 of the very text shown, not a hash the server offers', async () => {
    gateway.answer('GET /api/access/consent', 200, { version: CONSENT_VERSION, text: 'Words the server changed.', hash: 'c'.repeat(64) });
    renderAt(`/redeem?key=${KEY}`);
    let dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    expect(await within(dialog).findByText('Words the server changed.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand and agree.' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(sent('POST', '/api/view/redeem')).toHaveLength(1));
    expect(sent('POST', '/api/view/redeem')[0]!.body.consent).toEqual({ version: CONSENT_VERSION, text_hash: createHash('sha256').update('Words the server changed.').digest('hex') });
    // This stand-in records only its own text, so it refuses, and the disclaimer is asked again.
    dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    expect(localStorage.getItem(CONSENT_ACCEPTED_STORAGE)).toBeNull();
  });

  it('Cancel on the disclaimer redeems nothing and says the disclaimer comes first', async () => {
    renderAt(`/redeem?key=${KEY}`);
    expect(await screen.findByRole('heading', { name: 'Redeeming Access Key' })).toBeTruthy();
    expect(screen.getByText('Checking your access key...')).toBeTruthy();
    const dialog = await screen.findByRole('dialog', { name: 'Viewer Disclaimer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(AccessMessages.consentRequired)).toBeTruthy();
    expect(sent('POST', '/api/view/redeem')).toHaveLength(0);
    expect(localStorage.getItem(CONSENT_ACCEPTED_STORAGE)).toBeNull();
  });

  it('/redeem redeems a key with the accepted disclaimer and goes on to the viewer; a refused key says why', async () => {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, accepted);
    const { router } = renderAt(`/redeem?key=${KEY}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/vault/view'));
    expect(router.state.location.search).toBe('');
    cleanup();
    gateway.answer('POST /api/view/redeem', 401, { code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid });
    renderAt(`/redeem?key=${KEY}`);
    expect(await screen.findByText(AccessMessages.redeemFailed(AccessMessages.keyInvalid))).toBeTruthy();
  });

  it('/redeem/timeline reads the timeline with the link’s key, and says when the link is no longer valid', async () => {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, accepted);
    renderAt(`/redeem/timeline?owner=${OWNER}&k=${KEY}`);
    expect(await screen.findByRole('heading', { name: 'Timeline' })).toBeTruthy();
    expect(await screen.findByText('No timeline entries yet.')).toBeTruthy();
    expect(sent('GET', '/api/view/entries/timeline')[0]!.auth).toBe('Bearer viewer-token');
    cleanup();
    gateway.answer('POST /api/view/redeem', 401, { code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid });
    renderAt(`/redeem/timeline?owner=${OWNER}&token=${KEY}`);
    expect(await screen.findByText(AccessMessages.linkNoLongerValid)).toBeTruthy();
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
    const claim = screen.getByRole('button', { name: 'Claim Unowned', description: /nothing to claim/ }) as HTMLButtonElement;
    expect(claim.disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: /Click to respond/ }));
    const details = await screen.findByRole('dialog', { name: 'Access Request Details' });
    expect(within(details).getByText('sam@example.com')).toBeTruthy();
    fireEvent.click(within(details).getByRole('checkbox', { name: 'Court Journal' }));
    fireEvent.click(within(details).getByRole('button', { name: 'Approve Access' }));
    const created = await screen.findByRole('dialog', { name: 'Access Key Created' });
    expect((within(created).getByLabelText('Access key') as HTMLInputElement).value).toBe(String(KEY));
    expect(created.textContent).toContain("We've emailed the key to sam@example.com");
    expect(sent('POST', '/api/access/requests/')[0]!.body.scopes).toEqual(['timeline', 'letters', 'who-i-am', 'if-im-not-there']);
    // View only unless the owner ticks "Allow downloads of originals".
    expect(sent('POST', '/api/access/requests/')[0]!.body.allow_download).toBe(false);
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

  it('declines a request: the dialog closes and the list reloads without it', async () => {
    renderAt('/access-control', dad);
    fireEvent.click(await screen.findByRole('button', { name: /Click to respond/ }));
    const details = await screen.findByRole('dialog', { name: 'Access Request Details' });
    expect(details.textContent).toContain('I miss you');
    fireEvent.click(within(details).getByRole('button', { name: 'Decline Request' }));
    expect(await screen.findByText('No pending requests for dad@example.com')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('0 Pending')).toBeTruthy();
    expect(sent('POST', '/api/access/requests/')).toHaveLength(1);
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
    // The server makes the key: the browser only shows what it was given.
    await waitFor(() => expect((screen.getByLabelText('Access key') as HTMLInputElement).value).toBe(DRAFTED_KEY));
    expect(sent('POST', '/api/access/keys/draft')).toHaveLength(1);
    fireEvent.click(save);
    expect(await screen.findByText(AccessMessages.missingName)).toBeTruthy();
    type('Family member name', 'Ellie');
    fireEvent.click(save);
    expect(await screen.findByText(AccessMessages.missingEmail)).toBeTruthy();
    expect((screen.getByLabelText('Expiry (days)') as HTMLInputElement).value).toBe(String(30));
    expect(sentTo('POST', '/api/access/keys')).toHaveLength(0);
  });

  it('says when a key e-mail was stopped by the daily limit, so the owner shares the key himself', async () => {
    gateway.answer('GET /api/access/keys', 200, [{ ...KEY_FIXTURE, email_failure: 'daily_limit' }]);
    renderAt('/access-key', dad);
    const ellie = await screen.findByRole('listitem', { name: 'Ellie' });
    expect(ellie.textContent).toContain(AccessMessages.emailDailyLimit);
    expect(ellie.textContent).not.toContain(AccessMessages.emailSendFailed);
  });

  it('saves a key with the sections chosen, shows it once, and lists the owner’s keys and who viewed what', async () => {
    renderAt('/access-key', dad);
    fireEvent.click(await screen.findByRole('button', { name: 'Generate Access Key' }));
    await waitFor(() => expect((screen.getByLabelText('Access key') as HTMLInputElement).value).toBe(DRAFTED_KEY));
    const key = DRAFTED_KEY;
    type('Family member name', 'Sam');
    type('Recipient email', 'sam@example.com');
    type('Expiry (days)', '14');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Court Journal' }));
    const downloads = screen.getByRole('checkbox', { name: 'Allow downloads of originals' }) as HTMLInputElement;
    expect(downloads.checked).toBe(false);
    fireEvent.click(downloads);
    fireEvent.click(screen.getByRole('button', { name: 'Save Key' }));
    expect(((await screen.findByLabelText('Saved access key')) as HTMLInputElement).value).toBe(key);
    expect(sentTo('POST', '/api/access/keys')[0]!.body).toEqual({
      access_key: key, draft: 'draft-signature', name: 'Sam', email: 'sam@example.com', expires_in_days: 14, scopes: ['timeline', 'letters', 'who-i-am', 'if-im-not-there'], allow_download: true,
    });
    const ellie = await screen.findByRole('listitem', { name: 'Ellie' });
    expect(ellie.textContent).toContain('Active');
    expect(ellie.textContent).toContain(AccessMessages.emailSendFailed);
    expect(ellie.textContent).toContain('Used on 1 device');
    expect(ellie.textContent).toContain('Downloads allowed');
    const viewing = screen.getByRole('listitem', { name: 'Viewing by Ellie' });
    expect(within(viewing).getByRole('list', { name: 'Views' }).textContent).toContain('Letters: To Ellie, at eighteen');
    // What the viewer opened, by title (issue 28).
    expect(viewing.textContent).toContain('Opened: To Ellie, at eighteen');
    expect(viewing.textContent).toContain(`disclaimer ${CONSENT_VERSION} accepted`);
  });

  it('revokes a key and a viewing session only after confirming', async () => {
    renderAt('/access-key', dad);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Ellie' })).getByRole('button', { name: 'Revoke' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Revoke this key?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sent('POST', '/api/access/keys/')).toHaveLength(0);
    fireEvent.click(within(screen.getByRole('listitem', { name: 'Ellie' })).getByRole('button', { name: 'Revoke' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Revoke this key?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'Ellie' })).queryByRole('button', { name: 'Revoke' })).toBeNull());
    expect(screen.getByRole('listitem', { name: 'Ellie' }).textContent).toContain('Revoked');

    fireEvent.click(within(screen.getByRole('listitem', { name: 'Viewing by Ellie' })).getByRole('button', { name: 'Revoke session' }));
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'End this viewing session?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(sent('POST', `/api/access/sessions/${SESSION_ID}/revoke`)).toHaveLength(1));
  });
});

describe('the request link (issue 28)', () => {
  const linkOf = (ownerId: string) => `${window.location.origin}/request?owner=${ownerId}`;

  it('/access-control shows the owner’s link, its QR code, Copy and the switch, on', async () => {
    renderAt('/access-control', dad);
    const card = await screen.findByRole('region', { name: RequestLinkMessages.linkTitle });
    expect(card.textContent).toContain(RequestLinkMessages.linkExplanation);
    expect((within(card).getByRole('textbox', { name: 'Request link' }) as HTMLTextAreaElement).value).toBe(linkOf(OWNER));
    const qr = await within(card).findByRole('img', { name: /QR code/ });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    const toggle = await within(card).findByRole('switch', { name: RequestLinkMessages.requestsSwitch });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(card.textContent).not.toContain(RequestLinkMessages.requestsOff);
    fireEvent.click(within(card).getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText(RequestLinkMessages.linkCopied)).toBeTruthy();
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(linkOf(OWNER));
    expect(sent('GET', '/api/access/request-setting')).toHaveLength(1);
  });

  it('the switch turns requests off and on again, each time with a PUT, and says when they are off', async () => {
    renderAt('/access-control', dad);
    const toggle = await screen.findByRole('switch', { name: RequestLinkMessages.requestsSwitch });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toggle);
    expect(await screen.findByText(RequestLinkMessages.requestsOff)).toBeTruthy();
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(sent('PUT', '/api/access/request-setting').map((c) => c.body)).toEqual([{ open: false }]);
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(screen.queryByText(RequestLinkMessages.requestsOff)).toBeNull();
    expect(sent('PUT', '/api/access/request-setting').map((c) => c.body)).toEqual([{ open: false }, { open: true }]);
  });

  it('/request?owner= says whom the family member is asking, above the form, and sends the request to that owner', async () => {
    renderAt(`/request?owner=${OWNER}`);
    expect(await screen.findByText(RequestLinkMessages.askingOwner('Dad'))).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Access Request Form' });
    expect(within(form).queryByRole('alert')).toBeNull();
    type('Your Email', 'sam@example.com');
    type('Your Relationship', 'Son');
    type('Reason for Access', 'Please');
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Access Request' }));
    expect((await within(form).findByRole('status')).textContent).toContain(AccessMessages.submitted);
    expect(sent('POST', '/api/access/requests')[0]!.body.user_id).toBe(OWNER);
    expect(sent('GET', '/api/access/request-form/')[0]!.auth).toBeNull();
  });

  it('without the owner’s name, says it is a Legacy Vault; /access-request is the same page', async () => {
    gateway.owner.name = null;
    renderAt(`/access-request?owner=${OWNER}`);
    expect(await screen.findByText(RequestLinkMessages.askingOwner(null))).toBeTruthy();
    expect(await screen.findByRole('form', { name: 'Access Request Form' })).toBeTruthy();
  });

  it('a closed link says so and offers no form', async () => {
    gateway.setting.open = false;
    renderAt(`/request?owner=${OWNER}`);
    expect(await screen.findByText(RequestLinkMessages.requestsClosed)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Access Request Form' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit Access Request' })).toBeNull();
    expect(screen.queryByText(RequestLinkMessages.askingOwner('Dad'))).toBeNull();
  });

  it('a request the owner closed meanwhile is answered in the closed link’s words', async () => {
    gateway.answer('POST /api/access/requests', 403, { code: 'REQUESTS_CLOSED', message: RequestLinkMessages.requestsClosed });
    renderAt(`/request?owner=${OWNER}`);
    const form = await screen.findByRole('form', { name: 'Access Request Form' });
    type('Your Email', 'sam@example.com');
    type('Your Relationship', 'Son');
    type('Reason for Access', 'Please');
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Access Request' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(RequestLinkMessages.requestsClosed);
  });

  it('without an owner, /request says in plain words where the link comes from, and looks nothing up', async () => {
    renderAt('/request');
    const form = await screen.findByRole('form', { name: 'Access Request Form' });
    expect(within(form).getByRole('alert').textContent).toBe(AccessMessages.missingOwner);
    expect(sent('GET', '/api/access/request-form/')).toHaveLength(0);
  });

  it.each([
    ['a malformed owner', 'not-a-uuid'],
    ['an unknown owner', '00000000-0000-4000-8000-000000000000'],
  ])('a link with %s says the link is incomplete, with no form', async (_, owner) => {
    renderAt(`/request?owner=${owner}`);
    expect((await screen.findByRole('alert')).textContent).toBe(LINK_INCOMPLETE);
    expect(screen.queryByRole('button', { name: 'Submit Access Request' })).toBeNull();
  });

  it('too many look-ups say so', async () => {
    gateway.answer(`GET /api/access/request-form/${OWNER}`, 429, { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a few minutes and try again.' });
    renderAt(`/request?owner=${OWNER}`);
    expect((await screen.findByRole('alert')).textContent).toBe(TOO_MANY_LOOKUPS);
  });
});

describe('requests waiting (issue 28)', () => {
  const request = (n: number): AccessRequest => ({ ...gateway.pending[0]!, id: `9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2${n}` });
  const withPending = (count: number) => {
    const first = gateway.pending[0]!;
    gateway.pending.length = 0;
    for (let n = 0; n < count; n++) gateway.pending.push(n === 0 ? first : request(n));
  };
  const openMenu = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    return screen.findByRole('dialog', { name: 'Legacy Vault' });
  };

  it.each([
    [1, '1', '1 pending request'],
    [2, '2', '2 pending requests'],
  ])('the side menu shows %i waiting beside Access Control', async (count, shown, description) => {
    withPending(count);
    renderAt('/request', dad);
    const menu = await openMenu();
    const badge = await within(menu).findByTestId('pending-requests-badge');
    expect(badge.textContent).toBe(shown);
    expect(within(menu).getByRole('link', { name: 'Access Control', description })).toBeTruthy();
  });

  it('the side menu shows no badge when nothing waits, and asks nothing when signed out', async () => {
    withPending(0);
    renderAt('/request', dad);
    let menu = await openMenu();
    await waitFor(() => expect(sent('GET', '/api/access/requests')).toHaveLength(1));
    expect(within(menu).queryByTestId('pending-requests-badge')).toBeNull();
    expect(within(menu).getByRole('link', { name: 'Access Control' }).getAttribute('aria-describedby')).toBeNull();
    cleanup();
    gateway.calls.length = 0;
    withPending(1);
    renderAt('/request');
    menu = await openMenu();
    expect(within(menu).queryByTestId('pending-requests-badge')).toBeNull();
    // A query would be asked as its observer mounts: once React's effects have run, none was.
    await act(async () => undefined);
    expect(sent('GET', '/api/access/requests')).toHaveLength(0);
  });

  it.each([
    [1, '1 access request waiting'],
    [2, '2 access requests waiting'],
  ])('the vault home links to Access Control when %i wait', async (count, words) => {
    withPending(count);
    renderAt('/vault', dad);
    const link = await screen.findByRole('link', { name: words });
    expect(link.getAttribute('href')).toBe('/access-control');
  });

  it('the vault home says nothing of requests when none wait', async () => {
    withPending(0);
    renderAt('/vault', dad);
    await screen.findByRole('heading', { level: 1, name: /Welcome Back/ });
    await waitFor(() => expect(sent('GET', '/api/access/requests')).toHaveLength(1));
    await everyAnswerRendered();
    expect(screen.queryByRole('link', { name: /access requests? waiting/ })).toBeNull();
  });
});
