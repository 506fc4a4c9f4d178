import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { LettersRpc, type Letter, type PublishedEvent, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import { runBackup } from '@lv/platform/backup';
import { scopedStreamName } from '@lv/platform/messaging';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { databaseUrl, generateTestKeys, openRestoreDrill, queryDatabase, uniqueStackId, userTokenSigner, waitFor, type RestoreDrill } from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import type { LettersConfig } from '../src/config.js';
import { lettersMigrations } from '../src/migrations.js';

// Issue 33, erasure survives a restore: back up, delete a letter, restore; the letters service that
// starts on the restored database replays the erasure journal (a database no backup takes), and the
// letter's words are in no table, no dump and no stream.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('erasure');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { LettersService } = await import('../src/letters.service.js');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const hex = () => randomBytes(4).toString('hex');
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const tokenFor = userTokenSigner(keys.privateKey);



describe('an erased letter after a restore of an older snapshot', () => {
  let drill: RestoreDrill;
  let letters: RunningService<LettersConfig> | undefined;
  let rpc: RpcClient;
  const dad = (() => {
    const id = randomUUID();
    return { id, token: tokenFor(id, { email: `${id}@example.com`, emailVerified: true }, 600) };
  })();
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: dad.token, meta: { requestId: 'erasure-spec' } });
  const start = (database: string) => startService(lettersService, {
    DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(drill.journalDatabase), NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent',
  }, { logger: createLogger('erasure-spec', 'silent') });

  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'erasure', service: 'letters', migrations: lettersMigrations.slice(1), startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    letters = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    const nats = letters?.core.nats;
    if (nats) await (await jetstreamManager(nats)).streams.delete(scopedStreamName('letters')).catch(() => undefined);
    await letters?.close();
    await drill?.close();
  });

  it('back up, delete a letter, restore: its words are in no table, no dump and no stream', async () => {
    const words = { title: `Titleword${hex()}`, content: `Bodyword${hex()}`, post: `Postword${hex()}` };
    const letter = await call(LettersRpc.write, { id: randomUUID(), title: `For Ellie ${words.title}`, content: `Dear Ellie, ${words.content} forever.` }) as Letter;
    // A Parent Circle post too: its words are sealed per post and shredded with it, like a letter's.
    const post = await call(LettersRpc.communityPublish, { id: randomUUID(), content: `Our first winter ${words.post}`, author_name: null }) as { id: string };
    const { snapshot } = await runBackup(drill.settings());

    await call(LettersRpc.delete, { id: letter.id });
    await call(LettersRpc.communityDelete, { id: post.id });
    // The erasure reaches the journal outside the snapshots: ids and times, nothing of the letter's words.
    const journaled = () => queryDatabase<Record<string, unknown>>(drill.journalDatabase, `select service, stream_type, stream_id, key_id from erasures where stream_id = $1`, [`letter-${letter.id}`]);
    await waitFor(async () => (await journaled()).length === 1, 10_000, 'the erasure to be journaled');
    expect(await journaled()).toEqual([{ service: 'letters', stream_type: 'letter', stream_id: `letter-${letter.id}`, key_id: letter.id }]);
    const journalDump = (await promisify(execFile)('pg_dump', ['--data-only', databaseUrl(drill.journalDatabase)], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    for (const word of Object.values(words)) expect(journalDump).not.toContain(word);

    // The stack is lost; the snapshot, older than the deletion, is restored into an empty one.
    await letters!.close();
    letters = undefined;
    const restored = await drill.loseAndRestore(snapshot);
    expect(restored.databases).toEqual([drill.restoredDatabase]);
    expect(restored.next.join('\n')).toContain('erasure journal');
    // What the snapshot holds: the letter alive, its words in the read model, its key.
    expect(await queryDatabase(drill.restoredDatabase, 'select id from letters where id = $1', [letter.id])).toEqual([{ id: letter.id }]);
    expect(await queryDatabase(drill.restoredDatabase, 'select letter_id from letter_keys where letter_id = $1', [letter.id])).toEqual([{ letter_id: letter.id }]);
    expect((await queryDatabase(drill.restoredDatabase, 'select 1 from community_posts where id = $1', [post.id])).length).toBe(1);

    // The service starts on the restored database and, before it takes a request, erases again.
    letters = await start(drill.restoredDatabase);
    const tables = (await queryDatabase<{ table_name: string }>(drill.restoredDatabase, `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((t) => t.table_name);
    expect(tables).toEqual(expect.arrayContaining(['events', 'outbox', 'letters', 'letter_keys', 'erasure_journal']));
    for (const word of Object.values(words)) {
      const holding: string[] = [];
      for (const table of tables) if ((await queryDatabase<{ n: number }>(drill.restoredDatabase, `select count(*)::int as n from "${table}" t where t::text ilike $1`, [`%${word}%`]))[0]!.n > 0) holding.push(table);
      expect({ word, holding }).toEqual({ word, holding: [] });
    }
    expect(await queryDatabase(drill.restoredDatabase, 'select 1 from letter_keys where letter_id = $1', [letter.id])).toEqual([]);
    expect((await queryDatabase<{ type: string }>(drill.restoredDatabase, 'select type from events where stream_id = $1 order by version', [`letter-${letter.id}`])).map((e) => e.type)).toEqual(['LetterWritten', 'LetterDeleted']);

    const dump = (await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', databaseUrl(drill.restoredDatabase)], { maxBuffer: 256 * 1024 * 1024 })).stdout;
    expect(dump).toContain(letter.id);
    for (const word of Object.values(words)) expect(dump.toLowerCase()).not.toContain(word.toLowerCase());

    // The event stream gives the facts without the words, and the letter is gone for its owner.
    const { events } = await new LettersService({ orm: letters.core.orm }).store.readStream(letters.core.orm.em.fork(), `letter-${letter.id}`);
    expect(events.map((e) => (e.data as { title?: unknown }).title)).toEqual([null, undefined]);
    await expect(call(LettersRpc.get, { id: letter.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // JetStream carries the deletion again, and never the words.
    await waitFor(async () => (await queryDatabase<{ n: number }>(drill.restoredDatabase, 'select count(*)::int as n from outbox'))[0]!.n === 0, 10_000, 'the outbox to drain');
    const jsm = await jetstreamManager(letters.core.nats);
    const info = await jsm.streams.info(scopedStreamName('letters'));
    const messages: { subject: string; raw: string }[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(scopedStreamName('letters'), { seq }).catch(() => null);
      if (message && (JSON.parse(message.string()) as PublishedEvent).streamId === `letter-${letter.id}`) messages.push({ subject: message.subject, raw: message.string() });
    }
    expect(messages.map((m) => m.subject.split('.').at(-2))).toEqual(['written', 'deleted', 'deleted']);
    for (const message of messages) for (const word of Object.values(words)) expect(message.raw.toLowerCase()).not.toContain(word.toLowerCase());

    // A later start, or the operators' erasures:replay, replays the journal again and finds nothing left to erase.
    await letters.close();
    letters = await start(drill.restoredDatabase);
    expect(await rpc.call(LettersRpc.replayErasures, {}, { accessToken: signOperatorToken(signer, 'spec'), meta: { requestId: 'erasure-spec' } })).toEqual({ records: 4, erasedAgain: 0 });
    await expect(call(LettersRpc.replayErasures, {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await queryDatabase<{ type: string }>(drill.restoredDatabase, 'select type from events where stream_id = $1 order by version', [`letter-${letter.id}`])).map((e) => e.type)).toEqual(['LetterWritten', 'LetterDeleted']);
  });
});
