import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TwoStepMessages, type SessionView, type TwoStepChallenge } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { SessionManager, type AuthTransport } from '../../api/session.js';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../queries/query-client.js';
import { resetApp, sam } from '../../test/app-harness.js';
import { memoryApp } from '../../test/memory-router.js';

// /auth for an account with two-step sign-in on: the right password opens no session but asks for
// the code (or a recovery code); refusals are shown on the page.

const challenge: TwoStepChallenge = { twoStepRequired: true, challenge: 'challenge-1', challengeExpiresAt: Date.now() + 5 * 60_000 };
const view: SessionView = { accessToken: 'token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile: sam };
const refused = () => new ApiError(401, { code: 'TWO_STEP_INVALID', message: TwoStepMessages.signInRefused });

function renderAuth() {
  const transport = {
    // The password step answers the challenge; the second step (a body with the challenge) the session.
    signIn: jest.fn<AuthTransport['signIn']>(async (body) => ('challenge' in body ? view : challenge)),
    signUp: jest.fn<AuthTransport['signUp']>(async () => view),
    refresh: jest.fn<AuthTransport['refresh']>(async () => null),
    signOut: jest.fn<AuthTransport['signOut']>(async () => undefined),
  };
  const session = new SessionManager(transport);
  const { router, element } = memoryApp('/auth');
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={session} queryClient={queryClient}>
      {element}
    </AppProviders>,
  );
  return { router, transport, session };
}

async function passPasswordStep() {
  await screen.findByRole('heading', { name: 'Your legacy begins here.' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-one' } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
  await screen.findByRole('heading', { name: 'Two-step sign-in' });
}

describe('two-step sign-in on /auth', () => {
  afterEach(resetApp);

  it('asks for the authenticator code after the password, shows a refusal, and signs in with the right code', async () => {
    const { router, transport, session } = renderAuth();
    await passPasswordStep();
    // The password alone opened nothing.
    expect(session.getState().status).toBe('anonymous');
    expect(router.state.location.pathname).toBe('/auth');
    const field = screen.getByLabelText('Authentication code');
    await waitFor(() => expect(document.activeElement).toBe(field));

    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert').textContent).toBe(TwoStepMessages.codeRequired);
    expect(transport.signIn).toHaveBeenCalledTimes(1);

    transport.signIn.mockImplementationOnce(async () => {
      throw refused();
    });
    fireEvent.change(field, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(TwoStepMessages.signInRefused);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(session.getState().status).toBe('anonymous');

    fireEvent.change(field, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vault'));
    expect(transport.signIn).toHaveBeenLastCalledWith({ challenge: 'challenge-1', code: '123456' });
    expect(session.getState().status).toBe('authenticated');
  });

  it('takes a recovery code instead, and goes back to the password step', async () => {
    const { router, transport } = renderAuth();
    await passPasswordStep();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByLabelText('Recovery code').getAttribute('inputmode')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert').textContent).toBe(TwoStepMessages.recoveryCodeRequired);
    fireEvent.click(screen.getByRole('button', { name: 'Use your authenticator app instead' }));
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    await screen.findByRole('button', { name: 'Login' });
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(transport.signIn).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/auth');

    await passPasswordStep();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vault'));
    expect(transport.signIn).toHaveBeenLastCalledWith({ challenge: 'challenge-1', code: 'abcde-fghjk' });
  });
});
