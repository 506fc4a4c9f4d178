// /api/community through the gateway booted in-process (createGatewayApp) against the machine's real
// NATS and Redis and the embedded S3 server; identity, letters and vault-media are stand-ins speaking
// Nest's NATS wire format, so this spec is about the HTTP edge: routes, denials, validation, and what
// travels to the services (a name only when the member chose to show it, never an e-mail). The real
// services are covered by apps/letters' and apps/vault-media's specs and the browser tests.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { CommunityMessages, IdentityRpc, LettersRpc, VaultMediaRpc, type CommunityPost } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { generateTestKeys, userTokenSigner } from '@lv/testing';
import { startSpecEdge, type SpecEdge } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwc${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const USER_ID = randomUUID();
const token = userTokenSigner(keys.privateKey)(USER_ID, { email: 'dad@example.com', tier: 'pro' }, 600);
const TRACK_ID = '7a1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const POST_ID = '3c1f9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const REFUSED = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';

const post = (over: Partial<CommunityPost> = {}): CommunityPost => ({ id: POST_ID, author: 'A parent', content: 'Hello.', created_at: '2026-11-26T10:00:00.000Z', likes: 0, liked_by_me: false, mine: true, ...over });

describe('gateway /api/community', () => {
  let edge: SpecEdge | undefined;
  let http: FastifyInstance;
  let services: NestNatsResponder;

  const call = (options: InjectOptions, auth = true) => http.inject({ ...options, headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...options.headers } });

  beforeAll(async () => {
    services = await NestNatsResponder.start(NATS_URL, STACK_ID);
    services
      .handle(IdentityRpc.getMe, () => ({ id: USER_ID, email: 'dad@example.com', full_name: '  Sam Carter ', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: 'pro', ai_admin: false, emailVerified: true }))
      .handle(VaultMediaRpc.musicTracks, () => [{ id: TRACK_ID, title: 'Rise Up', category: 'motivation', fileName: 'motivation-rise-up.mp3' }])
      .handle(VaultMediaRpc.musicPlaybackLink, ({ payload }) => {
        if (payload.id !== TRACK_ID) throw new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);
        return { url: `/api/media/play/music/${TRACK_ID}?u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000, binding: { value: 'binding-value', maxAgeSeconds: 3600 } };
      })
      .handle(LettersRpc.communityPosts, () => [post()])
      .handle(LettersRpc.communityPublish, ({ payload }) => {
        if (payload.id === REFUSED) throw new DomainError('UPGRADE_REQUIRED', CommunityMessages.upgrade);
        return post({ id: payload.id, content: payload.content, author: payload.author_name ?? 'A parent' });
      })
      .handle(LettersRpc.communityLike, ({ payload }) => post({ id: payload.id, likes: payload.liked ? 1 : 0, liked_by_me: payload.liked }))
      .handle(LettersRpc.communityDelete, ({ payload }) => {
        if (payload.id === REFUSED) throw new DomainError('FORBIDDEN', CommunityMessages.notAuthor);
        return { id: payload.id, deleted: true };
      })
      .handle(LettersRpc.communitySubmitStory, ({ payload }) => ({ id: payload.id, submitted_at: '2026-11-26T10:00:00.000Z' }))
      .handle(LettersRpc.communityStories, () => {
        throw new DomainError('FORBIDDEN', CommunityMessages.adminsOnly);
      });
    await services.listen(['rpc.letters.>', 'rpc.vault-media.>', 'rpc.identity.>']);

    edge = await startSpecEdge('community', { NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '1500', HEALTH_SERVICES: 'letters' }, { statsProviders: ['letters'] });
    ({ http } = edge);
  });

  afterAll(async () => {
    await edge?.close();
    await services?.close();
  });

  it('needs a valid access token on every community route', async () => {
    const routes = [
      ['GET', '/api/community/music'], ['POST', `/api/community/music/${TRACK_ID}/playback`], ['GET', '/api/community/posts'], ['POST', '/api/community/posts'],
      ['PUT', `/api/community/posts/${POST_ID}/like`], ['DELETE', `/api/community/posts/${POST_ID}`], ['POST', '/api/community/stories'], ['GET', '/api/community/stories'],
    ] as const;
    for (const [method, url] of routes) {
      const response = await call({ method, url, payload: method === 'POST' || method === 'PUT' ? {} : undefined }, false);
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 401 });
    }
    expect(services.callsTo(LettersRpc.communityPosts)).toHaveLength(0);
    expect((await call({ method: 'GET', url: '/api/community/posts' })).statusCode).toBe(200);
    expect(services.callsTo(LettersRpc.communityPosts).at(-1)!.auth.accessToken).toBe(token);
  });

  it('passes the services’ refusals on with the spec’s words: the upgrade text (403), the author’s delete, admins’ stories', async () => {
    const upgrade = await call({ method: 'POST', url: '/api/community/posts', payload: { id: REFUSED, content: 'let me in' } });
    expect(upgrade.statusCode).toBe(403);
    expect(upgrade.json()).toMatchObject({ code: 'UPGRADE_REQUIRED', message: CommunityMessages.upgrade });
    const notMine = await call({ method: 'DELETE', url: `/api/community/posts/${REFUSED}` });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json()).toMatchObject({ message: CommunityMessages.notAuthor });
    expect((await call({ method: 'GET', url: '/api/community/stories' })).statusCode).toBe(403);
    expect((await call({ method: 'DELETE', url: `/api/community/posts/${POST_ID}` })).statusCode).toBe(204);
  });

  it('signs a post with the profile name only when the member chose to show it; the body can name nobody', async () => {
    const named = await call({ method: 'POST', url: '/api/community/posts', payload: { id: POST_ID, content: '  Day 40.  ', show_name: true, author_name: 'Someone Else', email: 'x@y.z' } });
    expect(named.statusCode).toBe(201);
    expect(services.callsTo(LettersRpc.communityPublish).at(-1)!.payload).toEqual({ id: POST_ID, content: 'Day 40.', author_name: 'Sam Carter' });
    const before = services.callsTo(IdentityRpc.getMe).length;
    await call({ method: 'POST', url: '/api/community/posts', payload: { id: POST_ID, content: 'Quietly.', author_name: 'Someone Else' } });
    expect(services.callsTo(LettersRpc.communityPublish).at(-1)!.payload).toEqual({ id: POST_ID, content: 'Quietly.', author_name: null });
    expect(services.callsTo(IdentityRpc.getMe)).toHaveLength(before);
  });

  it('refuses empty posts and stories at the edge with the spec’s words, without calling the service', async () => {
    const posts = services.callsTo(LettersRpc.communityPublish).length;
    const empty = await call({ method: 'POST', url: '/api/community/posts', payload: { id: POST_ID, content: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { content: CommunityMessages.postRequired } });
    expect(services.callsTo(LettersRpc.communityPublish)).toHaveLength(posts);
    const story = await call({ method: 'POST', url: '/api/community/stories', payload: { id: randomUUID(), story: ' \n ' } });
    expect(story.statusCode).toBe(400);
    expect(story.json()).toMatchObject({ fields: { story: 'Please enter your story' } });
    expect(services.callsTo(LettersRpc.communitySubmitStory)).toHaveLength(0);
    expect((await call({ method: 'POST', url: '/api/community/stories', payload: { id: randomUUID(), story: 'It got better.' } })).statusCode).toBe(201);
    expect((await call({ method: 'PUT', url: `/api/community/posts/${POST_ID}/like`, payload: { liked: 'yes' } })).statusCode).toBe(400);
    expect((await call({ method: 'PUT', url: '/api/community/posts/not-a-post/like', payload: { liked: true } })).statusCode).toBe(404);
    const liked = await call({ method: 'PUT', url: `/api/community/posts/${POST_ID}/like`, payload: { liked: true } });
    expect(liked.json()).toMatchObject({ likes: 1, liked_by_me: true });
  });

  it('lists the playlist, and gives a track’s link with the binding cookie (never the binding itself)', async () => {
    expect((await call({ method: 'GET', url: '/api/community/music' })).json()).toEqual([{ id: TRACK_ID, title: 'Rise Up', category: 'motivation', fileName: 'motivation-rise-up.mp3' }]);
    const answer = await call({ method: 'POST', url: `/api/community/music/${TRACK_ID}/playback` });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ url: `/api/media/play/music/${TRACK_ID}?u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000 });
    const cookie = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('lv_media='))!;
    expect(cookie).toMatch(/^lv_media=binding-value;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/api\/media\/play/);
    expect((await call({ method: 'POST', url: `/api/community/music/${randomUUID()}/playback` })).statusCode).toBe(404);
  });

  it('refuses a track read that no signer could have made (not a track id, an oversized query) before asking vault-media', async () => {
    // vault-media is not running here: reaching it would answer 503.
    expect((await call({ method: 'GET', url: '/api/media/play/music/not-a-track?u=a&exp=1&sig=b' }, false)).statusCode).toBe(403);
    expect((await call({ method: 'GET', url: `/api/media/play/music/${TRACK_ID}?u=${'a'.repeat(5000)}` }, false)).statusCode).toBe(403);
  });
});
