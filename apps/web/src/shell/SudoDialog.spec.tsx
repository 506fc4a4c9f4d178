import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PasskeyMessages, SettingsMessages } from '@lv/contracts';
import { jsonResponse } from '../test/app-harness.js';
import { SudoDialog, SudoTexts } from './SudoDialog.js';

// Sudo mode's dialog: the password again. A wrong one is said on the field and nothing is let
// through; the right one lets the refused action be retried; Cancel leaves it refused.

const sent: { url: string; body: unknown }[] = [];
function gateway(...answers: Response[]) {
  (globalThis as { fetch: unknown }).fetch = async (url: string, init?: RequestInit) => {
    sent.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return answers.shift() ?? jsonResponse(500, { code: 'INTERNAL', message: 'no answer left' });
  };
}

afterEach(() => {
  cleanup();
  sent.length = 0;
});

describe('SudoDialog', () => {
  it('says a wrong password on the field, then lets the action through with the right one', async () => {
    gateway(
      jsonResponse(400, { code: 'VALIDATION_FAILED', message: SettingsMessages.currentPasswordWrong, fields: { currentPassword: SettingsMessages.currentPasswordWrong } }),
      jsonResponse(200, { accessToken: 'proved', accessTokenExpiresAt: Date.now() + 60_000, profile: { id: 'u-1' } }),
    );
    const onDone = jest.fn();
    render(<SudoDialog onDone={onDone} />);
    const dialog = await screen.findByRole('dialog', { name: SudoTexts.title });
    expect(dialog.textContent).toContain(SudoTexts.description);
    const field = screen.getByLabelText(SudoTexts.password);
    expect(field.getAttribute('type')).toBe('password');

    fireEvent.change(field, { target: { value: 'not-it' } });
    fireEvent.click(screen.getByRole('button', { name: SudoTexts.confirm }));
    expect((await screen.findByRole('alert')).textContent).toBe(SettingsMessages.currentPasswordWrong);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(onDone).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'the right one' } });
    fireEvent.click(screen.getByRole('button', { name: SudoTexts.confirm }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
    expect(sent.map((s) => [s.url, s.body])).toEqual([
      ['/api/me/confirm-identity', { currentPassword: 'not-it' }],
      ['/api/me/confirm-identity', { currentPassword: 'the right one' }],
    ]);
  });

  it('leaves the action refused on Cancel, sending nothing', async () => {
    gateway();
    const onDone = jest.fn();
    render(<SudoDialog onDone={onDone} />);
    fireEvent.click(await screen.findByRole('button', { name: SudoTexts.cancel }));
    expect(onDone).toHaveBeenCalledWith(false);
    expect(sent).toEqual([]);
  });

  describe('with a passkey instead of the password', () => {
    const bytes = (text: string) => new TextEncoder().encode(text).buffer;
    const browser = globalThis as { PublicKeyCredential?: unknown };
    const credentials = (get: () => Promise<unknown>) => Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    const ceremony = () => jsonResponse(200, { challengeId: 'ceremony-1', options: { challenge: 'c2lnbi10aGlz', rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: 60_000 } });

    afterEach(() => {
      delete browser.PublicKeyCredential;
    });

    it('offers no passkey where the browser has no WebAuthn', async () => {
      gateway();
      render(<SudoDialog onDone={jest.fn()} />);
      await screen.findByRole('dialog', { name: SudoTexts.title });
      expect(screen.queryByRole('button', { name: SudoTexts.passkey })).toBeNull();
    });

    it("asks the browser for the account's passkey and sends its answer; the action is let through", async () => {
      browser.PublicKeyCredential = function PublicKeyCredential() {};
      credentials(async () => ({
        id: 'cred-1', rawId: bytes('cred-1'), type: 'public-key', authenticatorAttachment: 'platform',
        response: { clientDataJSON: bytes('{"type":"webauthn.get"}'), authenticatorData: bytes('auth-data'), signature: bytes('signature'), userHandle: bytes('u-1') },
        getClientExtensionResults: () => ({}),
      }));
      gateway(ceremony(), jsonResponse(200, { accessToken: 'proved', accessTokenExpiresAt: Date.now() + 60_000, profile: { id: 'u-1' } }));
      const onDone = jest.fn();
      render(<SudoDialog onDone={onDone} />);
      fireEvent.click(await screen.findByRole('button', { name: SudoTexts.passkey }));
      await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
      expect(sent.map((s) => s.url)).toEqual(['/api/me/confirm-identity/passkey/options', '/api/me/confirm-identity/passkey']);
      expect(sent[1]!.body).toMatchObject({ challengeId: 'ceremony-1', credential: { id: 'cred-1', rawId: 'Y3JlZC0x', type: 'public-key', response: { signature: 'c2lnbmF0dXJl' } } });
    });

    it('says a cancelled passkey prompt in words and lets nothing through', async () => {
      browser.PublicKeyCredential = function PublicKeyCredential() {};
      credentials(() => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')));
      gateway(ceremony());
      const onDone = jest.fn();
      render(<SudoDialog onDone={onDone} />);
      fireEvent.click(await screen.findByRole('button', { name: SudoTexts.passkey }));
      expect((await screen.findByRole('alert')).textContent).toBe(PasskeyMessages.cancelled);
      expect(onDone).not.toHaveBeenCalled();
      expect(sent.map((s) => s.url)).toEqual(['/api/me/confirm-identity/passkey/options']);
    });
  });
});
