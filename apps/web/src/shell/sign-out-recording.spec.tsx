import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { SessionView, UserProfile } from '@lv/contracts';
import { ApiError } from '../api/client.js';
import { AppProviders } from '../app/providers.js';
import { createQueryClient } from '../queries/query-client.js';
import { memoryApp } from '../test/memory-router.js';
import { SessionManager, type AuthTransport } from '../api/session.js';
import { NodeBlob } from '../pages/record/node-blob.test-support.mjs';
import { DRAFT_KEY, loadDraft, saveDraft } from '../drafts/recording-draft.js';
import { storedRecording } from '../pages/record/stored-recording.test-support.js';
import { resetApp } from '../test/app-harness.js';

// The stored recording (IndexedDB) and sign-out: whoever signs in next on this browser must not
// find the previous person's video, unless that person chose "Save Drafts & Sign Out".

const sam: UserProfile = {
  id: 'u-sam', email: 'sam@example.com', full_name: 'Sam Carter', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: 'pro', ai_admin: false, emailVerified: true,
};
const view = (profile: UserProfile): SessionView => ({ accessToken: 'token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile });

function renderVault() {
  const transport = {
    signIn: jest.fn<AuthTransport['signIn']>(async () => view(sam)),
    signUp: jest.fn<AuthTransport['signUp']>(async () => view(sam)),
    refresh: jest.fn<AuthTransport['refresh']>(async () => view(sam)),
    signOut: jest.fn<AuthTransport['signOut']>(async () => undefined),
  };
  const { element } = memoryApp('/vault');
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={new SessionManager(transport)} queryClient={queryClient}>
      {element}
    </AppProviders>,
  );
  return { transport };
}

async function openLogout() {
  await screen.findByRole('heading', { name: 'Welcome Back, Sam' });
  fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
  fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
}

const jsdomBlob = globalThis.Blob;
beforeAll(() => { globalThis.Blob = NodeBlob; });
afterAll(() => { globalThis.Blob = jsdomBlob; });

beforeEach(async () => {
  localStorage.clear();
  (globalThis as { fetch: typeof fetch }).fetch = (async (input: RequestInfo | URL) => ({
    ok: true, status: 200, headers: { get: () => 'application/json' },
    text: async () => JSON.stringify(String(input).endsWith('/api/vault/reflection') ? { text: '', updated_at: null } : { videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 0 }),
  })) as unknown as typeof fetch;
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  await saveDraft({ type: 'video', title: 'For Ellie', durationSeconds: 3, mimeType: 'video/webm', size: 4, savedAt: '2026-11-24T10:00:00.000Z', owner: sam.id }, new Blob(['webm']));
});

afterEach(resetApp);

describe('sign-out and the stored recording', () => {
  it('"Sign Out Without Saving" removes the stored recording, not only its description', async () => {
    renderVault();
    await openLogout();
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Warning' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Out Without Saving' }));
    await screen.findByText('Logged out successfully');
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull();
    expect(await storedRecording()).toBeUndefined();
  });

  it('a sign-out with no draft left removes a recording stored without its description', async () => {
    localStorage.removeItem(DRAFT_KEY);
    renderVault();
    await openLogout();
    await screen.findByText('Logged out successfully');
    expect(await storedRecording()).toBeUndefined();
  });

  it('"Save Drafts & Sign Out" keeps it for its owner', async () => {
    renderVault();
    await openLogout();
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Warning' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Drafts & Sign Out' }));
    await screen.findByText('Logged out successfully', undefined, { timeout: 3000 });
    expect((await loadDraft(sam.id))?.blob).toBeTruthy();
    await expect(loadDraft('u-next-person')).resolves.toBeNull();
  });

  it('keeps it when the sign-out fails (the user is still signed in)', async () => {
    localStorage.removeItem(DRAFT_KEY);
    const { transport } = renderVault();
    transport.signOut.mockImplementationOnce(async () => {
      throw new ApiError(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' });
    });
    await openLogout();
    await screen.findByText('Error logging out');
    expect(await storedRecording()).toBeDefined();
  });
});
