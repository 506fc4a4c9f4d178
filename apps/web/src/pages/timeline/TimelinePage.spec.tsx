import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MediaMessages, type SessionView, type TimelineEntry, type UserProfile } from '@lv/contracts';
import { AppProviders } from '../../app/providers.js';
import { createQueryClient } from '../../queries/query-client.js';
import { memoryApp } from '../../test/memory-router.js';
import { SessionManager, type AuthTransport } from '../../api/session.js';
import { resetApp, quietConsole } from '../../test/app-harness.js';

// The timeline's and the recorder's screens in jsdom (spec, sections 2, 4, 5, 8): texts for loading,
// empty, failure and the gate, and the recorder's title rules. The browser specs record for real.

const profile = (tier: UserProfile['subscription_tier'], admin = false): UserProfile => ({
  id: 'u1', email: 'sam@example.com', full_name: 'Sam Carter', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: tier, ai_admin: admin, emailVerified: true,
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
const LETTER = '1c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f';
const DOCUMENT = '3c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f';
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
  quietConsole();
});

afterEach(resetApp);

describe('timeline', () => {
  it('says it is loading, then lists entries newest first: Play, View Media and Delete for recordings, View and Delete for letters', async () => {
    let release: (a: Answer) => void = () => undefined;
    answers = (url) => (url.includes('/api/timeline') ? new Promise((resolve) => { release = resolve as never; }) as never : { status: 200, body: {} });
    renderAt('/timeline', profile('pro'));
    expect(await screen.findByText('Loading timeline...')).toBeTruthy();
    release({ status: 200, body: { entries: [entry({ id: LETTER, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, integrity: null, word_count: 12 }), entry({})], nextCursor: null } });
    const items = await screen.findAllByTestId('timeline-entry');
    expect(items.map((i) => within(i).getByRole('heading').textContent)).toEqual(['Dear Sam', 'For Sam']);
    expect(within(items[0]!).getByRole('button', { name: 'View Dear Sam' })).toBeTruthy();
    expect(within(items[0]!).queryByRole('link')).toBeNull();
    expect(within(items[0]!).getByRole('button', { name: 'Delete Dear Sam' })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: 'Delete For Sam' })).toBeTruthy();
    expect(within(items[1]!).getByText('Verified: stored exactly as you saved it')).toBeTruthy();
  });

  const court = { source: 'court-journal', entry_type: 'media', file_path: null, blob_hash: null, integrity: null } as const;
  const courtDocument = (id: string, title: string, file_kind: 'pdf' | 'docx') => ({
    id, title, description: null, category: 'Legal Notices or Orders', variant: 'documents', file_name: `${title}.${file_kind}`, file_kind, file_type: 'application/pdf',
    file_path: `u1/${id}`, size: 10, sha256: 'b'.repeat(64), previewable: file_kind === 'pdf', is_key_evidence: false, upload_date: '2026-11-30T10:00:00.000Z', created_at: '2026-11-30T10:00:00.000Z',
  });

  it('opens the item itself from View: the letter’s words, the court document’s preview, over the timeline', async () => {
    answers = (url) => {
      if (url.includes('/api/timeline')) {
        return { status: 200, body: { entries: [
          entry({ id: LETTER, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, integrity: null, word_count: 5 }),
          entry({ ...court, id: DOCUMENT, type: 'document', title: 'Custody order', timestamp: '2026-11-30T10:00:00.000Z' }),
        ], nextCursor: null } };
      }
      if (url.endsWith(`/api/letters/${LETTER}`)) return { status: 200, body: { id: LETTER, title: 'Dear Sam', content: 'I think of you every day.', word_count: 6, created_at: '2026-12-01T10:00:00.000Z', updated_at: '2026-12-01T10:00:00.000Z', version: 1 } };
      if (url.endsWith('/api/court/documents')) return { status: 200, body: [courtDocument(DOCUMENT, 'Custody order', 'pdf')] };
      if (url.endsWith(`/api/court/documents/${DOCUMENT}/link`)) return { status: 200, body: { url: `/api/court/files/${DOCUMENT}?d=inline&sig=s`, expiresAt: Date.now() + 60_000 } };
      return { status: 200, body: {} };
    };
    renderAt('/timeline', profile('pro'));
    fireEvent.click(await screen.findByRole('button', { name: 'View Dear Sam' }));
    const letter = await screen.findByRole('dialog', { name: 'Dear Sam' });
    expect((await within(letter).findByRole('article', { name: 'Letter' })).textContent).toBe('I think of you every day.');
    fireEvent.click(within(letter).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'View Custody order' }));
    const preview = await screen.findByRole('dialog', { name: 'Custody order' });
    const frame = await within(preview).findByTitle('Preview of Custody order');
    expect(frame.getAttribute('src')).toContain(`/api/court/files/${DOCUMENT}?d=inline`);
    // Still the timeline underneath: nothing navigated away.
    expect(document.querySelectorAll('[data-testid="timeline-entry"]')).toHaveLength(2);
  });

  it.each([
    ['letter', { id: LETTER, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, integrity: null }, 'will be deleted from your letters and your timeline'],
    ['court document', { ...court, id: DOCUMENT, type: 'journal', title: 'Gate photo' }, 'Your evidence record keeps a note that it existed'],
  ] as const)('deletes a %s after a confirmation that says what goes, and the entry leaves the timeline', async (_kind, over, words) => {
    let deleted = false;
    answers = (url) => {
      if (url.includes('/api/timeline/') && fetchMock.mock.calls.at(-1)?.[1]?.method === 'DELETE') {
        deleted = true;
        return { status: 204, body: null };
      }
      if (url.includes('/api/timeline')) return { status: 200, body: { entries: deleted ? [] : [entry(over)], nextCursor: null } };
      return { status: 200, body: {} };
    };
    renderAt('/timeline', profile('pro'));
    fireEvent.click(await screen.findByRole('button', { name: `Delete ${over.title}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm.textContent).toContain(words);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Your timeline is empty');
    const del = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')!;
    expect(String(del[0])).toContain(`/api/timeline/${over.id}`);
  });

  it('keeps an entry its service refuses to delete (not the caller’s) and says "Delete failed"', async () => {
    answers = (url) => {
      if (url.includes('/api/timeline/')) return { status: 404, body: { code: 'NOT_FOUND', message: 'Letter not found' } };
      if (url.includes('/api/timeline')) return { status: 200, body: { entries: [entry({ id: LETTER, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, integrity: null })], nextCursor: null } };
      return { status: 200, body: {} };
    };
    renderAt('/timeline', profile('pro'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Dear Sam' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Are you sure?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(document.body.textContent).toContain('Failed to delete the entry. Please try again.'));
    expect(screen.getAllByTestId('timeline-entry')).toHaveLength(1);
  });

  it('shows a video’s poster, named by its title, and a recording’s length once its playback copy is made; the icon while pending or when the poster fails', async () => {
    const READY = 'aa7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    const PENDING = 'bb7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    const SOUND = 'cc7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    const BROKEN = 'dd7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
    answers = (url) => {
      if (url.includes('/api/timeline')) {
        return { status: 200, body: { entries: [
          entry({ id: READY, title: 'Beach day', poster: true, duration_seconds: 65.2 }),
          entry({ id: PENDING, title: 'Still converting' }),
          entry({ id: SOUND, type: 'audio', title: 'Lullaby', poster: false, duration_seconds: 3725 }),
          entry({ id: BROKEN, title: 'Lost poster', poster: true, duration_seconds: 7 }),
        ], nextCursor: null } };
      }
      const playback = /\/api\/media\/recordings\/([0-9a-f-]+)\/playback/.exec(url);
      if (playback) return { status: 200, body: { url: `/api/media/play/${playback[1]}?u=u1&exp=1&sig=s`, expiresAt: Date.now() + 3600_000 } };
      return { status: 200, body: {} };
    };
    renderAt('/timeline', profile('pro'));
    const items = await screen.findAllByTestId('timeline-entry');
    const [ready, pending, sound, broken] = items;
    const poster = await within(ready!).findByRole('img', { name: 'Beach day' });
    expect(poster.getAttribute('src')).toBe(`/api/media/play/${READY}?u=u1&exp=1&sig=s&poster=1`);
    expect(within(ready!).getByText('1:05').getAttribute('datetime')).toBe('PT65S');
    // Pending: no poster, no length, and no link asked for it.
    expect(within(pending!).queryByRole('img')).toBeNull();
    expect(pending!.querySelector('time[datetime^="PT"]')).toBeNull();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes(`/recordings/${PENDING}/playback`))).toBe(false);
    // Audio: its length, no poster.
    expect(within(sound!).getByText('1:02:05')).toBeTruthy();
    expect(within(sound!).queryByRole('img')).toBeNull();
    // A poster that fails to load leaves the icon, not a broken picture.
    fireEvent.error(await within(broken!).findByRole('img', { name: 'Lost poster' }));
    expect(within(broken!).queryByRole('img')).toBeNull();
    expect(within(broken!).getByText('0:07')).toBeTruthy();
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
    answers = () => ({ status: 403, body: { code: 'UPGRADE_REQUIRED', message: MediaMessages.timelinePlanRequired } });
    renderAt('/timeline', profile('pro'));
    expect(await screen.findByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeTruthy();
  });
});

describe('recorder', () => {
  it('labels the title "Title *", caps it at 100 characters, and refuses to save without a recording: "Missing Info" / "Add a title."', async () => {
    answers = () => ({ status: 200, body: [] });
    renderAt('/record', profile('pro'));
    const title = (await screen.findByLabelText('Title *')) as HTMLInputElement;
    expect(title.maxLength).toBe(100);
    fireEvent.change(title, { target: { value: 'A title' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Missing Info')).toBeTruthy();
    expect(screen.getByText('Add a title.')).toBeTruthy();
    expect(await screen.findByText('No recordings found.')).toBeTruthy();
  });

  it('tells a user without Pro or Legacy, before he records, that video and audio saving are not in his plan', async () => {
    answers = () => ({ status: 200, body: [] });
    for (const tier of ['none', 'essentials'] as const) {
      renderAt('/record?type=audio', profile(tier));
      expect(await screen.findByRole('heading', { name: 'Audio messages are a paid feature' })).toBeTruthy();
      expect(screen.getByText(MediaMessages.audioPlanRequired)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Start Recording' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Video' }));
      expect(await screen.findByRole('heading', { name: 'Video messages are a paid feature' })).toBeTruthy();
      expect(screen.getByText(MediaMessages.videoPlanRequired)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Start Recording' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/pricing');
      cleanup();
    }
    for (const [tier, admin] of [['pro', false], ['legacy', false], ['none', true]] as const) {
      renderAt('/record?type=audio', profile(tier, admin));
      expect(await screen.findByRole('button', { name: 'Start Recording' })).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Video' }));
      expect(await screen.findByRole('button', { name: 'Start Recording' })).toBeTruthy();
      expect(screen.queryByTestId('upgrade-prompt')).toBeNull();
      cleanup();
    }
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

