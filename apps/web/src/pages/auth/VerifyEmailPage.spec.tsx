import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EmailVerifyMessages, ErrorCodes, type UserProfile } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway, recordingFetch } from '../../test/app-harness.js';

// The verification link's page and the banner of a signed-in owner whose address is not verified, in
// the whole app, the gateway a stand-in behind fetch.

const unverified: UserProfile = { ...sam, emailVerified: false };

function fakeGateway() {
  let verifyReply: Response | null = null;
  let resendReply: Response | null = null;
  const state = { verified: false };
  const { calls, fetch } = recordingFetch(async ({ path }) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (path === '/api/auth/verify-email') {
      if (verifyReply) return verifyReply.clone();
      state.verified = true;
      return json(200, { message: EmailVerifyMessages.verified });
    }
    if (path === '/api/me/verify-email/resend') return resendReply ? resendReply.clone() : json(200, { message: EmailVerifyMessages.sent(unverified.email) });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return {
    calls, state, fetch,
    refuseVerify: (reply: Response) => (verifyReply = reply),
    refuseResend: (reply: Response) => (resendReply = reply),
  };
}

const gateway = withFakeGateway(fakeGateway);
const sent = (path: string) => gateway().calls.filter((c) => c.method === 'POST' && c.path === path);
const refused = () => json(400, { code: 'EMAIL_VERIFY_LINK_INVALID', message: ErrorCodes.EMAIL_VERIFY_LINK_INVALID.message });

describe('/verify-email', () => {
  it('verifies only on the button, with the token read from the fragment and stripped from the address; signed out, it offers to sign in', async () => {
    renderApp('/verify-email#token=abc.def', null);
    await screen.findByRole('heading', { level: 1, name: 'Verify your email' });
    await waitFor(() => expect(window.location.hash).toBe(''));
    expect(sent('/api/auth/verify-email')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Verify My Email' }));
    expect((await screen.findByText(EmailVerifyMessages.verified)).getAttribute('role')).toBe('status');
    expect(sent('/api/auth/verify-email')[0]!.body).toEqual({ token: 'abc.def' });
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeTruthy();
  });

  it('says a link without a token, or one the server refuses, cannot be used; signed out, no resend but a way to sign in', async () => {
    renderApp('/verify-email', null);
    expect((await screen.findByText(ErrorCodes.EMAIL_VERIFY_LINK_INVALID.message)).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('button', { name: 'Verify My Email' })).toBeNull();
    expect(screen.queryByRole('button', { name: EmailVerifyMessages.resend })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in to get a new link' })).toBeTruthy();
    expect(sent('/api/auth/verify-email')).toHaveLength(0);
  });

  it('signed in, a refused link (used, expired, altered) offers a new one, and says it went', async () => {
    gateway().refuseVerify(refused());
    renderApp('/verify-email#token=abc.def', unverified);
    fireEvent.click(await screen.findByRole('button', { name: 'Verify My Email' }));
    expect((await screen.findByText(ErrorCodes.EMAIL_VERIFY_LINK_INVALID.message)).getAttribute('role')).toBe('alert');
    // The page says it all: no banner beside it.
    expect(screen.queryByRole('region', { name: EmailVerifyMessages.bannerTitle })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: EmailVerifyMessages.resend }));
    expect((await screen.findByText(EmailVerifyMessages.sent(unverified.email))).getAttribute('role')).toBe('status');
    expect(sent('/api/me/verify-email/resend')).toHaveLength(1);
  });

  it('signed in, verifying renews the session at once: the banner is gone from the next page', async () => {
    renderApp('/verify-email#token=abc.def', unverified, { profileOnRefresh: () => ({ ...unverified, emailVerified: gateway().state.verified }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify My Email' }));
    expect((await screen.findByText(EmailVerifyMessages.verified)).getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('link', { name: 'Go to My Vault' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Go to My Vault' })).toBeNull());
    expect(screen.queryByRole('region', { name: EmailVerifyMessages.bannerTitle })).toBeNull();
    expect(sent('/api/auth/verify-email')).toHaveLength(1);
  });
});

describe('the banner of an unverified owner', () => {
  it('says why nothing is e-mailed for him, on every page, and resends the link from its named button', async () => {
    renderApp('/privacy', unverified);
    const banner = await screen.findByRole('region', { name: EmailVerifyMessages.bannerTitle });
    expect(banner.textContent).toContain(EmailVerifyMessages.bannerText(unverified.email));
    fireEvent.click(screen.getByRole('button', { name: EmailVerifyMessages.resend }));
    expect((await screen.findByText(EmailVerifyMessages.sent(unverified.email))).getAttribute('role')).toBe('status');
    expect(sent('/api/me/verify-email/resend')).toHaveLength(1);
  });

  it('shows the limit\'s refusal (429) as an alert', async () => {
    gateway().refuseResend(json(429, { code: 'RATE_LIMITED', message: EmailVerifyMessages.tooManyResends, retryAfter: 3000 }));
    renderApp('/privacy', unverified);
    fireEvent.click(await screen.findByRole('button', { name: EmailVerifyMessages.resend }));
    expect((await screen.findByText(EmailVerifyMessages.tooManyResends)).getAttribute('role')).toBe('alert');
  });

  it('is not shown to a verified owner', async () => {
    renderApp('/privacy', sam);
    await screen.findByRole('main');
    expect(screen.queryByRole('region', { name: EmailVerifyMessages.bannerTitle })).toBeNull();
    expect(screen.queryByRole('button', { name: EmailVerifyMessages.resend })).toBeNull();
  });
});
