import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EmailChangeMessages, ErrorCodes, NewSignInMessages } from '@lv/contracts';
import { jsonResponse as json, renderApp, withFakeGateway, recordingFetch } from '../../test/app-harness.js';

// An e-mail change's two link pages in the whole app, signed out, the gateway a stand-in behind fetch.

function fakeGateway() {
  let linkReply: Response | null = null;
  const { calls, fetch } = recordingFetch(async ({ path }) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (linkReply) return linkReply.clone();
    if (path === '/api/auth/confirm-email') return json(200, { message: EmailChangeMessages.confirmed, sessionsEnded: 1 });
    if (path === '/api/auth/undo-email-change') return json(200, { message: EmailChangeMessages.undone, sessionsEnded: 2 });
    if (path === '/api/auth/not-me') return json(200, { message: NewSignInMessages.disowned, sessionsEnded: 3 });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, fetch, replyToLinks: (reply: Response) => (linkReply = reply) };
}

const gateway = withFakeGateway(fakeGateway);
const sent = (path: string) => gateway().calls.filter((c) => c.method === 'POST' && c.path === path);

describe('e-mail change link pages', () => {
  it('confirms the new address only on the button, with the token read from the fragment and stripped from the address', async () => {
    renderApp('/confirm-email#token=abc.def', null);
    await screen.findByRole('heading', { level: 1, name: 'Confirm your new email' });
    await waitFor(() => expect(window.location.hash).toBe(''));
    expect(sent('/api/auth/confirm-email')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm New Email' }));
    expect(await screen.findByText(EmailChangeMessages.confirmed)).toBeTruthy();
    expect(sent('/api/auth/confirm-email')[0]!.body).toEqual({ token: 'abc.def' });
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeTruthy();
  });

  it('undoes the change from the old address and says a reset link follows', async () => {
    renderApp('/undo-email-change#token=abc.def', null);
    await screen.findByRole('heading', { level: 1, name: 'This wasn’t me' });
    await waitFor(() => expect(window.location.hash).toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Undo the Change' }));
    expect(await screen.findByText(EmailChangeMessages.undone)).toBeTruthy();
    expect(sent('/api/auth/undo-email-change')[0]!.body).toEqual({ token: 'abc.def' });
  });

  it('says a link without a token, or one the server refuses, cannot be used', async () => {
    renderApp('/confirm-email', null);
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.EMAIL_CHANGE_LINK_INVALID.message);
    expect(screen.queryByRole('button', { name: 'Confirm New Email' })).toBeNull();
  });

  it('shows the refusal of a used, expired or altered link', async () => {
    gateway().replyToLinks(json(400, { code: 'EMAIL_CHANGE_LINK_INVALID', message: ErrorCodes.EMAIL_CHANGE_LINK_INVALID.message }));
    renderApp('/undo-email-change#token=abc.def', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Undo the Change' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.EMAIL_CHANGE_LINK_INVALID.message);
  });

  it('signs everyone out from a new sign-in\'s "this wasn\'t me" link, only on the button', async () => {
    renderApp('/not-me#token=abc.def', null);
    await screen.findByRole('heading', { level: 1, name: 'This wasn’t me' });
    await waitFor(() => expect(window.location.hash).toBe(''));
    expect(sent('/api/auth/not-me')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Sign Everyone Out' }));
    expect(await screen.findByText(NewSignInMessages.disowned)).toBeTruthy();
    expect(sent('/api/auth/not-me')[0]!.body).toEqual({ token: 'abc.def' });
  });

  it('says a "this wasn\'t me" link without its token cannot be used, and sends nothing', async () => {
    renderApp('/not-me', null);
    expect(await screen.findByText(ErrorCodes.SIGN_IN_ALERT_LINK_INVALID.message)).toBeTruthy();
    expect(sent('/api/auth/not-me')).toHaveLength(0);
  });
});
