import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { toast } from 'sonner';
import type { SessionView, TimelineEntry, UserProfile } from '@lv/contracts';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../queries/query-client.js';
import { memoryApp } from '../../test/memory-router.js';
import { SessionManager, type AuthTransport } from '../../api/session.js';

// The timeline's and the recorder's screens in jsdom (spec, sections 2, 4, 5, 8): texts for loading,
// empty, failure and the gate, and the recorder's title rules. The browser specs record for real.

const profile = (tier: UserProfile['subscription_tier'], admin = false): UserProfile => ({
  id: 'u1', email: 'sam@example.com', full_name: 'Sam Carter', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: tier, ai_admin: admin,
});

function renderAt(path: string, user: UserProfile) {
  const view: SessionView = { accessToken: 'token', accessTokenExpiresAt: Date.now() + 15 * 60_000, profile: user };
  const transport: AuthTransport = {
    signIn: async () => view,
    signUp: async () => view,
    refresh: async () => view,
    signOut: async () => undefined,
  };
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders session={new SessionManager(transport)} queryClient={queryClient}>
      {memoryApp(path).element}
    </AppProviders>,
  );
}

type Answer = { status: number; body: unknown } | Promise<never>;
let answers: (url: string) => Answer;
const fetchMock = jest.fn<typeof fetch>();

const entry = (over: Partial<TimelineEntry>): TimelineEntry => ({
  id: '0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e', source: 'vault-media', type: 'video', entry_type: 'media', title: 'For Sam', file_path: 'u1/video_1.webm', blob_hash: 'a'.repeat(64),
  size: 1000, integrity: 'verified', word_count: null, metadata: {}, timestamp: '2026-12-01T10:00:00.000Z', created_at: '2026-12-01T10:00:00.000Z', ...over,
});

beforeEach(() => {
  answers = () => ({ status: 200, body: {} });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const answer = answers(String(input));
    const { status, body } = await answer;
    return { ok: status < 400, status, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) } as unknown as Response;
  });
  (globalThis as { fetch: typeof fetch }).fetch = fetchMock;
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  toast.dismiss();
  jest.restoreAllMocks();
});

describe('timeline', () => {
  it('says it is loading, then lists entries newest first with Play, View Media and delete for recordings, View for letters', async () => {
    let release: (a: Answer) => void = () => undefined;
    answers = (url) => (url.includes('/api/timeline') ? new Promise((resolve) => { release = resolve as never; }) as never : { status: 200, body: {} });
    renderAt('/timeline', profile('pro'));
    expect(await screen.findByText('Loading timeline...')).toBeTruthy();
    release({ status: 200, body: { entries: [entry({ id: '1c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f', source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, integrity: null, word_count: 12 }), entry({})], nextCursor: null } });
    const items = await screen.findAllByTestId('timeline-entry');
    expect(items.map((i) => within(i).getByRole('heading').textContent)).toEqual(['Dear Sam', 'For Sam']);
    expect(within(items[0]!).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/letters');
    expect(within(items[0]!).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(items[1]!).getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: 'Delete For Sam' })).toBeTruthy();
    expect(within(items[1]!).getByText('Verified: stored exactly as you saved it')).toBeTruthy();
  });

  it('offers View on a court document, to the screen it was filed from', async () => {
    const court = { source: 'court-journal', entry_type: 'media', file_path: null, blob_hash: null, integrity: null } as const;
    answers = (url) => ({
      status: 200,
      body: url.includes('/api/timeline')
        ? { entries: [entry({ ...court, id: '2c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f', type: 'journal', title: 'Gate photo' }), entry({ ...court, id: '3c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f', type: 'document', title: 'Custody order', timestamp: '2026-11-30T10:00:00.000Z' })], nextCursor: null }
        : {},
    });
    renderAt('/timeline', profile('pro'));
    const items = await screen.findAllByTestId('timeline-entry');
    expect(items.map((i) => within(i).getByRole('link', { name: 'View' }).getAttribute('href'))).toEqual(['/court-journal', '/court-documents']);
    expect(within(items[0]!).queryByRole('button', { name: /Delete|Play/ })).toBeNull();
  });

  it('invites a first recording when empty', async () => {
    answers = () => ({ status: 200, body: { entries: [], nextCursor: null } });
    renderAt('/timeline', profile('essentials'));
    expect(await screen.findByText('Your timeline is empty')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Record a message' }).getAttribute('href')).toBe('/record');
  });

  it('says "Failed to load timeline entries" when the list cannot be read', async () => {
    answers = () => ({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'x' } });
    renderAt('/timeline', profile('legacy'));
    expect(await screen.findByText('Failed to load timeline entries')).toBeTruthy();
  });

  it('shows the upgrade prompt, not the list, to a tier-none user (and admins pass)', async () => {
    renderAt('/enhanced-timeline', profile('none'));
    expect(await screen.findByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/pricing');
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/api/timeline'))).toEqual([]);
    cleanup();
    answers = () => ({ status: 200, body: { entries: [], nextCursor: null } });
    renderAt('/timeline', profile('none', true));
    expect(await screen.findByText('Your timeline is empty')).toBeTruthy();
  });

  it('shows the prompt when the server refuses a stale tier', async () => {
    answers = () => ({ status: 403, body: { code: 'UPGRADE_REQUIRED', message: 'The timeline and audio messages are part of the Essentials, Pro and Legacy plans.' } });
    renderAt('/timeline', profile('pro'));
    expect(await screen.findByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeTruthy();
  });
});

describe('recorder', () => {
  it('labels the title "Title *", caps it at 100 characters, and refuses to save without a recording: "Missing Info" / "Add a title."', async () => {
    answers = () => ({ status: 200, body: [] });
    renderAt('/record', profile('none'));
    const title = (await screen.findByLabelText('Title *')) as HTMLInputElement;
    expect(title.maxLength).toBe(100);
    fireEvent.change(title, { target: { value: 'A title' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Missing Info')).toBeTruthy();
    expect(screen.getByText('Add a title.')).toBeTruthy();
    expect(await screen.findByText('No recordings found.')).toBeTruthy();
  });

  it('keeps audio for paid tiers: a tier-none user choosing Audio sees the upgrade prompt', async () => {
    answers = () => ({ status: 200, body: [] });
    renderAt('/record?type=audio', profile('none'));
    expect(await screen.findByRole('heading', { name: 'Audio messages are a paid feature' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start Recording' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Video' }));
    expect(await screen.findByRole('button', { name: 'Start Recording' })).toBeTruthy();
  });

  it('explains a refused camera: "Permission Error" / "Camera or mic access denied." and what to allow', async () => {
    answers = () => ({ status: 200, body: [] });
    const denied = Object.assign(new Error('denied'), { name: 'NotAllowedError' });
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: async () => { throw denied; } } });
    renderAt('/record', profile('pro'));
    fireEvent.click(await screen.findByRole('button', { name: 'Start Recording' }));
    expect(await screen.findByText('Permission Error')).toBeTruthy();
    expect(screen.getByText('Camera or mic access denied.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Permission Required: Please allow video access to record your message.');
  });

  it('says "Failed to start recording" when the recorder cannot start for another reason', async () => {
    answers = () => ({ status: 200, body: [] });
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: async () => { throw Object.assign(new Error('no camera'), { name: 'NotFoundError' }); } } });
    renderAt('/record', profile('pro'));
    fireEvent.click(await screen.findByRole('button', { name: 'Start Recording' }));
    expect(await screen.findByText('Failed to start recording')).toBeTruthy();
  });
});

