import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SettingsMessages } from '@lv/contracts';
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
});
