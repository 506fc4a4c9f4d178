import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createOrm, migrateUp } from '@lv/platform/database';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';

// Every timeline handler against every kind of caller (libs/testing runReaderMatrix), on the running
// service's own handler registry. The timeline keeps no words, so the owner's "secrets" are the ids
// of the owner's entries: a stranger's reply that names one has seen into the vault.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('timelinemx');
process.env.STACK_ID = STACK_ID;
const { timelineMigrations } = await import('../src/migrations.js');
const { timelineService } = await import('../src/timeline.definition.js');
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
const tokenOf = (userId: string) => signer.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier: 'pro', admin: false, kind: 'user' }, 600).token;

describe('timeline reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;

  /** An entry as the consumers write it (the sources' events are another spec's subject). */
  const seed = (owner: string, source: 'letters' | 'vault-media', id: string) =>
    db.orm.em.fork().execute(
      `insert into timeline_entries (source, id, owner_id, type, entry_type, metadata, "timestamp", created_at)
       values (?, ?, ?, ?, ?, '{}'::jsonb, now(), now())`,
      [source, id, owner, source === 'letters' ? 'letter' : 'video', source === 'letters' ? 'message' : 'media'],
    );

  beforeAll(async () => {
    db = await createTestDatabase([], 'timelinemx');
    await db.orm.close();
    const orm = await createOrm({ databaseUrl: db.url, migrations: timelineMigrations, poolMax: 4 });
    await migrateUp(orm);
    (db as { orm: unknown }).orm = orm;
    const env = {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent',
      // No source service answers here: titles fall back at once instead of waiting.
      TIMELINE_TITLES_TIMEOUT_MS: '200',
    };
    running = await startService(timelineService, env, { logger: createLogger('timeline-matrix', 'silent') });
    viewers = new TestViewerIssuer(running.core.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await running?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    const jsm = await jetstreamManager(nc);
    for (const source of ['letters', 'vault-media'] as const) await jsm.streams.delete(scopedStreamName(source)).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares, and never shows one vault to another', async () => {
    const letterId = randomUUID();
    const recordingId = randomUUID();
    await seed(ownerId, 'letters', letterId);
    await seed(ownerId, 'vault-media', recordingId);
    await seed(anotherOwnerId, 'letters', randomUUID());

    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: signer,
      viewers,
      ownerId,
      anotherOwnerId,
      ownerTier: 'pro',
      payloads: { 'rpc.timeline.entry': { id: recordingId }, 'rpc.timeline.await-entry-gone': { id: recordingId, timeoutMs: 0 } },
      ownerSecrets: [letterId, recordingId],
      ownerReads: ['rpc.timeline.list', 'rpc.timeline.entry'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    const subjects = new Set(result.rows.map((row) => row.subject));
    expect([...subjects].sort()).toEqual(expect.arrayContaining(['rpc.timeline.list', 'rpc.timeline.entry', 'rpc.timeline.stats', 'rpc.timeline.await-entry-gone']));
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);

    // The matrix ran the operator's rebuild too, which replays the (empty) source streams: seed again.
    await seed(ownerId, 'letters', letterId);
    await seed(ownerId, 'vault-media', recordingId);
    // A viewer of this vault whose key opens the timeline and Letters reads the owner's timeline through the same handler as the owner.
    const viewer = viewers.issue(ownerId, ['timeline', 'letters']);
    const asViewer = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, viewer.token);
    const asOwner = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, tokenOf(ownerId));
    expect(asViewer.entries.map((e) => e.id).sort()).toEqual([letterId, recordingId].sort());
    expect(asViewer).toEqual(asOwner);
    // A key of the timeline alone: the recording, not the letter (listed or asked for by id).
    const timelineOnly = viewers.issue(ownerId, ['timeline']);
    expect((await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, timelineOnly.token)).entries.map((e) => e.id)).toEqual([recordingId]);
    await expect(rpc.call('rpc.timeline.entry', { id: letterId }, timelineOnly.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Without the timeline scope, or with it for another vault, nothing of this vault.
    await expect(rpc.call('rpc.timeline.list', {}, viewers.issue(ownerId, ['letters']).token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const stranger = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, viewers.issue(anotherOwnerId, ['timeline']).token);
    expect(stranger.entries.map((e) => e.id)).not.toEqual(expect.arrayContaining([letterId]));
  });
});
