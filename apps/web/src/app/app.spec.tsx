import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { SettingsMessages, type SessionView, type UserProfile } from '@lv/contracts';
import { ApiError } from '../api/client.js';
import { SessionManager, type AuthTransport } from '../api/session.js';
import { useSetRecordingActive } from '../shell/UnsavedChangesProvider.js';
import { AppProviders } from './providers.js';
import { createQueryClient } from '../queries/query-client.js';
import { memoryApp } from '../test/memory-router.js';
import { sam } from '../test/profiles.js';
import { routes } from './routes.js';
import { resetApp, quietConsole } from '../test/app-harness.js';


const view = (profile: UserProfile): SessionView => ({ accessToken: 'token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile });

/** `gate`: the session's round trip answers only once it resolves (to look at the screen meanwhile). */
function makeTransport(signedInAs: UserProfile | null, gate?: Promise<void>) {
  return {
    signIn: jest.fn<AuthTransport['signIn']>(async () => view(sam)),
    signUp: jest.fn<AuthTransport['signUp']>(async () => view(sam)),
    refresh: jest.fn<AuthTransport['refresh']>(async () => {
      await gate;
      if (signedInAs) return view(signedInAs);
      throw new ApiError(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    }),
    signOut: jest.fn<AuthTransport['signOut']>(async () => undefined),
  };
}

function FakeRecorder() {
  const setRecordingActive = useSetRecordingActive();
  return (
    <button type="button" onClick={() => setRecordingActive(true)}>
      Start recording
    </button>
  );
}

function Boom(): never {
  throw new Error('Kaboom in a page');
}

/** The app's routes plus one page that throws, to exercise the pages' error boundary. */
function testRoutes(): RouteObject[] {
  const root = routes[0]!;
  const pages = root.children![0]!;
  const extra: RouteObject[] = [
    { path: 'boom', element: <Boom /> },
    { path: 'fake-recorder', element: <FakeRecorder /> },
  ];
  const pagesWithBoom: RouteObject = { element: pages.element, children: [...extra, ...(pages.children ?? [])] };
  return [{ path: root.path, element: root.element, children: [pagesWithBoom] }];
}

/** `ownQueryClient`: the app creates its query client itself, as in the browser (none handed in). */
function renderApp(path: string, signedInAs: UserProfile | null = null, gate?: Promise<void>, { ownQueryClient = false } = {}) {
  const transport = makeTransport(signedInAs, gate);
  const session = new SessionManager(transport);
  const { router, element } = memoryApp(path, testRoutes());
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={session} queryClient={ownQueryClient ? undefined : queryClient}>
      {element}
    </AppProviders>,
  );
  return { router, transport, session };
}

const fetchMock = jest.fn<typeof fetch>();

beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => ({
    ok: true,
    status: 200,
    headers: { get: () => 'application/json' },
    text: async () => {
      const path = String(input);
      if (path.endsWith('/api/vault/reflection')) return JSON.stringify({ text: '', updated_at: null });
      if (path.endsWith('/api/letters')) return JSON.stringify({ letters: [], nextCursor: null });
      return JSON.stringify({ videosSaved: 4, lettersWritten: 2, thoughtsSaved: 0, daysActive: 3 });
    },
  }) as unknown as Response);
  (globalThis as { fetch: typeof fetch }).fetch = fetchMock;
  quietConsole();
});

afterEach(resetApp);

describe('session guard', () => {
  it('shows a full-screen spinner while the session loads, on a page the session decides', async () => {
    let answer!: () => void;
    const { transport } = renderApp('/vault', null, new Promise<void>((resolve) => { answer = resolve; }));
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    answer();
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    expect(transport.refresh).toHaveBeenCalledTimes(1);
  });

  it('shows the vault home with the query client the app makes itself (none handed in), as in the browser', async () => {
    renderApp('/vault', sam, undefined, { ownQueryClient: true });
    await screen.findByRole('heading', { level: 1, name: /Welcome Back/ });
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Your vault at a glance' })).getByRole('link', { name: /Letters Written/ }).textContent).toMatch(/2/));
  });

  it('gives the pages one shared query client, made when a page first needs it, and empties it when the user goes', async () => {
    const { session } = renderApp('/letters', sam, undefined, { ownQueryClient: true });
    await screen.findByRole('heading', { level: 1, name: 'Letters Unsent' });
    // TanStack Query loads with the letters page (query-provider.tsx); its client is the app's shared one.
    const client = (await import('../queries/query-client.js')).sharedQueryClient();
    await waitFor(() => expect(client.getQueryCache().getAll().length).toBeGreaterThan(0));
    act(() => session.clear());
    await waitFor(() => expect(client.getQueryCache().getAll()).toHaveLength(0));
  });

  it('paints the vault home\'s placeholder inside the shell while the session loads, inert and without anything of the user\'s (issue 10)', async () => {
    let answer!: () => void;
    renderApp('/vault', sam, new Promise<void>((resolve) => { answer = resolve; }));
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    // The shell and the page's top are painted; a screen reader hears only the status, and nothing in it takes focus.
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeTruthy();
    // Neither Login nor the avatar until the session is known.
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull();
    const placeholder = await waitFor(() => {
      const text = screen.getByText('Your private vault. Everything here is for you and the people you choose.');
      return text.closest('[inert]')!;
    });
    expect(placeholder.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(document.body.textContent).not.toContain('Sam');
    answer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome Back, Sam' })).toBeTruthy();
    expect(document.querySelector('[inert]')).toBeNull();
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
  });

  it('sends a signed-out visitor of the vault home from its placeholder to the sign-in page', async () => {
    let answer!: () => void;
    const { router } = renderApp('/vault', null, new Promise<void>((resolve) => { answer = resolve; }));
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    answer();
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.location.state).toEqual({ from: '/vault' });
  });

  it('paints a public page without waiting for the session (issue 10: first load)', async () => {
    let answer!: () => void;
    const { transport } = renderApp('/', null, new Promise<void>((resolve) => { answer = resolve; }));
    // The page is there before the session's round trip has answered.
    await screen.findByRole('heading', { level: 1, name: /Leave your children/ });
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    answer();
    expect(transport.refresh).toHaveBeenCalledTimes(1);
  });

  it('sends a signed-out visitor of /vault to /auth and back to /vault after sign-in', async () => {
    const { router, transport } = renderApp('/vault');
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.location.state).toEqual({ from: '/vault' });

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    expect(router.state.location.pathname).toBe('/vault');
    expect(transport.signIn).toHaveBeenCalledWith({ email: 'sam@example.com', password: 'secret-one' });
    await screen.findByText('Welcome back!');
    expect(screen.getByText('Successfully logged in to your vault')).toBeTruthy();
    // Stats from GET /api/vault/stats.
    await screen.findByRole('link', { name: /4\s*Videos Saved/ });
    expect(screen.getByRole('link', { name: /2\s*Letters Written/ }).getAttribute('href')).toBe('/letters');
    expect(screen.getByRole('link', { name: /3\s*Days Active/ }).getAttribute('href')).toBe('/timeline');
    expect(screen.getByRole('link', { name: /0\s*Thoughts Saved/ })).toBeTruthy();
  });

  it('sends a sign-in whose password fails today\'s rules to the password fields, saying why', async () => {
    const { router, transport } = renderApp('/auth');
    transport.signIn.mockImplementationOnce(async () => ({ ...view(sam), passwordChangeRequired: true }));
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect((await screen.findByText(SettingsMessages.weakPassword)).getAttribute('role')).toBe('alert');
    expect(router.state.location.pathname).toBe('/settings');
    const form = screen.getByRole('form', { name: 'Account Profile' });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Current Password')));
  });

  it('protects not-yet-built routes, then shows the not-found screen', async () => {
    const { router } = renderApp('/checkout');
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('shows the not-found screen for unknown paths when signed in', async () => {
    renderApp('/no-such-page', sam);
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.getByText('404')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
  });

  it('shows the not-found screen for unknown public sub-paths without a session', async () => {
    renderApp('/how-it-works/no-such-page');
    await screen.findByRole('heading', { name: 'Page not found' });
  });

  it('sends a signed-in user away from the sign-in screen', async () => {
    const { router } = renderApp('/login', sam);
    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    expect(router.state.location.pathname).toBe('/vault');
  });

  it('turns non-admins away from /admin with "Access denied"', async () => {
    const { router } = renderApp('/admin', sam);
    await screen.findByText('Access denied');
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets admins reach /admin', async () => {
    const { router } = renderApp('/admin', { ...sam, ai_admin: true });
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('shows "Unexpected Application Error!" for a rendering error', async () => {
    const { router } = renderApp('/boom', sam);
    await screen.findByRole('heading', { name: 'Unexpected Application Error!' });
    expect(screen.getByText('Kaboom in a page')).toBeTruthy();
    // Inside the shell, and any link leaves it: another address starts afresh.
    fireEvent.click(screen.getByRole('link', { name: 'Legacy Vault' }));
    await screen.findByRole('heading', { level: 1, name: /Leave your children/ });
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).toBeNull();
  });
});

describe('sign-in screen', () => {
  it('validates on submit, inline and in an alert', async () => {
    const { transport } = renderApp('/auth');
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Email is required')).toBeTruthy();
    expect(within(alert).getByText('Password is required')).toBeTruthy();
    expect(screen.getAllByText('Email is required')).toHaveLength(2);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findAllByText('Please enter a valid email');
    expect(screen.getAllByText('Password must be at least 6 characters').length).toBe(2);
    expect(transport.signIn).not.toHaveBeenCalled();
  });

  it('toggles modes, password visibility and the live checklist', async () => {
    renderApp('/auth');
    await screen.findByText('Welcome back to your vault');
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');

    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Create your Legacy Vault account')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login Instead' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Create Account' })).toHaveLength(1);
    const item = (label: string) => screen.getByText(label).closest('li')!.getAttribute('data-met');
    expect(item('At least 8 characters')).toBe('false');
    fireEvent.change(password, { target: { value: 'Abcdef1!' } });
    for (const label of ['At least 8 characters', 'One lowercase letter', 'One uppercase letter', 'One number', 'One special symbol']) {
      expect(item(label)).toBe('true');
    }
  });

  it('shows the server message on failure', async () => {
    const { transport } = renderApp('/auth');
    transport.signIn.mockImplementationOnce(async () => {
      throw new ApiError(429, { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Please wait a few minutes and try again.' });
    });
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findByText('Authentication Error');
    expect(screen.getByText('Too many sign-in attempts. Please wait a few minutes and try again.')).toBeTruthy();
  });

  it('signs up with "Create Account"', async () => {
    const { transport, router } = renderApp('/auth');
    await screen.findByRole('heading', { name: 'Your legacy begins here.' });
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await screen.findByText('Account created!');
    expect(transport.signUp).toHaveBeenCalledWith({ email: 'new@example.com', password: 'secret-one' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/vault'));
  });
});

describe('shell', () => {
  it('shows Login when signed out and disables member entries in the side menu', async () => {
    const { router } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: /Leave your children/ });
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Legacy Vault' });
    expect(within(menu).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    const vault = within(menu).getByRole('link', { name: 'Personal Vault' });
    expect(vault.getAttribute('aria-disabled')).toBe('true');
    expect(vault.getAttribute('href')).toBeNull();
    const entries = within(menu).getAllByRole('link');
    expect(entries.map((e) => (e as HTMLElement).style.animationDelay).slice(0, 3)).toEqual(['0ms', '50ms', '100ms']);

    fireEvent.click(within(menu).getByRole('link', { name: 'How It Works' }));
    await screen.findByRole('heading', { level: 1, name: 'How It Works' });
    expect(router.state.location.pathname).toBe('/how-it-works');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes the side menu with the close button', async () => {
    renderApp('/');
    await screen.findByRole('button', { name: 'Open menu' });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Legacy Vault' });
    fireEvent.click(within(menu).getByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers an upgrade for the timeline to users without the feature', async () => {
    renderApp('/vault', sam);
    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Legacy Vault' });
    expect(within(menu).getByRole('link', { name: /Timeline/ }).getAttribute('href')).toBe('/pricing');
    expect(within(menu).getByRole('link', { name: 'Personal Vault' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the unsaved indicator only when signed in, and warns on sign-out with drafts', async () => {
    localStorage.setItem('unsaved_letter_draft', '{"title":"Dear Ellie"}');
    const { router, transport } = renderApp('/vault', sam);
    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    await screen.findByText('Unsaved changes');

    const trigger = screen.getByRole('button', { name: 'Account menu' });
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Sam Carter')).toBeTruthy();
    expect(within(menu).getByText('sam@example.com')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Edit Profile' })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: 'Admin Dashboard' })).toBeNull();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Warning' });
    expect(within(dialog).getByText('Letter Draft')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save Drafts & Sign Out' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Out Without Saving' }));

    await screen.findByText('Logged out successfully');
    expect(router.state.location.pathname).toBe('/');
    expect(transport.signOut).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('unsaved_letter_draft')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('saves drafts, then signs out after a second', async () => {
    localStorage.setItem('unsaved_draft', 'x');
    const onSave = jest.fn();
    window.addEventListener('saveDrafts', onSave);
    const { router } = renderApp('/vault', { ...sam, ai_admin: true });
    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Admin Dashboard' })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Warning' });
    expect(within(dialog).getByText('Video/Audio Recording')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Drafts & Sign Out' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    await screen.findByText('Drafts Saved');
    expect(screen.getByText('Your work has been saved locally and will be available when you return.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/vault');
    await screen.findByText('Logged out successfully', undefined, { timeout: 3000 });
    expect(router.state.location.pathname).toBe('/');
    window.removeEventListener('saveDrafts', onSave);
  });

  it('signs out at once without unsaved work, and reports a failure', async () => {
    const { transport, router } = renderApp('/vault', sam);
    await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
    transport.signOut.mockImplementationOnce(async () => {
      throw new ApiError(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' });
    });
    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    await screen.findByText('Error logging out');
    expect(router.state.location.pathname).toBe('/vault');

    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    await screen.findByText('Logged out successfully');
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('recording flag', () => {
  it('an active recording counts as unsaved work', async () => {
    renderApp('/fake-recorder', sam);
    fireEvent.click(await screen.findByRole('button', { name: 'Start recording' }));
    await screen.findByText('Unsaved changes');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Warning' });
    expect(within(dialog).getByText('A recording is in progress')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save Drafts & Sign Out' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('vault home', () => {
  /** The gateway as the vault home uses it: the reflection (GET/PUT) and stats that follow it. */
  function fakeVaultApi(initial: { text: string } = { text: '' }, options: { failSave?: boolean } = {}) {
    const state = { text: initial.text, updated_at: initial.text ? '2026-11-22T10:00:00.000Z' : null as string | null };
    const saves: string[] = [];
    const answer = (status: number, body: unknown) =>
      ({ ok: status < 400, status, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) }) as unknown as Response;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.endsWith('/api/vault/reflection') && init?.method === 'PUT') {
        const { text } = JSON.parse(String(init.body)) as { text: string };
        saves.push(text);
        if (options.failSave) return answer(503, { code: 'SERVICE_UNAVAILABLE', message: 'The service is unavailable.' });
        state.text = text.trim();
        state.updated_at = state.text ? '2026-11-23T10:00:00.000Z' : null;
        return answer(200, state);
      }
      if (url.endsWith('/api/vault/reflection')) return answer(200, state);
      return answer(200, { videosSaved: 4, lettersWritten: 2, thoughtsSaved: state.text ? 1 : 0, daysActive: 3 });
    });
    return { state, saves };
  }
  const thoughtsBox = () => screen.getByLabelText('Thoughts & Feelings') as HTMLTextAreaElement;

  it('loads the reflection from the vault, saves it there (never in the browser) and counts it', async () => {
    const api = fakeVaultApi();
    renderApp('/vault', sam);
    await screen.findByRole('link', { name: /0\s*Thoughts Saved/ });
    await waitFor(() => expect(thoughtsBox().disabled).toBe(false));
    fireEvent.change(thoughtsBox(), { target: { value: '  I think of you every day. ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Reflection' }));
    await screen.findByText('Thoughts saved privately');
    expect(api.saves).toEqual(['  I think of you every day. ']);
    expect(localStorage.getItem('vault_thoughts')).toBeNull();
    // The box shows what the vault keeps (trimmed), so nothing is left unsaved.
    expect(thoughtsBox().value).toBe('I think of you every day.');
    expect(thoughtsBox().getAttribute('data-saved-value')).toBe('I think of you every day.');
    await screen.findByRole('link', { name: /1\s*Thoughts Saved/ });
  });

  it('shows the vault’s reflection, never one left in the browser (which is dropped)', async () => {
    fakeVaultApi({ text: 'From my vault.' });
    localStorage.setItem('vault_thoughts', 'Someone else’s words.');
    renderApp('/vault', sam);
    await waitFor(() => expect(thoughtsBox().value).toBe('From my vault.'));
    await waitFor(() => expect(localStorage.getItem('vault_thoughts')).toBeNull());
    expect(screen.queryByDisplayValue('Someone else’s words.')).toBeNull();
  });

  it('moves an old browser-local reflection into an empty vault once, then removes it from the browser', async () => {
    const api = fakeVaultApi();
    localStorage.setItem('vault_thoughts', 'Written before the update.');
    renderApp('/vault', sam);
    await waitFor(() => expect(thoughtsBox().value).toBe('Written before the update.'));
    expect(api.saves).toEqual(['Written before the update.']);
    expect(localStorage.getItem('vault_thoughts')).toBeNull();
    await screen.findByRole('link', { name: /1\s*Thoughts Saved/ });
  });

  it('keeps the typed text and says so when the save fails', async () => {
    fakeVaultApi({ text: '' }, { failSave: true });
    renderApp('/vault', sam);
    await waitFor(() => expect(thoughtsBox().disabled).toBe(false));
    fireEvent.change(thoughtsBox(), { target: { value: 'Do not lose this.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Reflection' }));
    await screen.findByText('Could not save your reflection');
    expect(screen.getByText('Please try again.')).toBeTruthy();
    expect(thoughtsBox().value).toBe('Do not lose this.');
    expect(thoughtsBox().getAttribute('data-saved-value')).toBe('');
  });

  it('falls back when the stats cannot be loaded', async () => {
    fetchMock.mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    localStorage.setItem('vault_thoughts', 'kept');
    renderApp('/vault', sam);
    await screen.findByRole('link', { name: /1\s*Days Active/ });
    expect(screen.getByRole('link', { name: /0\s*Videos Saved/ })).toBeTruthy();
    // Thoughts come from the vault only: a browser-local text is never shown or counted.
    expect(screen.getByRole('link', { name: /0\s*Thoughts Saved/ })).toBeTruthy();
    expect(screen.queryByDisplayValue('kept')).toBeNull();
  });

  it('toggles Listen Now (the music library itself: pages/community/CommunityPage.spec.tsx)', async () => {
    renderApp('/vault', sam);
    const button = await screen.findByRole('button', { name: 'Listen Now' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });
});

describe('landing page', () => {
  it('rotates the quote every 10 seconds and on "New Quote"', async () => {
    jest.useFakeTimers();
    try {
      renderApp('/');
      await act(async () => {
        await jest.advanceTimersByTimeAsync(50);
      });
      const quote = () => screen.getByTestId('daily-quote').textContent;
      const first = quote();
      fireEvent.click(screen.getByRole('button', { name: 'New Quote' }));
      const second = quote();
      expect(second).not.toBe(first);
      await act(async () => {
        await jest.advanceTimersByTimeAsync(10_000);
      });
      expect(quote()).not.toBe(second);
      expect(screen.getAllByRole('img', { name: '5 out of 5 stars' })).toHaveLength(3);
      expect(screen.getByText('£9.99')).toBeTruthy();
    } finally {
      jest.useRealTimers();
    }
  });
});
