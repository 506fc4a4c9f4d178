import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CommunityMessages, type CommunityPost, type MusicTrack, type UserProfile } from '@lv/contracts';
import { jsonResponse, quietConsole, renderApp, resetApp, sam } from '../../test/app-harness.js';

// /community (and /parent-circle, /parent-community) in the whole app, with the gateway's
// /api/community replaced by an in-memory stand-in behind fetch.

interface Call { method: string; path: string; body?: any }

const pro: UserProfile = { ...sam, subscription_tier: 'pro' };
const track: MusicTrack = { id: '7a1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11', title: 'Rise Up', category: 'motivation', fileName: 'motivation-rise-up.mp3' };

function fakeGateway(options: { tracks?: MusicTrack[]; posts?: CommunityPost[]; musicStatus?: number } = {}) {
  const posts = [...(options.posts ?? [])];
  const calls: Call[] = [];
  const handler = async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = new URL(input, 'http://vault.test').pathname;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    if (path === '/api/vault/stats') return jsonResponse(200, { videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
    if (path === '/api/vault/reflection') return jsonResponse(200, { text: '', updated_at: null });
    if (path === '/api/community/music') {
      return options.musicStatus ? jsonResponse(options.musicStatus, { code: 'SERVICE_UNAVAILABLE', message: 'storage is down' }) : jsonResponse(200, options.tracks ?? []);
    }
    if (/^\/api\/community\/music\/[^/]+\/playback$/.test(path)) return jsonResponse(200, { url: `/api/media/play/music/${track.id}?u=u1&exp=1&sig=s`, expiresAt: Date.now() + 3_600_000 });
    if (path === '/api/community/posts' && method === 'GET') return jsonResponse(200, posts);
    if (path === '/api/community/posts' && method === 'POST') {
      const post: CommunityPost = { id: body.id, author: body.show_name ? 'Sam Carter' : 'A parent', content: body.content.trim(), created_at: new Date().toISOString(), likes: 0, liked_by_me: false, mine: true };
      posts.unshift(post);
      return jsonResponse(201, post);
    }
    const like = /^\/api\/community\/posts\/([^/]+)\/like$/.exec(path);
    if (like && method === 'PUT') {
      const post = posts.find((p) => p.id === like[1])!;
      if (post.liked_by_me !== body.liked) Object.assign(post, { liked_by_me: body.liked, likes: post.likes + (body.liked ? 1 : -1) });
      return jsonResponse(200, post);
    }
    if (path === '/api/community/stories') return jsonResponse(201, { id: body.id, submitted_at: new Date().toISOString() });
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return { calls, posts, fetch: jest.fn(handler) };
}

let gateway: ReturnType<typeof fakeGateway>;
const use = (g: ReturnType<typeof fakeGateway>) => {
  gateway = g;
  (globalThis as { fetch: unknown }).fetch = g.fetch;
};
const musicCalls = () => gateway.calls.filter((c) => c.path === '/api/community/music');

beforeEach(() => {
  quietConsole();
  use(fakeGateway());
});
afterEach(resetApp);

describe('Parent Circle community', () => {
  it.each(['/community', '/parent-circle', '/parent-community'])('%s shows a member without Pro or Legacy the spec’s upgrade text and the way to the plans, and asks the server for nothing', async (path) => {
    renderApp(path, { ...sam, subscription_tier: 'essentials' });
    await screen.findByRole('heading', { level: 1, name: 'Parent Circle Community' });
    expect(screen.getByText(CommunityMessages.upgrade)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Submit Your Story' })).toBeNull();
    expect(gateway.calls.some((c) => c.path.startsWith('/api/community'))).toBe(false);
  });

  it('loads the playlist once, when it is first expanded, and says plainly when the library is empty', async () => {
    renderApp('/community', pro);
    const disclosure = await screen.findByRole('button', { name: 'Legacy Music Playlist' });
    expect(disclosure.getAttribute('aria-expanded')).toBe('false');
    expect(musicCalls()).toHaveLength(0);
    fireEvent.click(disclosure);
    expect(disclosure.getAttribute('aria-expanded')).toBe('true');
    expect((await screen.findByTestId('music-empty')).textContent).toContain('chosen and added by the people who run this Legacy Vault');
    expect(await screen.findAllByText(CommunityMessages.noAudioFiles)).not.toHaveLength(0);
    // The project ships no tracks: whose library it is is said before it is opened too.
    expect(screen.getByText(/chosen by the people who run this Legacy Vault\.$/)).toBeTruthy();
    fireEvent.click(disclosure);
    fireEvent.click(disclosure);
    expect(musicCalls()).toHaveLength(1);
  });

  it('lists tracks with their category and plays one through its signed link', async () => {
    use(fakeGateway({ tracks: [track] }));
    renderApp('/community', { ...sam, subscription_tier: 'legacy' });
    fireEvent.click(await screen.findByRole('button', { name: 'Legacy Music Playlist' }));
    const tracks = await screen.findByRole('list', { name: 'Tracks' });
    expect(within(tracks).getByText('Rise Up')).toBeTruthy();
    expect(within(tracks).getByText('Motivation')).toBeTruthy();
    const play = screen.getByRole('button', { name: 'Play Rise Up' });
    fireEvent.click(play);
    const player = await screen.findByLabelText('Rise Up (Motivation)');
    expect(player.getAttribute('src')).toBe(`/api/media/play/music/${track.id}?u=u1&exp=1&sig=s`);
    expect(play.getAttribute('aria-pressed')).toBe('true');
  });

  it('says the files could not be loaded, with the server’s words', async () => {
    use(fakeGateway({ musicStatus: 503 }));
    renderApp('/community', pro);
    fireEvent.click(await screen.findByRole('button', { name: 'Legacy Music Playlist' }));
    expect(await screen.findByText(CommunityMessages.couldNotLoadFiles('storage is down'))).toBeTruthy();
  });

  it('posts to the discussion (empty post refused first), then likes it once with a pressed like button', async () => {
    renderApp('/community', pro);
    const form = await screen.findByRole('form', { name: 'New post' });
    fireEvent.click(within(form).getByRole('button', { name: 'Post' }));
    expect(within(form).getByRole('alert').textContent).toBe(CommunityMessages.postRequired);
    expect(gateway.calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByLabelText('Share with the circle'), { target: { value: '  Forty days without a call.  ' } });
    // A post being written is unsaved work for the shell, until it is posted.
    expect(await screen.findByText('Unsaved changes')).toBeTruthy();
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Sign with my name (Sam Carter)' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Post' }));
    const post = await screen.findByRole('article', { name: 'Post by Sam Carter' });
    // ...and not a moment after (not at the shell's next 5 s round).
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).toBeNull(), { timeout: 1500 });
    expect(within(post).getByText('Forty days without a call.')).toBeTruthy();
    expect(gateway.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ content: '  Forty days without a call.  ', show_name: true });

    const like = within(post).getByRole('button', { name: 'Like post by Sam Carter' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    await waitFor(() => expect(within(post).getByRole('button', { name: 'Like post by Sam Carter' }).getAttribute('aria-pressed')).toBe('true'));
    expect(within(post).getByTestId('like-count').textContent).toBe('1');
    expect(within(post).getByRole('button', { name: 'Delete your post' })).toBeTruthy();
  });

  it("refuses an empty story with 'Please enter your story', then submits one from its dialog", async () => {
    renderApp('/parent-circle', pro);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit Your Story' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit Your Story' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Story' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter your story');
    fireEvent.change(within(dialog).getByLabelText('Your story'), { target: { value: 'It got better.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Story' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(CommunityMessages.storySubmitted)).toBeTruthy();
    expect(gateway.calls.find((c) => c.path === '/api/community/stories')!.body).toMatchObject({ story: 'It got better.', show_name: false });
  });
});

describe("the vault home's Listen Now", () => {
  it('plays today’s track from the music library', async () => {
    use(fakeGateway({ tracks: [track] }));
    renderApp('/vault', pro);
    fireEvent.click(await screen.findByRole('button', { name: 'Listen Now' }));
    expect(await screen.findByLabelText('Rise Up (Motivation)')).toBeTruthy();
  });

  it('says plainly when the library is empty', async () => {
    renderApp('/vault', pro);
    fireEvent.click(await screen.findByRole('button', { name: 'Listen Now' }));
    expect(await screen.findByText(CommunityMessages.noAudioFiles)).toBeTruthy();
  });

  it('shows the upgrade text to a plan without the community, without asking the server', async () => {
    renderApp('/vault', sam);
    const button = await screen.findByRole('button', { name: 'Listen Now' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(CommunityMessages.upgrade)).toBeTruthy();
    expect(musicCalls()).toHaveLength(0);
  });
});
