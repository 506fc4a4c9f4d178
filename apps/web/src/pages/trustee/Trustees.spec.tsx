import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCodes, TRUSTEES_MAX, TrusteeMessages as M, type Trustee, type TrusteeView } from '@lv/contracts';
import { jsonResponse as json, quietConsole, renderApp, resetApp, recordingFetch } from '../../test/app-harness.js';

// Trustees in the whole app: the owner's list on /if-im-not-there and a trustee's page (/trustee),
// the gateway replaced by an in-memory stand-in behind fetch that keeps one live link per trustee.

const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const T0 = '2026-12-06T10:00:00.000Z';

function fakeGateway() {
  const trustees: Trustee[] = [];
  /** The live link secret of each trustee (a resend replaces it, an answer or a removal ends it). */
  const live = new Map<string, string>();
  let linkRequests = 0;
  const invalid = () => json(400, { code: 'TRUSTEE_LINK_INVALID', message: ErrorCodes.TRUSTEE_LINK_INVALID.message });
  const reports = new Map<string, TrusteeView['report']>();
  const viewOf = (t: Trustee): TrusteeView => ({ ownerName: 'Sam Carter', trusteeName: t.name, relationship: t.relationship, status: t.status, report: reports.get(t.id) ?? null, blockedUntil: null });
  const invite = (t: Trustee) => {
    live.set(t.id, `secret-${calls.length}`.padEnd(20, 'x'));
    Object.assign(t, { status: 'invited', invitedAt: T0, invitationExpiresAt: '2026-12-20T10:00:00.000Z' });
  };
  const { calls, fetch } = recordingFetch(async ({ method, path, body }) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (path === '/api/if-im-not-there/trustees' && method === 'GET') return json(200, trustees);
    if (path === '/api/if-im-not-there/trustees' && method === 'POST') {
      if (trustees.filter((t) => t.status !== 'removed').length >= TRUSTEES_MAX) return json(400, { code: 'VALIDATION_FAILED', message: M.tooManyTrustees });
      const t: Trustee = {
        id: String(body!.id), name: String(body!.name).trim(), email: String(body!.email).trim().toLowerCase(), relationship: body!.relationship as Trustee['relationship'],
        status: 'named', invitedAt: null, invitationExpiresAt: null, answeredAt: null, removedAt: null,
      };
      invite(t);
      trustees.push(t);
      return json(201, t);
    }
    const resend = /^\/api\/if-im-not-there\/trustees\/([^/]+)\/invitation$/.exec(path);
    if (resend && method === 'POST') {
      const t = trustees.find((x) => x.id === resend[1])!;
      invite(t);
      return json(200, t);
    }
    const remove = /^\/api\/if-im-not-there\/trustees\/([^/]+)$/.exec(path);
    if (remove && method === 'DELETE') {
      const t = trustees.find((x) => x.id === remove[1])!;
      live.delete(t.id);
      // As access-keys answers: the removed trustee's name and address erased.
      Object.assign(t, { status: 'removed', removedAt: T0, invitationExpiresAt: null, name: '', email: '' });
      return json(200, t);
    }
    if (path === '/api/trustee/view' || path === '/api/trustee/answer') {
      const t = trustees.find((x) => x.id === body!.t);
      if (!t || body!.u !== OWNER || live.get(t.id) !== body!.n) return invalid();
      if (path === '/api/trustee/view') return json(200, viewOf(t));
      live.delete(t.id);
      Object.assign(t, { status: body!.answer === 'accept' ? 'accepted' : 'declined', answeredAt: T0, invitationExpiresAt: null });
      return json(200, viewOf(t));
    }
    if (path === '/api/trustee/report' && method === 'POST') {
      const t = trustees.find((x) => x.id === body!.t);
      if (!t || body!.u !== OWNER || live.get(t.id) !== body!.n) return invalid();
      if (t.status !== 'accepted') return json(403, { code: 'TRUSTEE_NOT_ACCEPTED', message: ErrorCodes.TRUSTEE_NOT_ACCEPTED.message });
      reports.set(t.id, { kind: body!.kind as 'died' | 'incapacitated', reportedAt: T0, vetoEndsAt: '2026-12-09T10:00:00.000Z' });
      return json(200, viewOf(t));
    }
    if (path === '/api/trustee/link' && method === 'POST') {
      linkRequests++;
      if (linkRequests > 2) return json(429, { code: 'RATE_LIMITED', message: M.tooManyLinkRequests });
      return json(200, { message: M.linkRequested });
    }
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  const linkFor = (t: Trustee) => `/trustee?t=${t.id}&n=${live.get(t.id) ?? 'gone'}&u=${OWNER}&exp=1900000000&sig=good`;
  /** "Send me my trustee link" for an accepted trustee: a live link again. */
  const relink = (t: Trustee) => live.set(t.id, 'relinked-secret-0123456789');
  return { trustees, calls, linkFor, relink, fetch };
}

let gateway: ReturnType<typeof fakeGateway>;

beforeEach(() => {
  sessionStorage.clear();
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  quietConsole();
});

afterEach(resetApp);

const region = () => screen.getByRole('region', { name: 'Trustees' });
const addForm = () => screen.getByRole('form', { name: 'Add Trustee' });
const typeIn = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
const addTrustee = async (name: string, email: string, relationship = 'My Sibling') => {
  typeIn(addForm(), 'Trustee name', name);
  typeIn(addForm(), 'Trustee email', email);
  fireEvent.change(within(addForm()).getByLabelText('Trustee relationship'), { target: { value: relationship } });
  fireEvent.click(within(addForm()).getByRole('button', { name: 'Invite Trustee' }));
  await screen.findByText(M.invited(email.toLowerCase()));
};

describe('trustees on /if-im-not-there', () => {
  it('names and invites trustees, shows each answer, sends an invitation again and removes one (its link ends)', async () => {
    renderApp('/if-im-not-there');
    await within(await screen.findByRole('region', { name: 'Trustees' })).findByText('No trustees yet.');
    // Name and e-mail are required, refused before any request.
    fireEvent.click(within(addForm()).getByRole('button', { name: 'Invite Trustee' }));
    await screen.findByText(M.nameAndEmailRequired);
    expect(gateway.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await addTrustee('Ann Lee', 'Ann@Example.com');
    const list = () => within(region()).getByRole('list', { name: 'Trustees' });
    const item = (name: string) => within(list()).getByRole('listitem', { name: new RegExp(name) });
    expect(item('Ann Lee').textContent).toContain('Invited');
    expect(item('Ann Lee').textContent).toContain('the link works until 20 December 2026');
    const post = gateway.calls.find((c) => c.path === '/api/if-im-not-there/trustees' && c.method === 'POST')!;
    expect(post.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Ann Lee', email: 'Ann@Example.com', relationship: 'My Sibling' });

    fireEvent.click(within(item('Ann Lee')).getByRole('button', { name: 'Send invitation again to Ann Lee' }));
    await waitFor(() => expect(gateway.calls.filter((c) => c.path.endsWith('/invitation'))).toHaveLength(1));

    await addTrustee('Bo Gray', 'bo@example.com', 'My Lawyer');
    fireEvent.click(within(item('Bo Gray')).getByRole('button', { name: 'Remove trustee Bo Gray' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Bo Gray?' });
    expect(dialog.textContent).toContain('Their trustee link stops working at once.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText(M.removed);
    await waitFor(() => expect(item('A removed trustee').textContent).toContain('Removed'));
    expect(item('A removed trustee').textContent).toContain('My Lawyer');
    expect(item('A removed trustee').textContent).not.toContain('bo@example.com');
    expect(within(item('A removed trustee')).queryByRole('button', { name: /Remove trustee/ })).toBeNull();
  });

  it(`offers no form once ${TRUSTEES_MAX} trustees are listed`, async () => {
    renderApp('/if-im-not-there');
    await screen.findByRole('region', { name: 'Trustees' });
    for (let i = 1; i <= TRUSTEES_MAX; i++) await addTrustee(`T${i}`, `t${i}@example.com`);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add Trustee' })).toBeNull());
    expect(within(region()).getByText(M.tooManyTrustees)).toBeTruthy();
  });
});

describe('the trustee page (/trustee)', () => {
  const ann = (): Trustee => gateway.trustees[0]!;
  const seed = async () => {
    renderApp('/if-im-not-there');
    await screen.findByRole('region', { name: 'Trustees' });
    await addTrustee('Ann Lee', 'ann@example.com');
    resetApp();
  };

  it('shows who named the trustee and nothing of the vault; accepts only on a press; the used link is refused in plain words', async () => {
    await seed();
    const link = gateway.linkFor(ann());
    const { router } = renderApp(link, null);
    const role = await screen.findByRole('status', { name: 'Your role' });
    // The link's signature leaves the address once read (history, synced tabs, a shoulder).
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/trustee'));
    // A reload of the cleaned address in the same tab still finds the link.
    resetApp();
    renderApp('/trustee', null);
    expect((await screen.findByRole('status', { name: 'Your role' })).textContent).toContain('Ann Lee');
    expect(role.textContent).toContain('Sam Carter has named you, Ann Lee, as a trustee (My Sibling).');
    expect(role.textContent).toContain("You never see the vault's contents.");
    // Opening the link answers nothing (a mail program scanning it must not accept for anyone).
    expect(gateway.calls.filter((c) => c.path === '/api/trustee/answer')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Accept the role' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Your role' }).textContent).toBe(M.accepted));
    expect(screen.queryByRole('button', { name: 'Accept the role' })).toBeNull();
    expect(ann().status).toBe('accepted');
    resetApp();
    renderApp(link, null);
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.TRUSTEE_LINK_INVALID.message);
    expect(screen.getByRole('form', { name: 'Send me my trustee link' })).toBeTruthy();
  });

  it('an accepted trustee reports what happened with a note, only after choosing; the page then shows the report and no form', async () => {
    await seed();
    renderApp(gateway.linkFor(ann()), null);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept the role' }));
    await waitFor(() => expect(ann().status).toBe('accepted'));
    gateway.relink(ann());
    resetApp();
    renderApp(gateway.linkFor(ann()), null);
    const form = await screen.findByRole('form', { name: 'Report' });
    const send = within(form).getByRole('button', { name: 'Send the report' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(form).getByRole('radio', { name: 'The owner is incapacitated (e.g. in hospital)' }));
    fireEvent.change(within(form).getByLabelText('A note (optional)'), { target: { value: 'In St Mary’s since Monday' } });
    fireEvent.click(send);
    const state = await screen.findByRole('status', { name: 'Your report' });
    expect(state.textContent).toContain(M.reported);
    expect(state.textContent).toContain('You reported that Sam Carter is incapacitated (e.g. in hospital).');
    expect(screen.queryByRole('form', { name: 'Report' })).toBeNull();
    expect(gateway.calls.filter((c) => c.path === '/api/trustee/report').map((c) => [c.body!.kind, c.body!.note])).toEqual([['incapacitated', 'In St Mary’s since Monday']]);
  });

  it('declines; a link cut short is refused without asking the server; "send me my link" answers the same for any address, then is limited', async () => {
    await seed();
    renderApp(gateway.linkFor(ann()), null);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Your role' }).textContent).toBe(M.declined));
    resetApp();

    const before = gateway.calls.length;
    renderApp(`/trustee?t=${ann().id}&u=${OWNER}`, null);
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.TRUSTEE_LINK_INVALID.message);
    expect(gateway.calls.slice(before).filter((c) => c.path.startsWith('/api/trustee/view'))).toEqual([]);
    const form = screen.getByRole('form', { name: 'Send me my trustee link' });
    for (const email of ['ann@example.com', 'nobody@example.com']) {
      typeIn(form, 'Your email', email);
      fireEvent.click(within(form).getByRole('button', { name: 'Send me my trustee link' }));
      await waitFor(() => expect(gateway.calls.filter((c) => c.path === '/api/trustee/link' && c.body?.email === email)).toHaveLength(1));
      expect((await within(form).findByRole('status')).textContent).toBe(M.linkRequested);
    }
    fireEvent.click(within(form).getByRole('button', { name: 'Send me my trustee link' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(M.tooManyLinkRequests);
  });
});
