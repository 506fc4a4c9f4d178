import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PasskeyMessages, type PasskeyView } from '@lv/contracts';
import { jsonResponse as json, renderApp, withFakeGateway, recordingFetch } from '../../test/app-harness.js';

// The "Passkeys" card of /settings in the whole app, the gateway an in-memory stand-in behind fetch.
// Adding one needs the browser's WebAuthn (the Playwright spec passkeys.e2e.spec.ts does it in Chromium).

const LAPTOP_ID = '6f1c1d7e-1111-4a4a-8b8b-000000000001';
const PHONE_ID = '6f1c1d7e-1111-4a4a-8b8b-000000000002';

function fakeGateway() {
  let passkeys: PasskeyView[] = [
    { id: LAPTOP_ID, name: 'My laptop', createdAt: '2026-12-01T10:00:00.000Z', lastUsedAt: null },
    { id: PHONE_ID, name: 'Phone', createdAt: '2026-12-02T10:00:00.000Z', lastUsedAt: '2026-12-03T10:00:00.000Z' },
  ];
  const { calls, fetch } = recordingFetch(async ({ method, path, body }) => {
    if (path === '/api/me/passkeys') return json(200, { passkeys });
    const one = /^\/api\/me\/passkeys\/(.+)$/.exec(path);
    if (one && method === 'PATCH') {
      passkeys = passkeys.map((p) => (p.id === one[1] ? { ...p, name: String(body!.name) } : p));
      return json(200, passkeys.find((p) => p.id === one[1]));
    }
    if (one && method === 'DELETE') {
      passkeys = passkeys.filter((p) => p.id !== one[1]);
      return json(200, { passkeys });
    }
    if (path === '/api/me/two-step') return json(200, { enabled: false, recoveryCodesLeft: 0 });
    if (path === '/api/me/sessions') return json(200, { sessions: [] });
    if (path === '/api/me/notifications') return json(200, { emailNotifications: true, accessRequests: true, systemUpdates: true, marketingEmails: false, updated_at: null });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, fetch };
}

const gateway = withFakeGateway(fakeGateway);

describe('Passkeys (/settings)', () => {
  it('lists each passkey with when it was added and last used, renames one in place and removes another', async () => {
    renderApp('/settings');
    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/Never used/)).toBeTruthy();
    expect(within(list).getByText(/Last used/)).toBeTruthy();

    fireEvent.click(within(list).getByRole('button', { name: 'Rename passkey My laptop' }));
    const field = within(list).getByLabelText('New name for My laptop');
    fireEvent.change(field, { target: { value: '  ' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText(PasskeyMessages.nameRequired)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'Work laptop' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Work laptop')).toBeTruthy();
    expect(gateway().calls.filter((c) => c.method === 'PATCH')).toEqual([{ method: 'PATCH', path: `/api/me/passkeys/${LAPTOP_ID}`, body: { name: 'Work laptop' } }]);

    fireEvent.click(within(list).getByRole('button', { name: 'Remove passkey Phone' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(gateway().calls.some((c) => c.method === 'DELETE' && c.path === `/api/me/passkeys/${PHONE_ID}`)).toBe(true);
  });

  it('says so when the browser cannot use passkeys, instead of offering to add one', async () => {
    renderApp('/settings');
    expect(await screen.findByText(PasskeyMessages.unsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
