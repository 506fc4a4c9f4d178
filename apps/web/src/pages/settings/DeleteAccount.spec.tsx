import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AccountDeletionMessages, ErrorCodes, type AccountDeletionStatus } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway, recordingFetch } from '../../test/app-harness.js';
import { SudoTexts } from '../../shell/SudoDialog.js';

// "Delete my account" in /settings and the e-mailed "keep my account" page, in the whole app, the
// gateway an in-memory stand-in behind fetch that asks for the password again first (sudo mode).

const DUE = '2026-12-14T10:00:00.000Z';

function fakeGateway() {
  let status: AccountDeletionStatus = { scheduled: false, dueAt: null, message: '' };
  let proved = false;
  const { calls, fetch } = recordingFetch(async ({ method, path, body }) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (path === '/api/me/confirm-identity') {
      proved = true;
      return json(200, { accessToken: 'proved', accessTokenExpiresAt: Date.now() + 60_000, profile: sam });
    }
    if (path === '/api/me/account-deletion' && method === 'GET') return json(200, status);
    if (path === '/api/me/account-deletion' && method === 'POST') {
      if (!proved) return json(403, { code: 'SUDO_REQUIRED', message: ErrorCodes.SUDO_REQUIRED.message });
      if (String(body!.confirmation).trim().toUpperCase() !== 'DELETE') return json(400, { code: 'VALIDATION_FAILED', message: AccountDeletionMessages.confirmationWrong, fields: { confirmation: AccountDeletionMessages.confirmationWrong } });
      status = { scheduled: true, dueAt: DUE, message: '' };
      return json(200, { ...status, message: AccountDeletionMessages.scheduled('14 December 2026, 10:00 UTC') });
    }
    if (path === '/api/me/account-deletion' && method === 'DELETE') {
      status = { scheduled: false, dueAt: null, message: '' };
      return json(200, { ...status, message: AccountDeletionMessages.kept });
    }
    if (path === '/api/auth/keep-account') {
      if (body!.token !== 'abc.def') return json(400, { code: 'ACCOUNT_DELETION_LINK_INVALID', message: ErrorCodes.ACCOUNT_DELETION_LINK_INVALID.message });
      return json(200, { scheduled: false, dueAt: null, message: AccountDeletionMessages.kept });
    }
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, fetch };
}

const gateway = withFakeGateway(fakeGateway);
const sent = (method: string, path: string) => gateway().calls.filter((c) => c.method === method && c.path === path);

describe('Delete my account (/settings)', () => {
  it('asks for DELETE typed and the password again, then says when the account goes and keeps it on "Keep my account"', async () => {
    renderApp('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const field = within(dialog).getByLabelText('Type DELETE to confirm');

    // Not the word: said on the field, nothing sent.
    fireEvent.change(field, { target: { value: 'remove' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(AccountDeletionMessages.confirmationWrong);
    expect(sent('POST', '/api/me/account-deletion')).toHaveLength(0);

    fireEvent.change(field, { target: { value: 'delete' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    // The gateway wants the password again: "Confirm it’s you", then the deletion is asked once more.
    const sudo = await screen.findByRole('dialog', { name: SudoTexts.title });
    fireEvent.change(within(sudo).getByLabelText(SudoTexts.password), { target: { value: 'my password' } });
    fireEvent.click(within(sudo).getByRole('button', { name: SudoTexts.confirm }));
    expect(await screen.findByText(AccountDeletionMessages.scheduled('14 December 2026, 10:00 UTC'))).toBeTruthy();
    expect(sent('POST', '/api/me/account-deletion').map((c) => c.body)).toEqual([{ confirmation: 'delete' }, { confirmation: 'delete' }]);
    expect(await screen.findByText(/Your account is scheduled for deletion on/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Keep my account' }));
    expect(await screen.findByText(AccountDeletionMessages.kept)).toBeTruthy();
    expect(sent('DELETE', '/api/me/account-deletion')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Delete my account' })).toBeTruthy();
  });
});

describe('Keep my account (/keep-account)', () => {
  it('keeps the account only when the button is pressed, the token read from the fragment and stripped from the address', async () => {
    renderApp('/keep-account#token=abc.def', null);
    await screen.findByRole('heading', { level: 1, name: 'Keep my account' });
    await waitFor(() => expect(window.location.hash).toBe(''));
    expect(sent('POST', '/api/auth/keep-account')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Keep My Account' }));
    expect(await screen.findByText(AccountDeletionMessages.kept)).toBeTruthy();
    expect(sent('POST', '/api/auth/keep-account')[0]!.body).toEqual({ token: 'abc.def' });
  });

  it('shows the refusal of a used, expired or altered link', async () => {
    renderApp('/keep-account#token=used.link', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Keep My Account' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.ACCOUNT_DELETION_LINK_INVALID.message);
  });
});
