import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SettingsMessages, TwoStepMessages } from '@lv/contracts';
import { jsonResponse as json, renderApp, withFakeGateway, recordingFetch } from '../../test/app-harness.js';

// The "Two-step sign-in" card of /settings in the whole app, the gateway an in-memory stand-in behind fetch.

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
const NEW_CODES = Array.from({ length: 10 }, (_, i) => `newc${i}-fghjk`);

function fakeGateway() {
  let enabled = false;
  const { calls, fetch } = recordingFetch(async ({ path, body }) => {
    const wrongCode = json(400, { code: 'VALIDATION_FAILED', message: TwoStepMessages.codeWrong, fields: { code: TwoStepMessages.codeWrong } });
    if (path === '/api/me/two-step') return json(200, { enabled, recoveryCodesLeft: enabled ? 10 : 0 });
    if (path === '/api/me/two-step/setup') return json(200, { secret: SECRET, otpauthUri: `otpauth://totp/Legacy%20Vault:sam%40example.com?secret=${SECRET}&issuer=Legacy+Vault` });
    if (path === '/api/me/two-step/confirm') {
      if (body!.code !== '123456') return wrongCode;
      enabled = true;
      return json(200, { recoveryCodes: CODES });
    }
    if (path === '/api/me/two-step/recovery-codes') return body!.code === '654321' ? json(200, { recoveryCodes: NEW_CODES }) : wrongCode;
    if (path === '/api/me/two-step/disable') {
      if (body!.currentPassword !== 'secret-one') return json(400, { code: 'VALIDATION_FAILED', message: SettingsMessages.currentPasswordWrong, fields: { currentPassword: SettingsMessages.currentPasswordWrong } });
      if (body!.code !== '111111') return wrongCode;
      enabled = false;
      return json(200, { enabled: false, recoveryCodesLeft: 0 });
    }
    if (path === '/api/me/sessions') return json(200, { sessions: [] });
    if (path === '/api/me/notifications') return json(200, { emailNotifications: true, accessRequests: true, systemUpdates: true, marketingEmails: false, updated_at: null });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, fetch };
}

const gateway = withFakeGateway(fakeGateway);
const sent = (path: string) => gateway().calls.filter((c) => c.method === 'POST' && c.path === path);

describe('Two-step sign-in (/settings)', () => {
  it('sets up with the QR code or the key typed by hand, confirms with a code, and shows the recovery codes once', async () => {
    renderApp('/settings');
    await screen.findByRole('heading', { name: 'Two-step sign-in' });
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-step sign-in' }));
    const form = await screen.findByRole('form', { name: 'Set up two-step sign-in' });
    expect(await within(form).findByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeTruthy();
    expect(within(form).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText(TwoStepMessages.codeRequired)).toBeTruthy();
    expect(sent('/api/me/two-step/confirm')).toHaveLength(0);

    const code = within(form).getByLabelText('Authentication code');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText(TwoStepMessages.codeWrong)).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(screen.getByText(TwoStepMessages.recoveryCodesWarning)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeTruthy();
    expect(await screen.findByText(/Two-step sign-in is on\. 10 recovery codes left\./)).toBeTruthy();

    // Shown once: dismissed, they are gone from the page.
    fireEvent.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(sent('/api/me/two-step/confirm').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('makes new recovery codes with a code, and turns off with the password and a code', async () => {
    renderApp('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-step sign-in' }));
    const form = await screen.findByRole('form', { name: 'Set up two-step sign-in' });
    fireEvent.change(within(form).getByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Confirm' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I have saved my codes' }));

    fireEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    const regenerate = screen.getByRole('form', { name: 'New recovery codes' });
    fireEvent.change(within(regenerate).getByLabelText('Authentication code'), { target: { value: '654321' } });
    fireEvent.click(within(regenerate).getByRole('button', { name: 'Make new codes' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(NEW_CODES);

    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step sign-in' }));
    const off = screen.getByRole('form', { name: 'Turn off two-step sign-in' });
    fireEvent.change(within(off).getByLabelText('Your password'), { target: { value: 'wrong-one' } });
    fireEvent.change(within(off).getByLabelText('Authentication code'), { target: { value: '111111' } });
    fireEvent.click(within(off).getByRole('button', { name: 'Turn off' }));
    expect(await within(off).findByText(SettingsMessages.currentPasswordWrong)).toBeTruthy();
    fireEvent.change(within(off).getByLabelText('Your password'), { target: { value: 'secret-one' } });
    fireEvent.click(within(off).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Set up two-step sign-in' })).toBeTruthy());
    expect(sent('/api/me/two-step/disable').at(-1)!.body).toEqual({ currentPassword: 'secret-one', code: '111111' });
  });
});
