import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessMessages, VIEW_SECTIONS } from '@lv/contracts';
import { AccessTokenSigner, type ViewerCaller } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';
import { lettersMigrations } from '../src/migrations.js';

// Every letters handler against every kind of caller (libs/testing runReaderMatrix), on the running
// service's own handler registry: a handler added later is in the matrix without anyone listing it.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('lettersmx');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { LettersService } = await import('../src/letters.service.js');
const { RpcHandlerRegistry, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');
const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const ownerId = randomUUID();
const anotherOwnerId = randomUUID();
const tokenOf = (userId: string) => signer.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier: 'none', admin: false, kind: 'user' }, 600).token;
const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('letters reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;

  beforeAll(async () => {
    db = await createTestDatabase(lettersMigrations.slice(1), 'lettersmx');
    const env = {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent',
    };
    running = await startService(lettersService, env, { logger: createLogger('letters-matrix', 'silent') });
    viewers = new TestViewerIssuer(running.core.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await running?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('letters')).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares, and never shows one vault to another', async () => {
    // The owner's words, which only the owner and a viewer of this vault with 'letters' may see.
    const ownerTitle = secret('ownertitle');
    const ownerThought = secret('ownerthought');
    const ownerLetter = await rpc.call<{ id: string }>('rpc.letters.write', { id: randomUUID(), title: ownerTitle, content: 'words for my children' }, tokenOf(ownerId));
    await rpc.call('rpc.letters.reflection.save', { text: ownerThought }, tokenOf(ownerId));
    const ownerPortrait = secret('ownerportrait');
    const portrait = { about_me: ownerPortrait, personality_traits: ['Kind'], favorite_music: '', favorite_films: '', core_values: ['honesty'] };
    await rpc.call('rpc.letters.portrait.save', portrait, tokenOf(ownerId));
    // A story kept for moderation: no member reads it back, not even its author (admins do, in the service).
    const ownerStory = secret('ownerstory');
    const proToken = signer.sign({ sub: ownerId, sid: randomUUID(), email: `${ownerId}@example.com`, tier: 'pro', admin: false, kind: 'user' }, 600).token;
    await rpc.call('rpc.letters.community.submit-story', { id: randomUUID(), story: ownerStory, author_name: null }, proToken);
    // A letter sealed until a day for one recipient: no key holder reads it before its release.
    const sealedTitle = secret('sealedtitle');
    const sealedLetter = await rpc.call<{ id: string }>('rpc.letters.write', { id: randomUUID(), title: sealedTitle, content: 'for your 18th birthday' }, tokenOf(ownerId));
    const sealPayload = { id: sealedLetter.id, until: new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString().slice(0, 10), time_zone: 'UTC', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' };
    await rpc.call('rpc.letters.seal', sealPayload, tokenOf(ownerId));
    // The other owner has a vault of their own, so an empty reply is not what keeps them out.
    await rpc.call('rpc.letters.write', { id: randomUUID(), title: secret('othertitle'), content: 'someone else' }, tokenOf(anotherOwnerId));

    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: signer,
      viewers,
      ownerId,
      anotherOwnerId,
      payloads: {
        'rpc.letters.get': { id: ownerLetter.id }, 'rpc.letters.portrait.save': { ...portrait, about_me: 'words of whoever saves' },
        'rpc.letters.seal': sealPayload, 'rpc.letters.unseal': { id: ownerLetter.id },
        'rpc.letters.milestone-release': { letter_id: sealedLetter.id, release_id: randomUUID() },
      },
      ownerSecrets: [ownerTitle, ownerThought, ownerPortrait, ownerStory],
      // Not portrait.get: the matrix's own save (as the owner, in no fixed order) replaces the secret portrait.
      ownerReads: ['rpc.letters.list', 'rpc.letters.get', 'rpc.letters.reflection.get'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    const subjects = new Set(result.rows.map((row) => row.subject));
    expect([...subjects].sort()).toEqual(expect.arrayContaining(['rpc.letters.list', 'rpc.letters.get', 'rpc.letters.write', 'rpc.letters.delete']));
    expect([...subjects].filter((s) => s.startsWith('rpc.letters.community.')).sort()).toEqual([
      'rpc.letters.community.delete', 'rpc.letters.community.like', 'rpc.letters.community.posts', 'rpc.letters.community.publish', 'rpc.letters.community.stories', 'rpc.letters.community.submit-story',
    ]);
    // Members on a plan without the community (the matrix's owners are on none) are refused by the service, with the spec's words.
    expect(result.rows.filter((row) => row.subject === 'rpc.letters.community.posts' && row.caller === 'owner').map((row) => row.outcome)).toEqual(['UPGRADE_REQUIRED']);
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    // The one refusal past the guard: stories are for admins, a flag the service checks (not a reader kind).
    expect(result.unexpectedDenials.map((row) => `${row.subject} ${row.caller} ${row.outcome}`).sort()).toEqual([
      'rpc.letters.community.stories another owner FORBIDDEN', 'rpc.letters.community.stories owner FORBIDDEN',
    ]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);

    // The viewer's reads really are the owner's letters (scoped by vaultOwnerId, not by a user id).
    const viewerList = result.rows.find((row) => row.subject === 'rpc.letters.list' && row.caller === 'viewer of this vault');
    expect(viewerList?.outcome).toBe('OK');
    const viewer = viewers.issue(ownerId, ['letters']);
    const page = await rpc.call<{ letters: { id: string; title: string }[] }>('rpc.letters.list', {}, viewer.token);
    expect(page.letters.map((l) => l.title)).toEqual([ownerTitle]);
    await expect(rpc.call('rpc.letters.write', { id: randomUUID(), title: 'x', content: 'y' }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.letters.reflection.get', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The sealed letter: in its owner's list with its seal, in no key holder's (not even one limited to it, before its release).
    const ownerPage = await rpc.call<{ letters: { id: string; milestone: { status: string } | null }[] }>('rpc.letters.list', {}, tokenOf(ownerId));
    expect(ownerPage.letters.find((l) => l.id === sealedLetter.id)?.milestone?.status).toBe('sealed');
    await expect(rpc.call('rpc.letters.get', { id: sealedLetter.id }, viewer.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const limited = viewers.issue(ownerId, ['letters'], undefined, sealedLetter.id);
    expect((await rpc.call<{ letters: unknown[] }>('rpc.letters.list', {}, limited.token)).letters).toEqual([]);
    await expect(rpc.call('rpc.letters.get', { id: sealedLetter.id }, limited.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // The timeline's titles: a key of the timeline and Letters sees the letters' titles there; a key of the timeline alone, none.
    const timelineAndLetters = viewers.issue(ownerId, ['timeline', 'letters']);
    expect(await rpc.call('rpc.letters.titles', { ids: [sealedLetter.id, ownerLetter.id] }, timelineAndLetters.token)).toEqual({ titles: { [ownerLetter.id]: ownerTitle } });
    const timelineViewer = viewers.issue(ownerId, ['timeline']);
    expect(await rpc.call('rpc.letters.titles', { ids: [sealedLetter.id, ownerLetter.id] }, timelineViewer.token)).toEqual({ titles: {} });

    // A viewer of this vault whose key opens every section but Letters: refused, and the refusal carries none of the letter.
    const withoutLetters = viewers.issue(ownerId, VIEW_SECTIONS.filter((section) => section !== 'letters'));
    const refusals = await Promise.all([
      rpc.call('rpc.letters.list', {}, withoutLetters.token).then(() => 'answered', (error: unknown) => error),
      rpc.call('rpc.letters.get', { id: ownerLetter.id }, withoutLetters.token).then(() => 'answered', (error: unknown) => error),
    ]);
    expect(refusals).toEqual([expect.objectContaining({ code: 'FORBIDDEN' }), expect.objectContaining({ code: 'FORBIDDEN' })]);
    for (const words of [ownerTitle, 'words for my children', ownerLetter.id]) expect(JSON.stringify(refusals)).not.toContain(words);
    expect(await rpc.call('rpc.letters.titles', { ids: [ownerLetter.id] }, withoutLetters.token)).toEqual({ titles: {} });
    // The service's own check, behind the handlers' declarations: a declaration written wrongly would still show him nothing.
    const service = running.app.get(LettersService);
    const caller: ViewerCaller = { kind: 'viewer', vaultOwnerId: ownerId, viewSessionId: randomUUID(), scopes: ['timeline'], expiresAt: Date.now() + 60_000, mayDownload: false };
    const notShared = { code: 'FORBIDDEN', message: AccessMessages.sectionNotShared };
    await expect(service.list(caller, {})).rejects.toMatchObject(notShared);
    await expect(service.get(caller, ownerLetter.id)).rejects.toMatchObject(notShared);
    expect(await service.titles(caller, [ownerLetter.id])).toEqual({ titles: {} });
    // access-keys' question answers nothing for a release that has not happened.
    expect(await rpc.call('rpc.letters.milestone-release', { letter_id: sealedLetter.id, release_id: randomUUID() })).toEqual({ state: 'unknown' });

    // A key holder of who-i-am sees which sections of the portrait are filled (the tab's list) and,
    // opening the Who I Am page, its words; one without that section sees nothing of it.
    await rpc.call('rpc.letters.portrait.save', portrait, tokenOf(ownerId));
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, tokenOf(ownerId))).about_me).toBe(ownerPortrait);
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, tokenOf(anotherOwnerId))).about_me).not.toBe(ownerPortrait);
    const portraitViewer = viewers.issue(ownerId, ['who-i-am']);
    const sections = await rpc.call<{ section: string }[]>('rpc.letters.portrait.sections', {}, portraitViewer.token);
    expect(sections.map((s) => s.section)).toEqual(['About Me', 'Personality Traits', 'Core Values']);
    expect(JSON.stringify(sections)).not.toContain(ownerPortrait);
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, portraitViewer.token)).about_me).toBe(ownerPortrait);
    await expect(rpc.call('rpc.letters.portrait.get', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.letters.portrait.sections', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
