import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  ABOUT_ME_MAX, LettersEvents, LettersRpc, PortraitMessages, REFLECTION_MAX, type Letter, type PublishedEvent, type RpcDeclaration,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedStreamName } from '@lv/platform/messaging';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { createTestDatabase, generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import type { LettersConfig } from '../src/config.js';
import { lettersMigrations } from '../src/migrations.js';

// The letters service in-process over the shared NATS (a STACK_ID of its own) and a fresh
// PostgreSQL database, called the way the gateway calls it: RpcClient with a user's access token.

jest.setTimeout(60_000);

// Subjects are fixed when the controller module loads: choose this spec's stack first.
const STACK_ID = uniqueStackId('letters');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { DurableConsumer } = await import('@lv/platform/event-store');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const meta = { requestId: 'letters-spec' };

interface User { id: string; token: string }
const newUser = (): User => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token };
};
/** A word that appears nowhere else: what the erasure checks search for. */
const uniqueWord = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

class HandledEventsSchema extends Migration {
  override async up(): Promise<void> {
    // No unique key on purpose: an event handled twice shows up as two rows.
    this.addSql('create table handled_events (id bigserial primary key, event_id uuid not null, subject text not null, payload jsonb not null)');
  }
}

describe('letters service over NATS', () => {
  let db: TestDatabase;
  let consumerDb: TestDatabase;
  let letters: RunningService<LettersConfig>;
  let rpc: RpcClient;
  let consumer: InstanceType<typeof DurableConsumer>;

  // Unchecked payloads: these specs also send what the types would refuse (a forged owner, a bad id).
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, user?: User | string) =>
    rpc.callUnchecked(declaration, payload, { accessToken: typeof user === 'string' ? user : user?.token, meta });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const write = (user: User, title: string, content: string, id: string = randomUUID()) => call(LettersRpc.write, { id, title, content }, user);
  const list = (user: User, payload: object = {}) => call(LettersRpc.list, payload, user);
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);

  beforeAll(async () => {
    // Migrated with the service's own migrations (the event store's come first in both lists), so the
    // service finds nothing pending; db.orm stays open for the spec's own queries.
    db = await createTestDatabase(lettersMigrations.slice(1), 'letters');
    const logger = createLogger('letters-spec', 'silent');
    letters = await startService(lettersService, { DATABASE_URL: db.url, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent' }, { logger });
    rpc = new RpcClient(NATS_URL, 5000);
    await rpc.connect();

    // A consumer of letters' events in a database of its own, as the timeline will be.
    consumerDb = await createTestDatabase([{ name: 'handled-events', class: HandledEventsSchema }], 'lettercons');
    consumer = new DurableConsumer({
      name: 'letters-spec-consumer', source: 'letters', events: Object.values(LettersEvents), orm: consumerDb.orm, nats: letters.core.nats, logger, stackId: STACK_ID,
      handle: async (em, event) => {
        await em.execute('insert into handled_events (event_id, subject, payload) values (?, ?, ?::jsonb)', [event.eventId, event.subject, JSON.stringify(event)]);
      },
    });
    await consumer.start();
  });

  afterAll(async () => {
    await consumer?.stop();
    await rpc?.close();
    await letters?.close();
    const { connectNats } = await import('@lv/platform/messaging');
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('letters')).catch(() => undefined);
    await nc.close();
    await consumerDb?.drop();
    await db?.drop();
  });

  it('answers health without a token', async () => {
    expect(await call(LettersRpc.health, {})).toEqual({ service: 'letters', status: 'up', checks: { postgres: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('writes, lists (newest first, with date, word count and the first 100 characters), reads, revises and deletes', async () => {
    const dad = newUser();
    const long = `${'Dear Sam, '.repeat(15)}the end.`;
    const first = await write(dad, '  First letter ', `\n ${long} \n`);
    expect(first).toMatchObject({ title: 'First letter', content: long, word_count: 32, version: 1 });
    expect(first.preview).toBe(long.slice(0, 100));
    expect(first.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(first.updated_at).toBe(first.created_at);
    const second = await write(dad, 'Second letter', 'Short and sweet.');

    const page = await list(dad);
    expect(page.nextCursor).toBeNull();
    expect(page.letters.map((l) => l.id)).toEqual([second.id, first.id]);
    expect(page.letters[1]).toEqual({
      id: first.id, title: 'First letter', preview: first.preview, word_count: 32, created_at: first.created_at, updated_at: first.updated_at, version: 1, milestone: null,
    });
    expect(page.letters[1]).not.toHaveProperty('content');

    expect(await call(LettersRpc.get, { id: first.id }, dad)).toEqual(first);
    const revised = await call(LettersRpc.revise, { id: first.id, title: 'First letter, again', content: 'Fewer words now.', expectedVersion: 1 }, dad);
    expect(revised).toMatchObject({ id: first.id, title: 'First letter, again', content: 'Fewer words now.', word_count: 3, version: 2, created_at: first.created_at });
    expect(Date.parse(revised.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at));

    expect(await call(LettersRpc.delete, { id: first.id }, dad)).toEqual({ id: first.id, deleted: true });
    expect((await list(dad)).letters.map((l) => l.id)).toEqual([second.id]);
    expect(await codeOf(call(LettersRpc.get, { id: first.id }, dad))).toBe('NOT_FOUND');
  });

  it('refuses blank titles and bodies with the shared messages, and stores nothing', async () => {
    const dad = newUser();
    await expect(write(dad, '   ', '')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { fields: { title: 'Please give your letter a title.', content: 'Please write something in your letter.' } },
    });
    const letter = await write(dad, 'Kept', 'Kept words.');
    expect(await codeOf(call(LettersRpc.revise, { id: letter.id, title: 'Kept', content: '  ', expectedVersion: 1 }, dad))).toBe('VALIDATION_FAILED');
    expect((await list(dad)).letters).toHaveLength(1);
    expect(await codeOf(call(LettersRpc.write, { id: 'not-a-uuid', title: 'x', content: 'y' }, dad))).toBe('VALIDATION_FAILED');
  });

  it('scopes everything to the owner: a second user gets NOT_FOUND for read, revise and delete by id, and an empty list', async () => {
    const alice = newUser();
    const bob = newUser();
    const letter = await write(alice, 'For my son', 'Only for him.');
    expect(await codeOf(call(LettersRpc.get, { id: letter.id }, bob))).toBe('NOT_FOUND');
    expect(await codeOf(call(LettersRpc.revise, { id: letter.id, title: 'Mine now', content: 'Overwritten', expectedVersion: 1 }, bob))).toBe('NOT_FOUND');
    // Even with a wrong version the stranger learns nothing more than "not found".
    expect(await codeOf(call(LettersRpc.revise, { id: letter.id, title: 'Mine now', content: 'Overwritten', expectedVersion: 7 }, bob))).toBe('NOT_FOUND');
    expect(await codeOf(call(LettersRpc.delete, { id: letter.id }, bob))).toBe('NOT_FOUND');
    // A payload naming an owner changes nothing: the owner is the verified caller.
    expect((await call(LettersRpc.list, { ownerId: alice.id }, bob)).letters).toEqual([]);
    expect(await codeOf(call(LettersRpc.get, { id: randomUUID() }, alice))).toBe('NOT_FOUND');
    expect(await codeOf(call(LettersRpc.get, { id: "x' or 1=1 --" }, alice))).toBe('NOT_FOUND');
    // Alice's letter is untouched.
    expect(await call(LettersRpc.get, { id: letter.id }, alice)).toMatchObject({ title: 'For my son', content: 'Only for him.', version: 1 });
    // No token, a forged token, an operator token: refused.
    expect(await codeOf(call(LettersRpc.list, {}))).toBe('UNAUTHENTICATED');
    const forged = new AccessTokenSigner(generateTestKeys().privateKey).sign({ sub: alice.id, sid: randomUUID(), email: '', tier: 'none', admin: false, kind: 'user' }, 60).token;
    expect(await codeOf(call(LettersRpc.list, {}, forged))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(LettersRpc.list, {}, signOperatorToken(signer, 'spec')))).toBe('FORBIDDEN');
  });

  it('lets exactly one of two (and of eight) concurrent revisions at one version win; the others get CONFLICT and overwrite nothing', async () => {
    const dad = newUser();
    const letter = await write(dad, 'Draft', 'Version one.');
    const [a, b] = await Promise.allSettled([
      call(LettersRpc.revise, { id: letter.id, title: 'Draft', content: 'Edited in the kitchen.', expectedVersion: 1 }, dad),
      call(LettersRpc.revise, { id: letter.id, title: 'Draft', content: 'Edited on the phone.', expectedVersion: 1 }, dad),
    ]);
    const outcomes = [a!, b!];
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const loser = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(loser.reason).toMatchObject({ code: 'CONFLICT', message: 'This was changed elsewhere. Reload to see the latest version.' });
    const winner = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<Letter>).value;
    expect(await call(LettersRpc.get, { id: letter.id }, dad)).toMatchObject({ content: winner.content, version: 2 });

    // After a reload (version 2) the second editor can save.
    expect(await call(LettersRpc.revise, { id: letter.id, title: 'Draft', content: 'Edited after reloading.', expectedVersion: 2 }, dad)).toMatchObject({ version: 3 });

    const racers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) =>
      call(LettersRpc.revise, { id: letter.id, title: 'Draft', content: `Racer ${i}.`, expectedVersion: 3 }, dad)));
    expect(racers.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of racers) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'CONFLICT' });
    const [{ n }] = await sql<{ n: number }>('select count(*)::int as n from events where stream_id = ?', [`letter-${letter.id}`]) as [{ n: number }];
    expect(n).toBe(4);
  });

  it('makes a retried write harmless: the same id and words answer the same letter, once in the store', async () => {
    const dad = newUser();
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 6 }, () => write(dad, 'Sent twice', 'The network hiccuped.', id)));
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(await sql('select type from events where stream_id = ?', [`letter-${id}`])).toEqual([{ type: 'LetterWritten' }]);
    expect(await codeOf(write(dad, 'Sent twice', 'Different words.', id))).toBe('CONFLICT');
    expect(await codeOf(write(newUser(), 'Sent twice', 'The network hiccuped.', id))).toBe('CONFLICT');
    expect((await list(dad)).letters).toHaveLength(1);
  });

  it('pages the list newest first without skipping or repeating a letter', async () => {
    const dad = newUser();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await write(dad, `Letter ${i}`, `Words ${i}.`)).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await list(dad, { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.letters.map((l) => l.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(await codeOf(list(dad, { cursor: 'bogus' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(list(dad, { limit: 10_000 }))).toBe('VALIDATION_FAILED');
  });

  it('really removes a deleted letter’s words: not in any table, not in a dump of the database, not on JetStream; the history keeps the facts', async () => {
    const dad = newUser();
    const words = { title: uniqueWord('Titleword'), content: uniqueWord('Bodyword'), revisedTitle: uniqueWord('Newtitle'), revisedContent: uniqueWord('Newbody') };
    const letter = await write(dad, `Letter ${words.title}`, `Dear Ellie, ${words.content} forever.`);
    await call(LettersRpc.revise, { id: letter.id, title: `Letter ${words.revisedTitle}`, content: `Dear Ellie, ${words.revisedContent} always.`, expectedVersion: 1 }, dad);

    const tables = (await sql<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((t) => t.table_name);
    expect(tables).toEqual(expect.arrayContaining(['events', 'outbox', 'letters', 'letter_keys', 'letter_activity_days']));
    /** Tables in which a row, as text, contains the word (case-insensitive). */
    const tablesHolding = async (word: string) => {
      const found: string[] = [];
      for (const table of tables) {
        const [row] = await sql<{ n: number }>(`select count(*)::int as n from "${table}" t where t::text ilike ?`, [`%${word}%`]);
        if (row!.n > 0) found.push(table);
      }
      return found;
    };
    const dump = async () => (await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', db.url], { maxBuffer: 256 * 1024 * 1024 })).stdout;

    // Before the delete: the words are only in the owner's read model; the events hold them sealed.
    expect(await tablesHolding(words.revisedContent)).toEqual(['letters']);
    expect(await tablesHolding(words.content)).toEqual([]);
    const events = await sql<{ type: string; data: Record<string, unknown> }>('select type, data from events where stream_id = ? order by version', [`letter-${letter.id}`]);
    expect(events[0]!.data.title).toMatchObject({ alg: 'A256GCM', iv: expect.any(String), tag: expect.any(String), ct: expect.any(String) });

    await call(LettersRpc.delete, { id: letter.id }, dad);

    for (const word of Object.values(words)) {
      expect({ word, tables: await tablesHolding(word) }).toEqual({ word, tables: [] });
    }
    const dumped = await dump();
    expect(dumped).toContain(letter.id); // the dump does hold the letter's history...
    for (const word of Object.values(words)) expect(dumped.toLowerCase()).not.toContain(word.toLowerCase()); // ...but none of its words
    // The history keeps that the letter was written, revised and deleted; its key is gone.
    expect((await sql<{ type: string }>('select type from events where stream_id = ? order by version', [`letter-${letter.id}`])).map((e) => e.type))
      .toEqual(['LetterWritten', 'LetterRevised', 'LetterDeleted']);
    expect(await sql('select 1 from letter_keys where letter_id = ?', [letter.id])).toEqual([]);
    // Reading the stream gives the facts without the words.
    const { LettersService } = await import('../src/letters.service.js');
    const { events: opened } = await new LettersService({ orm: db.orm }).store.readStream(db.orm.em.fork(), `letter-${letter.id}`);
    expect(opened.map((e) => (e.data as { title?: unknown }).title)).toEqual([null, null, undefined]);

    // JetStream never carried the words.
    await waitFor(async () => (await sql<{ n: number }>('select count(*)::int as n from outbox'))[0]!.n === 0, 10_000, 'the outbox to drain');
    const messages = await streamMessages();
    const ofLetter = messages.filter((m) => m.data.streamId === `letter-${letter.id}`);
    expect(ofLetter.map((m) => m.subject)).toEqual([LettersEvents.LetterWritten.subject, LettersEvents.LetterRevised.subject, LettersEvents.LetterDeleted.subject].map((s) => `${STACK_ID}.${s}`));
    for (const message of ofLetter) {
      expect(Object.keys(message.data.data as object).sort()).toEqual(expect.arrayContaining(['letterId', 'ownerId']));
      expect(message.data.data).not.toHaveProperty('title');
      expect(message.data.data).not.toHaveProperty('content');
      for (const word of Object.values(words)) expect(message.raw.toLowerCase()).not.toContain(word.toLowerCase());
    }
  });

  /** Every message of this stack's letters stream, in order. */
  async function streamMessages(): Promise<{ subject: string; raw: string; data: PublishedEvent }[]> {
    const jsm = await jetstreamManager(letters.core.nats);
    const info = await jsm.streams.info(scopedStreamName('letters'));
    const out: { subject: string; raw: string; data: PublishedEvent }[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(scopedStreamName('letters'), { seq }).catch(() => null);
      if (!message) continue;
      const raw = message.string();
      out.push({ subject: message.subject, raw, data: JSON.parse(raw) as PublishedEvent });
    }
    return out;
  }

  it('counts letters (not court documents) and the days they were written or revised for the vault home', async () => {
    const dad = newUser();
    expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 0, thoughtsSaved: 0, activeDays: [] });
    const a = await write(dad, 'One', 'One.');
    await write(dad, 'Two', 'Two.');
    const gone = await write(dad, 'Three', 'Three.');
    await call(LettersRpc.delete, { id: gone.id }, dad);
    await call(LettersRpc.revise, { id: a.id, title: 'One', content: 'One, revised.', expectedVersion: 1 }, dad);
    // A letter written on another day (through the store, to choose the day).
    const { LettersService } = await import('../src/letters.service.js');
    const { handleCommand } = await import('@lv/platform/event-store');
    const { letterDecider } = await import('../src/letters/letter.decider.js');
    const service = new LettersService({ orm: db.orm });
    const oldId = randomUUID();
    await handleCommand(db.orm.em, service.store, letterDecider, { type: 'WriteLetter', letterId: oldId, ownerId: dad.id, title: 'Old', content: 'Old words.', now: '2026-01-15T23:30:00.000Z' }, { streamId: `letter-${oldId}`, streamType: 'letter' });
    const today = new Date().toISOString().slice(0, 10);
    expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 3, thoughtsSaved: 0, activeDays: ['2026-01-15', today].sort() });
    expect(await call(LettersRpc.stats, {}, newUser())).toEqual({ lettersWritten: 0, thoughtsSaved: 0, activeDays: [] });
  });

  describe('the vault home reflection ("Thoughts & Feelings")', () => {
    const getReflection = (user: User) => call(LettersRpc.reflectionGet, {}, user);
    const saveReflection = (user: User, text: unknown) => call(LettersRpc.reflectionSave, { text }, user);
    const eventsOf = (user: User) =>
      sql<{ type: string; data: Record<string, unknown>; raw: string }>('select type, data, data::text as raw from events where stream_id = ? order by version', [`reflection-${user.id}`]);

    it('saves (trimmed), reads back, replaces and clears (a blank text), one stream per user', async () => {
      const dad = newUser();
      expect(await getReflection(dad)).toEqual({ text: '', updated_at: null });
      const first = await saveReflection(dad, '  A quiet morning, thinking of you both.\n');
      expect(first).toEqual({ text: 'A quiet morning, thinking of you both.', updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
      expect(await getReflection(dad)).toEqual(first);
      // The same words again record nothing.
      expect(await saveReflection(dad, 'A quiet morning, thinking of you both.')).toEqual(first);
      const second = await saveReflection(dad, 'A louder evening.');
      expect(second.text).toBe('A louder evening.');
      expect(await saveReflection(dad, '  \n ')).toEqual({ text: '', updated_at: null });
      expect(await getReflection(dad)).toEqual({ text: '', updated_at: null });
      expect((await eventsOf(dad)).map((e) => e.type)).toEqual(['ReflectionSaved', 'ReflectionSaved', 'ReflectionCleared']);
      // Saved again after a clear, under the same key.
      expect((await saveReflection(dad, 'Back again.')).text).toBe('Back again.');
      expect(await sql('select count(*)::int as n from reflection_keys where owner_id = ?', [dad.id])).toEqual([{ n: 1 }]);
    });

    it('refuses more than 20,000 characters (after trimming) and saves nothing; no token is UNAUTHENTICATED', async () => {
      const dad = newUser();
      expect((await saveReflection(dad, ` ${'x'.repeat(REFLECTION_MAX)} `)).text).toHaveLength(REFLECTION_MAX);
      await expect(saveReflection(dad, 'y'.repeat(REFLECTION_MAX + 1))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED', details: { fields: { text: 'A reflection can be at most 20,000 characters.' } },
      });
      expect(await codeOf(saveReflection(dad, 42))).toBe('VALIDATION_FAILED');
      expect((await getReflection(dad)).text).toBe('x'.repeat(REFLECTION_MAX));
      expect(await codeOf(call(LettersRpc.reflectionGet, {}))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(LettersRpc.reflectionSave, { text: 'x' }))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(LettersRpc.reflectionGet, {}, signOperatorToken(signer, 'spec')))).toBe('FORBIDDEN');
    });

    it('is the caller’s own: another user’s token never reads or changes it, whatever the payload says', async () => {
      const alice = newUser();
      const bob = newUser();
      const words = uniqueWord('Alicesecret');
      await saveReflection(alice, `Only for me: ${words}`);
      expect(await getReflection(bob)).toEqual({ text: '', updated_at: null });
      expect(await call(LettersRpc.reflectionGet, { ownerId: alice.id, userId: alice.id }, bob)).toEqual({ text: '', updated_at: null });
      // Bob "clearing" or saving with Alice's id in the payload touches only his own reflection.
      await call(LettersRpc.reflectionSave, { text: '', ownerId: alice.id, userId: alice.id }, bob);
      await call(LettersRpc.reflectionSave, { text: 'Bob’s own words.', ownerId: alice.id }, bob);
      expect((await getReflection(alice)).text).toBe(`Only for me: ${words}`);
      expect((await getReflection(bob)).text).toBe('Bob’s own words.');
      expect(await sql('select user_id::text as user_id from reflections where user_id in (?, ?) order by text', [alice.id, bob.id])).toHaveLength(2);
    });

    it('keeps the text encrypted at rest in the events (sealed with the stream’s key, bound to its owner), in the clear only in the owner’s read model', async () => {
      const dad = newUser();
      const words = uniqueWord('Reflectionword');
      await saveReflection(dad, `Dear Ellie, ${words}.`);
      const [event] = await eventsOf(dad);
      expect(event!.type).toBe('ReflectionSaved');
      expect(event!.data).toEqual({ ownerId: dad.id, savedAt: expect.any(String), text: { alg: 'A256GCM', iv: expect.any(String), tag: expect.any(String), ct: expect.any(String) } });
      expect(event!.raw.toLowerCase()).not.toContain(words.toLowerCase());
      expect(event!.raw).not.toContain('Dear Ellie');
      const holding = await sql<{ t: string }>(
        `select 'events' as t from events e where e::text ilike ? union all select 'outbox' from outbox o where o::text ilike ? union all select 'reflections' from reflections r where r::text ilike ?`,
        [`%${words}%`, `%${words}%`, `%${words}%`],
      );
      expect(holding.map((r) => r.t)).toEqual(['reflections']);
      // The store opens it again with the key; a sealed text moved into another user's stream would not open.
      const { LettersService } = await import('../src/letters.service.js');
      const { events: opened } = await new LettersService({ orm: db.orm }).store.readStream(db.orm.em.fork(), `reflection-${dad.id}`);
      expect((opened[0]!.data as { text: string }).text).toBe(`Dear Ellie, ${words}.`);
    });

    it('counts as "Thoughts Saved" (0 or 1), and its save day as an active day', async () => {
      const dad = newUser();
      const today = new Date().toISOString().slice(0, 10);
      expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 0, thoughtsSaved: 0, activeDays: [] });
      await saveReflection(dad, 'Something on my mind.');
      expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 0, thoughtsSaved: 1, activeDays: [today] });
      await write(dad, 'A letter', 'Written today too.');
      expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 1, thoughtsSaved: 1, activeDays: [today] });
      await saveReflection(dad, ' ');
      expect(await call(LettersRpc.stats, {}, dad)).toEqual({ lettersWritten: 1, thoughtsSaved: 0, activeDays: [today] });
      await saveReflection(dad, 'Kept for the rebuild below.');
    });

    it('is never published: no outbox row, no JetStream message of a reflection stream', async () => {
      // Its own reflections (saved, replaced, cleared) and a letter, so the stream has something in it.
      const dad = newUser();
      await saveReflection(dad, 'Published? Never.');
      await saveReflection(dad, 'Still never.');
      await saveReflection(dad, '');
      await write(dad, 'A published letter', 'Its facts go out, its words do not.');
      await waitFor(async () => (await sql<{ n: number }>('select count(*)::int as n from outbox'))[0]!.n === 0, 10_000, 'the outbox to drain');
      const [{ n }] = (await sql<{ n: number }>(`select count(*)::int as n from events where stream_id = ?`, [`reflection-${dad.id}`])) as [{ n: number }];
      expect(n).toBe(3);
      const messages = await streamMessages();
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.filter((m) => m.data.streamId.startsWith('reflection-') || /reflection/i.test(m.subject))).toEqual([]);
    });
  });

  describe('the Who I Am portrait', () => {
    const portrait = (over: Record<string, unknown> = {}) => ({ about_me: '', personality_traits: [], favorite_music: '', favorite_films: '', core_values: [], ...over });
    const getPortrait = (user: User) => call(LettersRpc.portraitGet, {}, user);
    const savePortrait = (user: User, over: Record<string, unknown>) => call(LettersRpc.portraitSave, portrait(over), user);
    const EMPTY = { ...portrait(), updated_at: null };

    it('saves the whole portrait (normalised), reads it back, replaces it, and lists its filled sections', async () => {
      const dad = newUser();
      expect(await getPortrait(dad)).toEqual(EMPTY);
      expect(await call(LettersRpc.portraitSections, {}, dad)).toEqual([]);
      const first = await savePortrait(dad, { about_me: '  A father of two.\n', personality_traits: ['Patient', 'Kind'], favorite_films: ' Paddington ', core_values: ['honesty', ' ', 'courage '] });
      expect(first).toEqual({
        about_me: 'A father of two.', personality_traits: ['Kind', 'Patient'], favorite_music: '', favorite_films: 'Paddington', core_values: ['honesty', 'courage'],
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      expect(await getPortrait(dad)).toEqual(first);
      expect((await call(LettersRpc.portraitSections, {}, dad)).map((s) => s.section)).toEqual(['About Me', 'Personality Traits', 'Favorites', 'Core Values']);
      // The same portrait again records nothing; a new one replaces every field.
      await savePortrait(dad, { about_me: 'A father of two.', personality_traits: ['Kind', 'Patient'], favorite_films: 'Paddington', core_values: ['honesty', 'courage'] });
      const second = await savePortrait(dad, { favorite_music: 'Nick Drake' });
      expect(second).toEqual({ ...EMPTY, favorite_music: 'Nick Drake', updated_at: expect.any(String) });
      expect(await sql('select type from events where stream_id = ? order by version', [`portrait-${dad.id}`])).toEqual([{ type: 'PortraitSaved' }, { type: 'PortraitSaved' }]);
    });

    it('refuses an unknown trait or an over-long field and keeps what was saved; no token is UNAUTHENTICATED', async () => {
      const dad = newUser();
      await savePortrait(dad, { about_me: 'Kept.' });
      await expect(savePortrait(dad, { personality_traits: ['Grumpy'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: PortraitMessages.unknownTrait });
      await expect(savePortrait(dad, { about_me: 'x'.repeat(ABOUT_ME_MAX + 1) })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { aboutMe: PortraitMessages.aboutMeTooLong } } });
      expect(await codeOf(call(LettersRpc.portraitSave, { about_me: 'no other field' }, dad))).toBe('VALIDATION_FAILED');
      expect((await getPortrait(dad)).about_me).toBe('Kept.');
      expect(await codeOf(call(LettersRpc.portraitGet, {}))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(LettersRpc.portraitSave, portrait()))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(LettersRpc.portraitGet, {}, signOperatorToken(signer, 'spec')))).toBe('FORBIDDEN');
    });

    it('is the caller’s own and sealed at rest: another user never reads or changes it, and no event holds its words', async () => {
      const alice = newUser();
      const bob = newUser();
      const words = uniqueWord('Portraitword');
      await savePortrait(alice, { about_me: `Only mine: ${words}`, core_values: [words] });
      expect(await getPortrait(bob)).toEqual(EMPTY);
      await call(LettersRpc.portraitSave, { ...portrait({ about_me: 'Bob’s.' }), ownerId: alice.id, userId: alice.id }, bob);
      expect((await getPortrait(alice)).about_me).toBe(`Only mine: ${words}`);
      expect((await getPortrait(bob)).about_me).toBe('Bob’s.');
      const holding = await sql<{ t: string }>(
        `select 'events' as t from events e where e::text ilike ? union all select 'outbox' from outbox o where o::text ilike ? union all select 'portraits' from portraits p where p::text ilike ?`,
        [`%${words}%`, `%${words}%`, `%${words}%`],
      );
      expect(holding.map((r) => r.t)).toEqual(['portraits']);
      const [event] = await sql<{ data: Record<string, unknown> }>('select data from events where stream_id = ?', [`portrait-${alice.id}`]);
      expect(event!.data).toEqual({ ownerId: alice.id, savedAt: expect.any(String), portrait: { alg: 'A256GCM', iv: expect.any(String), tag: expect.any(String), ct: expect.any(String) } });
    });
  });

  it('rebuilds its read models from the events to the same state, leaving deleted letters deleted (operator only)', async () => {
    // Its own data, whatever ran before: written, revised and deleted letters, kept and cleared reflections.
    const mum = newUser();
    const kept = await write(mum, 'Kept', 'Kept words.');
    await call(LettersRpc.revise, { id: kept.id, title: 'Kept, revised', content: 'Kept, with more words.', expectedVersion: 1 }, mum);
    const gone = await write(mum, 'Gone', 'Gone words.');
    await call(LettersRpc.delete, { id: gone.id }, mum);
    const third = await write(mum, 'Third', 'Third words.');
    // Seals: one kept (and revised after it, so the letter's version counts the seal's event), one removed.
    const seal = { until: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10), time_zone: 'Europe/Paris', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' };
    const sealedKept = await call(LettersRpc.seal, { id: kept.id, ...seal }, mum);
    await call(LettersRpc.revise, { id: kept.id, title: 'Kept, revised again', content: 'Kept, sealed.', expectedVersion: sealedKept.version }, mum);
    await call(LettersRpc.seal, { id: third.id, ...seal }, mum);
    await call(LettersRpc.unseal, { id: third.id }, mum);
    const readers = [newUser(), newUser(), newUser()];
    for (const [i, reader] of readers.entries()) await call(LettersRpc.reflectionSave, { text: `Reflection ${i}.` }, reader);
    await call(LettersRpc.reflectionSave, { text: ' ' }, readers[2]);
    await call(LettersRpc.reflectionSave, { text: 'Kept after a clear.' }, mum);
    const portrait = { about_me: 'Rebuilt from sealed events.', personality_traits: ['Funny'], favorite_music: '', favorite_films: '', core_values: ['patience'] };
    await call(LettersRpc.portraitSave, { ...portrait, about_me: 'First words.' }, mum);
    await call(LettersRpc.portraitSave, portrait, mum);

    const before = await sql<{ id: string; owner_id: string }>('select * from letters order by id');
    const reflectionsBefore = await sql<{ user_id: string }>('select * from reflections order by user_id');
    const daysBefore = await sql<{ owner_id: string }>('select * from letter_activity_days order by owner_id, day');
    const portraitsBefore = await sql('select * from portraits order by user_id');
    const milestonesBefore = await sql<{ letter_id: string }>('select * from letter_milestones order by letter_id');
    expect(milestonesBefore.map((m) => m.letter_id)).toContain(kept.id);
    expect(milestonesBefore.map((m) => m.letter_id)).not.toContain(third.id);
    expect(before.filter((l) => l.owner_id === mum.id)).toHaveLength(2);
    expect(before.map((l) => l.id)).not.toContain(gone.id);
    expect(reflectionsBefore.filter((r) => [mum.id, ...readers.map((u) => u.id)].includes(r.user_id)).length).toBeGreaterThanOrEqual(3);
    expect(daysBefore.filter((d) => d.owner_id === mum.id)).toHaveLength(1);
    expect(await codeOf(call(LettersRpc.rebuildProjections, {}, newUser()))).toBe('FORBIDDEN');
    const reply = await call(LettersRpc.rebuildProjections, {}, signOperatorToken(signer, 'spec'));
    expect(reply.projections.map((p) => p.projection)).toEqual(['letters', 'letter_activity_days', 'reflections', 'portraits', 'letter_milestones', 'community_posts', 'community_stories']);
    expect(await sql('select * from letter_milestones order by letter_id')).toEqual(milestonesBefore);
    expect(await sql('select * from portraits order by user_id')).toEqual(portraitsBefore);
    expect((await call(LettersRpc.portraitGet, {}, mum)).about_me).toBe('Rebuilt from sealed events.');
    expect(await sql('select * from letters order by id')).toEqual(before);
    // Reflections come back from their sealed events, decrypted with each stream's key.
    expect(await sql('select * from reflections order by user_id')).toEqual(reflectionsBefore);
    expect(await sql('select * from letter_activity_days order by owner_id, day')).toEqual(daysBefore);
  });

  it('publishes every event through the outbox to JetStream, and a durable consumer handles each exactly once', async () => {
    // Every event of a letter but its seal's (a milestone is no other service's business); reflections are never published (see above).
    const PUBLISHED = `stream_type = 'letter' and type in ('LetterWritten', 'LetterRevised', 'LetterDeleted')`;
    const [{ n: stored }] = (await sql<{ n: number }>(`select count(*)::int as n from events where ${PUBLISHED}`)) as [{ n: number }];
    await waitFor(async () => {
      const [row] = await consumerDb.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from handled_events');
      return row!.n >= stored;
    }, 15_000, 'the consumer to handle every event');
    // A sentinel: one more letter, published after all of the above. The consumer takes the stream in
    // order, so once the sentinel is handled a duplicate of an earlier event would already be in.
    const sentinel = await write(newUser(), 'Sentinel', 'Published last.');
    const [{ event_id: sentinelEventId }] = (await sql<{ event_id: string }>('select event_id from events where stream_id = ?', [`letter-${sentinel.id}`])) as [{ event_id: string }];
    await waitFor(async () => (await consumerDb.orm.em.fork().execute('select 1 from handled_events where event_id = ?', [sentinelEventId])).length > 0, 15_000, 'the sentinel to be handled');
    const total = stored + 1;
    const [handled] = await consumerDb.orm.em.fork().execute<{ total: number; distinct: number }[]>('select count(*)::int as total, count(distinct event_id)::int as distinct from handled_events');
    expect(handled).toEqual({ total, distinct: total });
    const storedIds = (await sql<{ event_id: string }>(`select event_id from events where ${PUBLISHED} order by event_id`)).map((r) => r.event_id);
    const handledIds = (await consumerDb.orm.em.fork().execute<{ event_id: string }[]>('select event_id from handled_events order by event_id')).map((r) => r.event_id);
    expect(handledIds).toEqual(storedIds);
    const jsm = await jetstreamManager(letters.core.nats);
    const { state } = await jsm.streams.info(scopedStreamName('letters'));
    expect(state.messages).toBe(total);
    // Every published payload is words-free: ids, counts and times only. Read as it left the service,
    // since a consumer gets only the fields its declaration keeps.
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const { data } = (await jsm.streams.getMessage(scopedStreamName('letters'), { seq }))!.json<PublishedEvent<Record<string, unknown>>>();
      for (const key of Object.keys(data)) expect(['letterId', 'ownerId', 'wordCount', 'writtenAt', 'revisedAt', 'deletedAt']).toContain(key);
    }
  });
});
