import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { CommunityMessages, LettersRpc, type CommunityPost, type CommunityStory, type RpcDeclaration, type SubscriptionTier } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { connectNats, scopedStreamName } from '@lv/platform/messaging';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { createTestDatabase, generateTestKeys, uniqueStackId, type TestDatabase } from '@lv/testing';
import type { LettersConfig } from '../src/config.js';
import { lettersMigrations } from '../src/migrations.js';

// The Parent Circle's discussion and stories in the letters service, over NATS and a fresh
// PostgreSQL database, called the way the gateway calls them: gated per tier, likes once per member,
// a post deleted by its author only, stories kept for admins, nothing published to other services.

jest.setTimeout(60_000);

const STACK_ID = uniqueStackId('community');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const token = (id: string, tier: SubscriptionTier, admin = false) => signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier, admin, kind: 'user' }, 600).token;

describe('Parent Circle community (letters service over NATS)', () => {
  let db: TestDatabase;
  let letters: RunningService<LettersConfig>;
  let rpc: RpcClient;
  const dad = randomUUID();
  const mum = randomUUID();
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string) => rpc.callUnchecked(declaration, payload, { accessToken, meta: { requestId: 'community-spec' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const publish = (accessToken: string, content: string, author_name: string | null = null, id: string = randomUUID()) =>
    call(LettersRpc.communityPublish, { id, content, author_name }, accessToken) as Promise<CommunityPost>;
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);

  beforeAll(async () => {
    db = await createTestDatabase(lettersMigrations.slice(1), 'community');
    letters = await startService(lettersService, { DATABASE_URL: db.url, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent' }, { logger: createLogger('community-spec', 'silent') });
    rpc = new RpcClient(NATS_URL, 5000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await letters?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('letters', STACK_ID)).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('lets Pro and Legacy members and admins in, and refuses every other tier with the spec’s words, on every call', async () => {
    const post = await publish(token(dad, 'pro'), 'First post of the circle');
    for (const [tier, admin] of [['pro', false], ['legacy', false], ['none', true]] as const) {
      expect(await codeOf(call(LettersRpc.communityPosts, {}, token(mum, tier, admin)))).toBe('OK');
    }
    const refused = token(mum, 'essentials');
    for (const tier of ['none', 'essentials'] as const) {
      const caller = token(mum, tier);
      await expect(call(LettersRpc.communityPosts, {}, caller)).rejects.toMatchObject({ code: 'UPGRADE_REQUIRED', message: CommunityMessages.upgrade });
      expect(await codeOf(publish(caller, 'let me in'))).toBe('UPGRADE_REQUIRED');
      expect(await codeOf(call(LettersRpc.communityLike, { id: post.id, liked: true }, caller))).toBe('UPGRADE_REQUIRED');
      expect(await codeOf(call(LettersRpc.communitySubmitStory, { id: randomUUID(), story: 'mine', author_name: null }, caller))).toBe('UPGRADE_REQUIRED');
    }
    expect(await codeOf(call(LettersRpc.communityDelete, { id: post.id }, refused))).toBe('UPGRADE_REQUIRED');
    expect(await codeOf(call(LettersRpc.communityPosts, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(LettersRpc.communityPosts, {}, signOperatorToken(signer, 'spec')))).toBe('FORBIDDEN');
    expect((await sql<{ n: string }>('select count(*) as n from community_posts'))[0]!.n).toBe('1');
  });

  it('shows every member the discussion, newest first, signed by the chosen name or "A parent", never an e-mail or an id', async () => {
    const named = await publish(token(dad, 'pro'), '  Day 40. I wrote her a letter instead.  ', 'Sam Carter');
    expect(named).toMatchObject({ author: 'Sam Carter', content: 'Day 40. I wrote her a letter instead.', likes: 0, liked_by_me: false, mine: true });
    const anonymous = await publish(token(mum, 'legacy'), 'Same here, week 12.');
    expect(anonymous.author).toBe('A parent');
    const seen = (await call(LettersRpc.communityPosts, {}, token(randomUUID(), 'pro'))) as CommunityPost[];
    expect(seen.slice(0, 2).map((p) => [p.author, p.mine])).toEqual([['A parent', false], ['Sam Carter', false]]);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(dad);
    expect(text).not.toContain('@example.com');
    // The same post again (a retry) is one post; the id with other words is refused.
    await publish(token(dad, 'pro'), 'Day 40. I wrote her a letter instead.', 'Sam Carter', named.id);
    expect((await sql<{ n: string }>('select count(*) as n from community_posts where id = ?', [named.id]))[0]!.n).toBe('1');
    expect(await codeOf(publish(token(mum, 'pro'), 'hijack', null, named.id))).toBe('CONFLICT');
    expect(await codeOf(publish(token(dad, 'pro'), '   '))).toBe('VALIDATION_FAILED');
  });

  it('counts a like once per member, however often it is sent, and takes it back once', async () => {
    const post = await publish(token(dad, 'pro'), 'Does it get easier?');
    const likes = await Promise.all(Array.from({ length: 6 }, () => call(LettersRpc.communityLike, { id: post.id, liked: true }, token(mum, 'pro')) as Promise<CommunityPost>));
    expect(likes.every((p) => p.likes === 1 && p.liked_by_me)).toBe(true);
    const second = (await call(LettersRpc.communityLike, { id: post.id, liked: true }, token(dad, 'legacy'))) as CommunityPost;
    expect(second.likes).toBe(2);
    const [asDad] = ((await call(LettersRpc.communityPosts, {}, token(dad, 'pro'))) as CommunityPost[]).filter((p) => p.id === post.id);
    expect(asDad).toMatchObject({ likes: 2, liked_by_me: true, mine: true });
    expect(((await call(LettersRpc.communityLike, { id: post.id, liked: false }, token(mum, 'pro'))) as CommunityPost).likes).toBe(1);
    expect(((await call(LettersRpc.communityLike, { id: post.id, liked: false }, token(mum, 'pro'))) as CommunityPost).likes).toBe(1);
    const events = await sql<{ type: string }>(`select type from events where stream_id = ? order by version`, [`community-post-${post.id}`]);
    expect(events.map((e) => e.type)).toEqual(['PostPublished', 'PostLiked', 'PostLiked', 'PostUnliked']);
    expect(await codeOf(call(LettersRpc.communityLike, { id: randomUUID(), liked: true }, token(mum, 'pro')))).toBe('NOT_FOUND');
  });

  it('lets only the author delete his post: another member, even an admin, cannot; its words are sealed, then shredded', async () => {
    const word = `secret${randomBytes(6).toString('hex')}`;
    const post = await publish(token(dad, 'pro'), `Mine to keep or remove ${word}`, `Sam ${word}`);
    // Sealed at rest: neither the words nor the name are in the events in the clear.
    expect(await sql('select 1 from events where data::text like ?', [`%${word}%`])).toEqual([]);
    expect(await sql('select 1 from community_post_keys where post_id = ?', [post.id])).toHaveLength(1);
    await call(LettersRpc.communityLike, { id: post.id, liked: true }, token(mum, 'pro'));
    await expect(call(LettersRpc.communityDelete, { id: post.id }, token(mum, 'legacy'))).rejects.toMatchObject({ code: 'FORBIDDEN', message: CommunityMessages.notAuthor });
    expect(await codeOf(call(LettersRpc.communityDelete, { id: post.id }, token(mum, 'none', true)))).toBe('FORBIDDEN');
    expect(await call(LettersRpc.communityDelete, { id: post.id }, token(dad, 'pro'))).toEqual({ id: post.id, deleted: true });
    expect(((await call(LettersRpc.communityPosts, {}, token(mum, 'pro'))) as CommunityPost[]).map((p) => p.id)).not.toContain(post.id);
    expect(await sql('select 1 from community_post_likes where post_id = ?', [post.id])).toEqual([]);
    // Shredded: the post's key is gone, so no copy of its words can be opened again, and nothing holds them in the clear.
    expect(await sql('select 1 from community_post_keys where post_id = ?', [post.id])).toEqual([]);
    for (const table of ['community_posts', 'community_post_likes', 'community_stories']) expect(await sql(`select 1 from ${table} where ${table}::text like ?`, [`%${word}%`])).toEqual([]);
    expect(await codeOf(call(LettersRpc.communityLike, { id: post.id, liked: true }, token(mum, 'pro')))).toBe('NOT_FOUND');
  });

  it("keeps stories for moderation ('Please enter your story' when empty), readable by admins only", async () => {
    const words = `It got better ${randomBytes(4).toString('hex')}`;
    const id = randomUUID();
    await expect(call(LettersRpc.communitySubmitStory, { id: randomUUID(), story: '  ', author_name: null }, token(dad, 'pro'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please enter your story' });
    const receipt = await call(LettersRpc.communitySubmitStory, { id, story: words, author_name: 'Sam Carter' }, token(dad, 'pro'));
    expect(await sql('select 1 from events where data::text like ?', [`%${words}%`])).toEqual([]);
    expect(receipt).toMatchObject({ id });
    expect(await call(LettersRpc.communitySubmitStory, { id, story: words, author_name: 'Sam Carter' }, token(dad, 'pro'))).toEqual(receipt);
    await expect(call(LettersRpc.communityStories, {}, token(dad, 'legacy'))).rejects.toMatchObject({ code: 'FORBIDDEN', message: CommunityMessages.adminsOnly });
    const stories = (await call(LettersRpc.communityStories, {}, token(mum, 'none', true))) as CommunityStory[];
    expect(stories).toEqual([{ id, author: 'Sam Carter', story: words, submitted_at: (receipt as { submitted_at: string }).submitted_at }]);
    // Not published: no outbox row was ever written for the circle, and JetStream holds nothing of it.
    expect((await sql<{ n: string }>(`select count(*) as n from events where stream_type in ('community-post', 'community-story')`))[0]!.n).not.toBe('0');
    const nc = await connectNats(NATS_URL, 'community-spec');
    const stream = await (await jetstreamManager(nc)).streams.info(scopedStreamName('letters', STACK_ID)).catch(() => null);
    await nc.close();
    expect(stream?.state.messages ?? 0).toBe(0);
  });

  it('rebuilds the discussion and stories from their streams', async () => {
    const before = await call(LettersRpc.communityPosts, {}, token(dad, 'pro'));
    const report = await call(LettersRpc.rebuildProjections, {}, signOperatorToken(signer, 'spec'));
    expect((report as { projections: { projection: string }[] }).projections.map((p) => p.projection)).toEqual(expect.arrayContaining(['community_posts', 'community_stories']));
    expect(await call(LettersRpc.communityPosts, {}, token(dad, 'pro'))).toEqual(before);
  });
});
