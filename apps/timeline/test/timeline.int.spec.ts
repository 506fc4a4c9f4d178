// The timeline service in-process, with the REAL letters service beside it as a child process built
// from this checkout (apps never import each other; its events reach the timeline through its outbox
// relay and JetStream; titles come from its `titles` handler), and
// vault-media played by its published events and a stand-in `titles` responder. Real PostgreSQL
// (a fresh database per service), NATS JetStream and Redis; a STACK_ID of its own.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  LettersEvents, LettersRpc, TimelineRpc, VaultMediaEvents, VaultMediaRpc,
  type SubscriptionTier, type TimelineEntry, type TimelinePage, type TitlesReply, type RpcDeclaration,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedSubject } from '@lv/platform/messaging';
import { RpcClient, type RunningService } from '@lv/platform/nest';
import { TestViewerIssuer, compileForChildProcess, createTestDatabase, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, startMigratedService, uniqueStackId, userTokenSigner, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { standInTitles, startTimeline, timelineDatabase } from './support/timeline-spec.js';

jest.setTimeout(180_000);

// Subjects are fixed when the controller modules load: choose this spec's stack first.
const STACK_ID = uniqueStackId('timeline');
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
// Viewer tokens (a family member's view session; access-keys will issue them): their own key pair.
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const tokenFor = userTokenSigner(keys.privateKey);
const meta = { requestId: 'timeline-spec' };

interface User { id: string; token: string }
const newUser = (tier: SubscriptionTier = 'pro'): User => {
  const id = randomUUID();
  return { id, token: tokenFor(id, { email: `${id}@example.com`, tier, emailVerified: true }) };
};

describe('timeline service (in-process, with the real letters service)', () => {
  let timelineDb: TestDatabase;
  let lettersDb: TestDatabase;
  let timelineApp: RunningService;
  let letters: ChildService | undefined;
  let scratchDir: string | undefined;
  let rpc: RpcClient;
  let nc: NatsConnection;
  /** vault-media's titles, per owner: what its stand-in answers (only the caller's own). */
  const recordingTitles = new Map<string, Map<string, string>>();
  /** vault-media's playback copies, standing in: a recording's poster and length once converted. */
  const recordingPlayback = new Map<string, { poster: boolean; duration_seconds: number | null }>();
  let vaultMediaTitleCalls = 0;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const timeline = (user: User, payload: object = {}) => call(TimelineRpc.list, payload, user.token);
  const sql = <T>(text: string, params: unknown[] = []) => timelineDb.orm.em.fork().execute<T[]>(text, params);
  const writeLetter = (user: User, title: string) => call(LettersRpc.write, { id: randomUUID(), title, content: `Words of ${title}.` }, user.token);

  /**
   * A client's write of a letter under a load of 1,500: a SERVICE_UNAVAILABLE answer (a busy database)
   * is retried with the same id, as the owner pressing Save again after "Please try again in a moment" does. Any other failure shows letters' last
   * warnings and errors, so a failure on a loaded CI machine explains itself.
   */
  async function writeRetryingWhenBusy(user: User, letter: { id: string; title: string; content: string }): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await call(LettersRpc.write, letter, user.token);
        return;
      } catch (error) {
        if ((error as DomainError).code === 'SERVICE_UNAVAILABLE' && attempt < 5) continue;
        console.error(`letters' last warnings and errors:\n${letters!.lines.filter((l) => /warn|error/i.test(l)).slice(-15).join('\n')}`);
        throw error;
      }
    }
  }

  async function publish(subject: string, data: Record<string, unknown>, eventId = randomUUID()): Promise<void> {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', eventId);
    const streamId = `recording-${String(data.recordingId ?? data.letterId)}`;
    await jetstream(nc).publish(scopedSubject(subject, STACK_ID), JSON.stringify({ eventId, type: subject, streamId, version: 1, occurredAt: new Date().toISOString(), data, metadata: {} }), { headers: h });
  }

  /** A saved recording as vault-media publishes it, and its title in the stand-in. */
  async function saveRecording(user: User, title: string, savedAt = new Date().toISOString(), recordingId = randomUUID()): Promise<string> {
    const titles = recordingTitles.get(user.id) ?? new Map<string, string>();
    titles.set(recordingId, title);
    recordingTitles.set(user.id, titles);
    await publish(VaultMediaEvents.RecordingSaved.subject, {
      recordingId, ownerId: user.id, type: 'video', bucket: 'vaultmedia', objectKey: `${user.id}/video_${Date.parse(savedAt)}.webm`, size: 1234, sha256: 'a'.repeat(64), savedAt,
    });
    return recordingId;
  }

  const rowCount = async (ownerId: string) =>
    Number((await sql<{ n: string }>(`select count(*)::text as n from timeline_entries where owner_id = ? and deleted_at is null`, [ownerId]))[0]!.n);
  /** Waits until the timeline applied a recording saved now: everything published before it is applied too (one stream, in order). */
  async function sentinel(user: User): Promise<void> {
    const id = await saveRecording(user, 'sentinel');
    await waitFor(async () => (await sql(`select 1 from timeline_entries where source = 'vault-media' and id = ?`, [id])).length === 1, 15_000, 'the sentinel recording');
  }

  beforeAll(async () => {
    scratchDir = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/letters'], 'timeline-letters');
    lettersDb = await createTestDatabase([], 'tllet');
    // The readiness line is logged at info.
    const lettersEnv = { DATABASE_URL: lettersDb.url, NATS_URL, REDIS_URL, STACK_ID, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'info' };
    letters = await startMigratedService(scratchDir, 'letters', lettersEnv);

    timelineDb = await timelineDatabase('timeline');
    // vault-media's events are published here as vault-media would, into its own stream.
    await makeStreamsAsOwners(NATS_URL, ['vault-media'], STACK_ID);
    timelineApp = await startTimeline(timelineDb, { jwtPublicKey: keys.publicKey, viewerPublicKey: viewerKeys.publicKey }, 'timeline-spec');

    // vault-media's titles, standing in: Nest's NATS wire format, and only the caller's own recordings.
    nc = await standInTitles(VaultMediaRpc.titles, (caller, ids) => {
      vaultMediaTitleCalls++;
      const own = recordingTitles.get(caller ?? '') ?? new Map<string, string>();
      const titles: Record<string, string> = {};
      const playback: NonNullable<TitlesReply['playback']> = {};
      for (const id of ids) {
        if (own.has(id)) titles[id] = own.get(id)!;
        if (own.has(id) && recordingPlayback.has(id)) playback[id] = recordingPlayback.get(id)!;
      }
      return { titles, playback };
    });
    rpc = new RpcClient(NATS_URL, 10_000, 'timeline-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await timelineApp?.close();
    await letters?.kill('SIGTERM');
    await deleteStackStreams(NATS_URL, ['letters', 'vault-media', 'court-journal'], STACK_ID);
    await nc?.close();
    await timelineDb?.drop();
    await lettersDb?.drop();
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
  });

  it('answers health without a token', async () => {
    expect(await call(TimelineRpc.health, {})).toEqual({ service: 'timeline', status: 'up', checks: { postgres: { status: 'up' } } });
  });

  it('shows the owner their recordings and letters, newest first, titled at read time; nobody else sees them', async () => {
    const dad = newUser();
    const stranger = newUser();
    const recordingId = await saveRecording(dad, 'First steps', new Date(Date.now() - 60_000).toISOString());
    const letter = await writeLetter(dad, 'Dear Sam');
    await waitFor(async () => (await timeline(dad)).entries.length === 2, 15_000, 'the recording and the letter on the timeline');
    const page = await timeline(dad);
    expect(page.nextCursor).toBeNull();
    expect(page.entries.map((e) => e.id)).toEqual([letter.id, recordingId]);
    expect(page.entries[0]).toEqual({
      id: letter.id, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam', file_path: null, blob_hash: null, size: null, integrity: null,
      word_count: 4, metadata: {}, timestamp: letter.created_at, created_at: letter.created_at,
    });
    expect(page.entries[1]).toMatchObject({
      id: recordingId, source: 'vault-media', type: 'video', entry_type: 'media', title: 'First steps', file_path: expect.stringMatching(new RegExp(`^${dad.id}/video_`)),
      blob_hash: 'a'.repeat(64), size: 1234, integrity: 'pending', word_count: null, metadata: { content_type: 'video/webm' },
    });
    await publish(VaultMediaEvents.RecordingHashVerified.subject, { recordingId, ownerId: dad.id, verifiedAt: new Date().toISOString() });
    await waitFor(async () => (await timeline(dad)).entries[1]?.integrity === 'verified', 15_000, 'the verified integrity');
    expect((await call(TimelineRpc.entry, { id: letter.id }, dad.token)).title).toBe('Dear Sam');

    expect((await timeline(stranger)).entries).toEqual([]);
    expect(await codeOf(call(TimelineRpc.entry, { id: letter.id }, stranger.token))).toBe('NOT_FOUND');
  });

  it('lets a viewer of the vault read the same timeline, titled, through the same handler; not without the scope, nor once revoked', async () => {
    const dad = newUser();
    const recordingId = await saveRecording(dad, 'Bath time', new Date(Date.now() - 60_000).toISOString());
    const letter = await writeLetter(dad, 'For Ellie');
    await waitFor(async () => (await timeline(dad)).entries.length === 2, 15_000, 'the recording and the letter on the timeline');
    const viewers = new TestViewerIssuer(timelineApp.core.redis, viewerKeys);
    const viewer = viewers.issue(dad.id, ['timeline', 'letters']);
    const asViewer = await call(TimelineRpc.list, {}, viewer.token);
    // The titles come from letters (real, checking the viewer token itself) and vault-media's stand-in.
    expect(asViewer.entries.map((e) => [e.id, e.title])).toEqual([[letter.id, 'For Ellie'], [recordingId, 'Bath time']]);
    expect(asViewer).toEqual(await timeline(dad));
    // A key of the timeline alone: the recordings, and no letter (not its title, not its day), listed or opened by id.
    const timelineOnly = viewers.issue(dad.id, ['timeline']);
    expect((await call(TimelineRpc.list, {}, timelineOnly.token)).entries.map((e) => [e.id, e.source, e.title])).toEqual([[recordingId, 'vault-media', 'Bath time']]);
    expect(await codeOf(call(TimelineRpc.entry, { id: letter.id }, timelineOnly.token))).toBe('NOT_FOUND');
    expect((await call(TimelineRpc.entry, { id: letter.id }, viewer.token)).title).toBe('For Ellie');
    expect((await call(TimelineRpc.entry, { id: recordingId }, timelineOnly.token)).title).toBe('Bath time');
    expect(await codeOf(call(TimelineRpc.list, {}, viewers.issue(dad.id, ['letters']).token))).toBe('FORBIDDEN');
    expect((await call(TimelineRpc.list, {}, viewers.issue(newUser().id, ['timeline']).token)).entries).toEqual([]);
    await viewers.revoke(viewer.viewSessionId);
    expect(await codeOf(call(TimelineRpc.list, {}, viewer.token))).toBe('SESSION_EXPIRED');
  });

  it('shows a recording’s poster and length once vault-media made its playback copy; none while pending', async () => {
    const mum = newUser();
    const ready = await saveRecording(mum, 'Beach day', new Date(Date.now() - 60_000).toISOString());
    const pending = await saveRecording(mum, 'Still converting');
    recordingPlayback.set(ready, { poster: true, duration_seconds: 65 });
    await waitFor(async () => (await timeline(mum)).entries.length === 2, 15_000, 'both recordings on the timeline');
    const [newest, older] = (await timeline(mum)).entries;
    expect(older).toMatchObject({ id: ready, title: 'Beach day', poster: true, duration_seconds: 65 });
    expect(newest!.id).toBe(pending);
    expect(newest).not.toHaveProperty('poster');
    expect(newest).not.toHaveProperty('duration_seconds');
  });

  it('opens the timeline per tier as the spec says: essentials, pro, legacy and admins; never tier none', async () => {
    const outcomes = [];
    for (const tier of ['none', 'essentials', 'pro', 'legacy'] as const) outcomes.push([tier, await codeOf(call(TimelineRpc.list, {}, newUser(tier).token))]);
    const adminId = randomUUID();
    outcomes.push(['none admin', await codeOf(call(TimelineRpc.list, {}, signer.sign({ sub: adminId, sid: randomUUID(), email: `${adminId}@example.com`, tier: 'none', admin: true, kind: 'user' }, 900).token))]);
    expect(outcomes).toEqual([['none', 'UPGRADE_REQUIRED'], ['essentials', 'OK'], ['pro', 'OK'], ['legacy', 'OK'], ['none admin', 'OK']]);
  });

  it('leaves a letter sealed for a milestone off a viewer’s timeline (letters withholds its title), and on its owner’s', async () => {
    const dad = newUser();
    const open = await writeLetter(dad, 'For everyone');
    const sealed = await writeLetter(dad, 'For Ellie at 18');
    const until = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await call(LettersRpc.seal, { id: sealed.id, until, time_zone: 'UTC', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' }, dad.token);
    await waitFor(async () => (await timeline(dad)).entries.length === 2, 15_000, 'both letters on the timeline');
    expect((await timeline(dad)).entries.map((e) => e.title).sort()).toEqual(['For Ellie at 18', 'For everyone']);
    const viewer = new TestViewerIssuer(timelineApp.core.redis, viewerKeys).issue(dad.id, ['timeline', 'letters']);
    const asViewer = await call(TimelineRpc.list, {}, viewer.token);
    expect(asViewer.entries.map((e) => [e.id, e.title])).toEqual([[open.id, 'For everyone']]);
    expect(await codeOf(call(TimelineRpc.entry, { id: sealed.id }, viewer.token))).toBe('NOT_FOUND');
  });

  it('refuses the timeline without a session, below essentials, and with a cursor it did not make', async () => {
    expect(await codeOf(call(TimelineRpc.list, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(TimelineRpc.list, {}, newUser('none').token))).toBe('UPGRADE_REQUIRED');
    expect(await codeOf(call(TimelineRpc.list, { before: 'bm90LWEtY3Vyc29y' }, newUser().token))).toBe('VALIDATION_FAILED');
    expect(await codeOf(call(TimelineRpc.list, { limit: 501 }, newUser().token))).toBe('VALIDATION_FAILED');
    expect(await codeOf(call(TimelineRpc.rebuildProjections, {}, newUser().token))).toBe('FORBIDDEN');
  });

  it('keeps final messages off the timeline (they are If I’m Not There’s), and vault recordings of the same event shape on it', async () => {
    const dad = newUser();
    const finalId = randomUUID();
    await publish(VaultMediaEvents.RecordingSaved.subject, {
      recordingId: finalId, ownerId: dad.id, type: 'audio', bucket: 'vaultmedia', objectKey: `${dad.id}/audio_2.webm`, size: 10, sha256: 'c'.repeat(64), savedAt: new Date().toISOString(), collection: 'final-messages',
    });
    await publish(VaultMediaEvents.RecordingHashVerified.subject, { recordingId: finalId, ownerId: dad.id, verifiedAt: new Date().toISOString() });
    await sentinel(dad);
    expect(await sql(`select id from timeline_entries where id = ?`, [finalId])).toEqual([]);
    expect(await rowCount(dad.id)).toBe(1);
  });

  it('never lets another owner’s event with the same id touch an owner’s row', async () => {
    const mum = newUser();
    const other = newUser();
    const savedAt = new Date().toISOString();
    const id = await saveRecording(mum, 'Mum’s video', savedAt);
    const letter = await writeLetter(mum, 'Mum’s letter');
    await waitFor(async () => (await rowCount(mum.id)) === 2, 15_000, 'mum’s recording and letter');
    const mine = () => sql<Record<string, unknown>>(`select * from timeline_entries where owner_id = ? order by source`, [mum.id]);
    const before = await mine();
    // The same ids, from another vault: saved, verified as damaged, deleted; revised, deleted.
    await publish(VaultMediaEvents.RecordingSaved.subject, { recordingId: id, ownerId: other.id, type: 'audio', bucket: 'vaultmedia', objectKey: `${other.id}/audio_1.webm`, size: 9, sha256: 'b'.repeat(64), savedAt });
    await publish(VaultMediaEvents.RecordingHashMismatch.subject, { recordingId: id, ownerId: other.id, detectedAt: savedAt });
    await publish(VaultMediaEvents.RecordingDeleted.subject, { recordingId: id, ownerId: other.id, deletedAt: savedAt });
    await publish(LettersEvents.LetterRevised.subject, { letterId: letter.id, ownerId: other.id, wordCount: 99, revisedAt: savedAt });
    await publish(LettersEvents.LetterDeleted.subject, { letterId: letter.id, ownerId: other.id, deletedAt: savedAt });
    // One sentinel per stream: each stream is applied in order, so what came before is applied too.
    await sentinel(mum);
    const letterSentinel = await writeLetter(mum, 'Letters sentinel');
    await waitFor(async () => (await sql(`select 1 from timeline_entries where source = 'letters' and id = ?`, [letterSentinel.id])).length === 1, 15_000, 'the letters sentinel');
    const after = (await mine()).filter((row) => row.id === id || row.id === letter.id);
    expect(after).toEqual(before);
    const page = await timeline(mum);
    expect(page.entries.find((e) => e.id === id)).toMatchObject({ title: 'Mum’s video', integrity: 'pending', type: 'video' });
    expect(page.entries.find((e) => e.id === letter.id)).toMatchObject({ title: 'Mum’s letter', word_count: 4 });
    expect((await timeline(other)).entries).toEqual([]);
  });

  it('titles every letter of a vault with 1,500 letters', async () => {
    const writer = newUser();
    const titles = new Map<string, string>();
    const ids: string[] = [];
    for (let i = 0; i < 1500; i++) ids.push(randomUUID());
    // Sixteen writers at a time: letters seals and appends each one in its own transaction.
    for (let i = 0; i < ids.length; i += 16) {
      await Promise.all(ids.slice(i, i + 16).map(async (id, j) => {
        const title = `Letter number ${i + j + 1}`;
        titles.set(id, title);
        await writeRetryingWhenBusy(writer, { id, title, content: 'A few words.' });
      }));
    }
    await waitFor(async () => (await rowCount(writer.id)) === 1500, 120_000, '1,500 letters on the timeline', 250);
    const seen: TimelineEntry[] = [];
    let before: string | undefined;
    do {
      const page: TimelinePage = await timeline(writer, { limit: 500, ...(before ? { before } : {}) });
      seen.push(...page.entries);
      before = page.nextCursor ?? undefined;
    } while (before);
    expect(seen).toHaveLength(1500);
    expect(new Set(seen.map((e) => e.id)).size).toBe(1500);
    for (const entry of seen) expect(entry.title).toBe(titles.get(entry.id));
  }, 300_000); // 1,500 real sealed writes: 103 s seen on a 2-core machine at load 14

  it('pages stably: a total order even on equal times, and an entry added between pages shifts nothing', async () => {
    const user = newUser();
    const sameTime = new Date(Date.now() - 3_600_000).toISOString();
    for (let i = 0; i < 12; i++) await saveRecording(user, `Same moment ${i}`, sameTime);
    await writeLetter(user, 'Written now');
    await waitFor(async () => (await rowCount(user.id)) === 13, 15_000, '13 entries');
    const all = (await timeline(user, { limit: 500 })).entries.map((e) => `${e.source}:${e.id}`);
    const paged: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page: TimelinePage = await timeline(user, { limit: 4, ...(before ? { before } : {}) });
      paged.push(...page.entries.map((e) => `${e.source}:${e.id}`));
      before = page.nextCursor ?? undefined;
      // A newer entry arrives while the reader is on page 1: later pages are unchanged by it.
      if (++pages === 1) {
        await writeLetter(user, 'Arrived between pages');
        await waitFor(async () => (await rowCount(user.id)) === 14, 15_000, 'the new letter');
      }
    } while (before);
    expect(paged).toEqual(all);
    expect(pages).toBe(4);
  });

  it('removes a deleted letter (await-entry-gone answers once it is gone), and a late “written” does not bring it back', async () => {
    const user = newUser();
    const letter = await writeLetter(user, 'To be deleted');
    await waitFor(async () => (await rowCount(user.id)) === 1, 15_000, 'the letter');
    const early = await call(TimelineRpc.awaitEntryGone, { id: letter.id, timeoutMs: 100 }, user.token);
    expect(early).toEqual({ gone: false });
    await call(LettersRpc.delete, { id: letter.id }, user.token);
    expect(await call(TimelineRpc.awaitEntryGone, { id: letter.id, timeoutMs: 10_000 }, user.token)).toEqual({ gone: true });
    expect((await timeline(user)).entries.map((e) => e.id)).not.toContain(letter.id);
    // The same "written" again under another event id (a relay republishing past the dedupe window).
    await publish(LettersEvents.LetterWritten.subject, { letterId: letter.id, ownerId: user.id, wordCount: 3, writtenAt: letter.created_at });
    await sentinel(user);
    expect((await timeline(user)).entries.map((e) => e.id)).not.toContain(letter.id);
    expect(await codeOf(call(TimelineRpc.entry, { id: letter.id }, user.token))).toBe('NOT_FOUND');
  });

  it('rebuilds from the streams to the same rows (operator only)', async () => {
    const user = newUser();
    await saveRecording(user, 'Before the rebuild');
    await sentinel(user);
    const rows = () => sql<Record<string, unknown>>(`select * from timeline_entries order by source, id`);
    const before = await rows();
    expect(before.length).toBeGreaterThan(1500);
    await sql(`update timeline_entries set word_count = -1 where source = 'letters'`);
    const reply = await call(TimelineRpc.rebuildProjections, {}, signOperatorToken(signer, 'spec'));
    expect(reply.projections.map((p) => p.projection)).toEqual(['timeline_entries:letters', 'timeline_entries:vault-media', 'timeline_entries:court-journal']);
    expect(await rows()).toEqual(before);
    // The consumers run again after it: a new event still arrives.
    await sentinel(user);
  });

  it('letters’ titles answer only for the caller’s own letters, omit unknown ids, and take at most 500 ids', async () => {
    const owner = newUser();
    const stranger = newUser();
    const letter = await writeLetter(owner, 'Only mine');
    const unknown = randomUUID();
    expect(await call(LettersRpc.titles, { ids: [letter.id, unknown, 'not-an-id'] }, owner.token)).toEqual({ titles: { [letter.id]: 'Only mine' } });
    expect(await call(LettersRpc.titles, { ids: [letter.id] }, stranger.token)).toEqual({ titles: {} });
    expect(await codeOf(call(LettersRpc.titles, { ids: [letter.id] }))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(LettersRpc.titles, { ids: Array.from({ length: 501 }, () => randomUUID()) }, owner.token))).toBe('VALIDATION_FAILED');
  });

  it('shows fallback titles for entries a source gives no title for, and still serves the page', async () => {
    const user = newUser();
    await saveRecording(user, 'Untitled for now');
    await sentinel(user);
    recordingTitles.delete(user.id);
    const calls = vaultMediaTitleCalls;
    expect((await timeline(user)).entries.map((e) => e.title)).toEqual(['Video message', 'Video message']);
    expect(vaultMediaTitleCalls).toBe(calls + 1);
  });
});
