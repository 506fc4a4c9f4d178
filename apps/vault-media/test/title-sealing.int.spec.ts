// Recording titles are sealed per recording and shredded with it (issue 9): over the real service
// (PostgreSQL, NATS JetStream, Redis, S3 server), and the upgrade of a store written before sealing.
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { VaultMediaRpc, type PublishedEvent, type Recording, type RecordingEvent, type RpcDeclaration } from '@lv/contracts';
import { createOrm, migrateUp, type MikroORM } from '@lv/platform/database';
import { EventStore, PerStreamSealing, rebuildProjections } from '@lv/platform/event-store';
import { connectNats, scopedStreamName } from '@lv/platform/messaging';
import { createTestDatabase, waitFor, type TestDatabase } from '@lv/testing';
import { vaultMediaMigrations } from '../src/migrations.js';
import { vaultMediaPublishPolicy } from '../src/recordings/publish-policy.js';
import { RecordingKeys, recordingSealing, sealTitlesOfExistingRecordings } from '../src/recordings/recording-sealing.js';
import { RECORDING_STREAM_TYPE, recordingStreamId } from '../src/recordings/recording.decider.js';
import { recordingsProjection } from '../src/recordings/recordings.projection.js';
import { NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
/** A word that appears nowhere else: what the leak checks search for. */
const uniqueWord = (label: string) => `${label}${randomBytes(6).toString('hex')}`;
const SEALED = { alg: 'A256GCM', iv: expect.any(String), tag: expect.any(String), ct: expect.any(String) };

/** The store as vault-media runs it: titles sealed under recording_keys. */
const sealedStore = () => new EventStore({
  publish: vaultMediaPublishPolicy, inlineProjections: [recordingsProjection], sealing: new PerStreamSealing([recordingSealing(new RecordingKeys())]),
});

/** Helpers over one database: raw SQL, where a word occurs, a dump, a recording's stream as stored and as read. */
function inspect(orm: MikroORM, url: string) {
  const sql = <T>(query: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(query, params);
  return {
    sql,
    /** Tables in which a row, as text, contains the word (case-insensitive). */
    async tablesHolding(word: string): Promise<string[]> {
      const tables = await sql<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
      const found: string[] = [];
      for (const { table_name } of tables) {
        const [row] = await sql<{ n: number }>(`select count(*)::int as n from "${table_name}" t where t::text ilike ?`, [`%${word}%`]);
        if (row!.n > 0) found.push(table_name);
      }
      return found.sort();
    },
    dump: async () => (await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', url], { maxBuffer: 256 * 1024 * 1024 })).stdout.toLowerCase(),
    storedTitles: async (recordingId: string) =>
      (await sql<{ type: string; title: unknown }>(`select type, data->'title' as title from events where stream_id = ? and jsonb_exists(data, 'title') order by version`, [recordingStreamId(recordingId)])),
    openedTitles: async (recordingId: string) =>
      (await sealedStore().readStream(orm.em.fork(), recordingStreamId(recordingId))).events.filter((e) => 'title' in (e.data as object)).map((e) => (e.data as { title: unknown }).title),
    keyOf: async (recordingId: string) => (await sql<{ data_key: string }>('select data_key from recording_keys where recording_id = ?', [recordingId]))[0]?.data_key ?? null,
  };
}

describe('recording titles sealed per recording, shredded with it', () => {
  let h: Harness;
  let db: ReturnType<typeof inspect>;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token: string) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });

  async function save(token: string, title: string): Promise<Recording> {
    const body = webmBody(4000);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title, sha256: sha(body), size: body.length }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<Recording>();
  }

  /** Every message of this stack's vault-media stream that belongs to the recording. */
  async function publishedOf(recordingId: string): Promise<{ raw: string; data: PublishedEvent }[]> {
    const nc = await connectNats(NATS_URL, 'title-sealing-spec');
    try {
      const jsm = await jetstreamManager(nc);
      const stream = scopedStreamName('vault-media', h.stackId);
      const info = await jsm.streams.info(stream);
      const out: { raw: string; data: PublishedEvent }[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
        if (message) out.push({ raw: message.string(), data: JSON.parse(message.string()) as PublishedEvent });
      }
      return out.filter((m) => m.data.streamId === recordingStreamId(recordingId));
    } finally {
      await nc.close();
    }
  }

  beforeAll(async () => {
    h = await startVaultMedia('sealtitles');
    // The harness's database handle was closed after migrating: open one for assertions.
    (h.db as { orm: unknown }).orm = await createOrm({ databaseUrl: h.db.url, migrations: vaultMediaMigrations, poolMax: 3 });
    db = inspect(h.db.orm, h.db.url);
  });

  afterAll(async () => {
    await h?.resources.hashingQueue.obliterate({ force: true }).catch(() => undefined);
    await h?.db.orm.close().catch(() => undefined);
    (h.db as { orm: unknown }).orm = { close: async () => undefined };
    await h?.close();
  });

  it('keeps a title only sealed in the log; a delete destroys its key, after which no table, dump or published event holds the title', async () => {
    const token = h.tokenFor(randomUUID(), 'pro');
    const title = uniqueWord('Firstbirthday');
    const recording = await save(token, `For Sam ${title}`);

    // Before the delete: the title is in the owner's read model only; the events hold it sealed.
    expect(await db.tablesHolding(title)).toEqual(['recordings']);
    expect(await db.storedTitles(recording.id)).toEqual([{ type: 'RecordingUploadStarted', title: SEALED }, { type: 'RecordingSaved', title: SEALED }]);
    expect(await db.openedTitles(recording.id)).toEqual([`For Sam ${title}`, `For Sam ${title}`]);
    const key = await db.keyOf(recording.id);
    expect(key).toEqual(expect.any(String));
    expect(await call(VaultMediaRpc.titles, { ids: [recording.id] }, token)).toEqual({ titles: { [recording.id]: `For Sam ${title}` }, playback: {} });

    expect(await call(VaultMediaRpc.deleteEntry, { id: recording.id }, token)).toEqual({ id: recording.id, deleted: true });

    // The key is gone from every table (so from every backup taken from now on), and the title with it.
    expect(await db.keyOf(recording.id)).toBeNull();
    expect(await db.tablesHolding(key!)).toEqual([]);
    expect(await db.tablesHolding(title)).toEqual([]);
    const dumped = await db.dump();
    expect(dumped).toContain(recording.id); // the dump holds the recording's history...
    expect(dumped).not.toContain(title.toLowerCase()); // ...but not its title...
    expect(dumped).not.toContain(key!.toLowerCase()); // ...nor a key that would open it.
    // The history keeps its facts; the sealed titles stay in the rows, and reading them gives null.
    expect((await db.sql<{ type: string }>('select type from events where stream_id = ? order by version', [recordingStreamId(recording.id)])).map((e) => e.type))
      .toEqual(['RecordingUploadStarted', 'RecordingSaved', 'RecordingDeleted']);
    expect(await db.storedTitles(recording.id)).toEqual([{ type: 'RecordingUploadStarted', title: SEALED }, { type: 'RecordingSaved', title: SEALED }]);
    expect(await db.openedTitles(recording.id)).toEqual([null, null]);
    expect(await call(VaultMediaRpc.titles, { ids: [recording.id] }, token)).toEqual({ titles: {}, playback: {} });

    // JetStream never carried the title (published: saved and deleted, facts only).
    await waitFor(async () => (await publishedOf(recording.id)).length === 2, 15_000, 'the saved and deleted events on JetStream');
    for (const message of await publishedOf(recording.id)) {
      expect(message.data.data).not.toHaveProperty('title');
      expect(message.raw.toLowerCase()).not.toContain(title.toLowerCase());
    }
  });

  it('shreds the title of an upload that was abandoned (it can never be saved)', async () => {
    const token = h.tokenFor(randomUUID(), 'pro');
    const title = uniqueWord('Neverfinished');
    const body = webmBody(3000);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title, sha256: sha(body), size: body.length }, token);
    expect(await db.keyOf(ticket.uploadId)).toEqual(expect.any(String));
    expect(await db.tablesHolding(title)).toEqual([]);

    expect(await h.service.discardUpload(ticket.uploadId, 'the client went away')).toBe(true);

    expect(await db.keyOf(ticket.uploadId)).toBeNull();
    expect(await db.openedTitles(ticket.uploadId)).toEqual([null]);
    expect((await db.dump())).not.toContain(title.toLowerCase());
  });

  it('brings the titles of live recordings back in a projection rebuild, and not those of deleted ones', async () => {
    const token = h.tokenFor(randomUUID(), 'pro');
    const kept = await save(token, uniqueWord('Kept'));
    const gone = await save(token, uniqueWord('Gone'));
    await call(VaultMediaRpc.deleteEntry, { id: gone.id }, token);
    const before = await db.sql<Record<string, unknown>>('select * from recordings order by id');
    expect(before.find((r) => r.id === kept.id)).toMatchObject({ title: kept.title });

    await h.service.rebuildProjections();

    expect(await db.sql('select * from recordings order by id')).toEqual(before);
    expect(await call(VaultMediaRpc.titles, { ids: [kept.id, gone.id] }, token)).toEqual({ titles: { [kept.id]: kept.title }, playback: {} });
  });
});

describe('upgrade of a store written before titles were sealed (migration vault-media-seal-titles)', () => {
  let legacy: TestDatabase;
  let orm: MikroORM | undefined;

  afterAll(async () => {
    await orm?.close().catch(() => undefined);
    await legacy?.drop();
  });

  it('seals the plaintext titles of live recordings, removes those of deleted or abandoned ones, and a rebuild brings back only the live ones', async () => {
    // Every migration before the sealing one (createTestDatabase adds the event store's itself).
    const before = vaultMediaMigrations.slice(1, vaultMediaMigrations.findIndex((m) => m.name === 'vault-media-seal-titles-2026-11-24'));
    legacy = await createTestDatabase(before, 'sealupgrade');
    // The store as it was: no sealing hook, titles in the clear. Its read model is written below as the
    // projection of the time did (today's projection writes columns later migrations added).
    const plainStore = new EventStore({ publish: vaultMediaPublishPolicy });
    const ownerId = randomUUID();
    const titles = { live: uniqueWord('Live'), deleted: uniqueWord('Deleted'), abandoned: uniqueWord('Abandoned') };
    const ids = { live: randomUUID(), deleted: randomUUID(), abandoned: randomUUID() };
    const at = '2026-11-20T10:00:00.000Z';
    const started = (id: string, title: string): RecordingEvent => ({
      type: 'RecordingUploadStarted',
      data: { recordingId: id, ownerId, type: 'audio', title, bucket: 'vaultmedia', objectKey: `${ownerId}/audio_${id}.webm`, contentType: 'audio/webm', clientSha256: sha(Buffer.from(id)), declaredSize: 10, startedAt: at },
    });
    const saved = (id: string, title: string): RecordingEvent => ({
      type: 'RecordingSaved',
      data: { recordingId: id, ownerId, type: 'audio', title, bucket: 'vaultmedia', objectKey: `${ownerId}/audio_${id}.webm`, contentType: 'audio/webm', size: 10, sha256: sha(Buffer.from(id)), savedAt: at },
    });
    const append = (id: string, events: RecordingEvent[]) => plainStore.appendToStream(legacy.orm.em.fork(), recordingStreamId(id), RECORDING_STREAM_TYPE, 'any', events);
    await append(ids.live, [started(ids.live, titles.live), saved(ids.live, titles.live)]);
    await legacy.orm.em.fork().execute(
      `insert into recordings (id, user_id, type, title, bucket, object_key, content_type, size, sha256, created_at) values (?, ?, 'audio', ?, 'vaultmedia', ?, 'audio/webm', 10, ?, ?)`,
      [ids.live, ownerId, titles.live, `${ownerId}/audio_${ids.live}.webm`, sha(Buffer.from(ids.live)), at],
    );
    await append(ids.deleted, [started(ids.deleted, titles.deleted), saved(ids.deleted, titles.deleted)]);
    await append(ids.deleted, [{ type: 'RecordingDeleted', data: { recordingId: ids.deleted, ownerId, bucket: 'vaultmedia', objectKey: `${ownerId}/audio_${ids.deleted}.webm`, deletedAt: at } }]);
    await append(ids.abandoned, [started(ids.abandoned, titles.abandoned), { type: 'RecordingUploadAbandoned', data: { recordingId: ids.abandoned, ownerId, reason: 'stalled', abandonedAt: at } }]);
    const old = inspect(legacy.orm, legacy.url);
    // Today's leak: the deleted recording's title is readable in the event log.
    expect(await old.tablesHolding(titles.deleted)).toEqual(['events']);
    await legacy.orm.close();

    orm = await createOrm({ databaseUrl: legacy.url, migrations: vaultMediaMigrations, poolMax: 3 });
    // The sealing upgrade, and every migration after it.
    const sealing = vaultMediaMigrations.findIndex((m) => m.name === 'vault-media-seal-titles-2026-11-24');
    expect(await migrateUp(orm)).toEqual(vaultMediaMigrations.slice(sealing).map((m) => m.name));
    const db = inspect(orm, legacy.url);

    expect(await db.tablesHolding(titles.live)).toEqual(['recordings']);
    expect(await db.storedTitles(ids.live)).toEqual([{ type: 'RecordingUploadStarted', title: SEALED }, { type: 'RecordingSaved', title: SEALED }]);
    expect(await db.openedTitles(ids.live)).toEqual([titles.live, titles.live]);
    for (const gone of ['deleted', 'abandoned'] as const) {
      expect(await db.keyOf(ids[gone])).toBeNull();
      expect(await db.openedTitles(ids[gone])).toEqual(gone === 'deleted' ? [null, null] : [null]);
    }
    const dumped = await db.dump();
    expect(dumped).not.toContain(titles.deleted.toLowerCase());
    expect(dumped).not.toContain(titles.abandoned.toLowerCase());
    // Idempotent: nothing is left to seal.
    expect(await orm.em.fork().transactional((em) => sealTitlesOfExistingRecordings(em, new RecordingKeys()))).toEqual({ sealed: 0, removed: 0 });

    await rebuildProjections(orm.em, sealedStore(), [recordingsProjection]);
    expect(await db.sql<{ id: string; title: string }>('select id::text as id, title from recordings order by id')).toEqual([{ id: ids.live, title: titles.live }]);
  });
});
