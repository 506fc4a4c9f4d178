import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AuthMessages, ErrorCodes, ResetMessages } from '@lv/contracts';
import { jsonResponse as json, renderApp, withFakeGateway, recordingFetch } from '../../test/app-harness.js';

// "Forgot password?" and the reset link's page in the whole app, signed out, the gateway a stand-in behind fetch.

function fakeGateway() {
  let resetReply: Response = json(200, { message: ResetMessages.done, sessionsEnded: 2 });
  const { calls, fetch } = recordingFetch(async ({ path }) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (path === '/api/auth/forgot-password') return json(200, { message: ResetMessages.requested });
    if (path === '/api/auth/reset-password') return resetReply.clone();
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, fetch, replyToReset: (reply: Response) => (resetReply = reply) };
}

const gateway = withFakeGateway(fakeGateway);
const sent = (path: string) => gateway().calls.filter((c) => c.method === 'POST' && c.path === path);
const LINK = '/reset-password#email=sam%40example.com&token=abc.def';

describe('account recovery pages', () => {
  it('offers "Forgot password?" on the sign-in screen, carrying the typed address', async () => {
    renderApp('/auth', null);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('sam@example.com');
  });

  it('asks for a valid address, then shows the same words whatever the answer', async () => {
    renderApp('/forgot-password', null);
    const email = await screen.findByLabelText('Email');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(AuthMessages.emailRequired)).toBeTruthy();
    expect(sent('/api/auth/forgot-password')).toHaveLength(0);
    fireEvent.change(email, { target: { value: ' sam@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(ResetMessages.requested)).toBeTruthy();
    expect(sent('/api/auth/forgot-password')[0]!.body).toEqual({ email: 'sam@example.com' });
  });

  it('sets a new password typed twice from the link, then sends the person to sign in', async () => {
    renderApp(LINK, null);
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' });
    // The token leaves the address bar once read.
    await waitFor(() => expect(window.location.hash).toBe(''));
    const password = screen.getByLabelText('New Password');
    const confirm = screen.getByLabelText('Confirm New Password');
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(AuthMessages.newPasswordTooShort)).toBeTruthy();
    fireEvent.change(password, { target: { value: 'lantern-on-the-hill' } });
    fireEvent.change(confirm, { target: { value: 'lantern-on-the-hil' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(ResetMessages.passwordsDoNotMatch)).toBeTruthy();
    expect(sent('/api/auth/reset-password')).toHaveLength(0);
    fireEvent.change(confirm, { target: { value: 'lantern-on-the-hill' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(ResetMessages.done)).toBeTruthy();
    expect(sent('/api/auth/reset-password')[0]!.body).toEqual({ email: 'sam@example.com', token: 'abc.def', newPassword: 'lantern-on-the-hill' });
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
  });

  it('shows the server\'s words for a common password, and one message for a link that cannot be used', async () => {
    gateway().replyToReset(json(400, { code: 'VALIDATION_FAILED', message: AuthMessages.passwordTooCommon, fields: { newPassword: AuthMessages.passwordTooCommon } }));
    renderApp(LINK, null);
    const password = await screen.findByLabelText('New Password');
    fireEvent.change(password, { target: { value: 'password1' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'password1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(AuthMessages.passwordTooCommon)).toBeTruthy();

    gateway().replyToReset(json(400, { code: 'RESET_LINK_INVALID', message: ErrorCodes.RESET_LINK_INVALID.message }));
    fireEvent.change(password, { target: { value: 'lantern-on-the-hill' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'lantern-on-the-hill' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.RESET_LINK_INVALID.message);
    expect(screen.getByRole('link', { name: 'Ask for a New Link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('says at once that a link without its token cannot be used', async () => {
    renderApp('/reset-password', null);
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.RESET_LINK_INVALID.message);
    expect(screen.queryByLabelText('New Password')).toBeNull();
  });
});
