import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { LettersRpc, type Letter, type RpcDeclaration } from '@lv/contracts';
import { runBackup } from '@lv/platform/backup';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import {
  databaseUrl, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, openRestoreDrill, publishAccountErased, queryDatabase, tablesHolding, uniqueStackId, userTokenSigner,
  waitFor, waitForIdentityConsumer, type RestoreDrill,
} from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import type { LettersConfig } from '../src/config.js';
import { lettersMigrations } from '../src/migrations.js';

// Issue 32, "Delete my account": identity's AccountErased, consumed from JetStream, erases every letter,
// post, story, reflection and portrait of the owner through the same deletions as one by one (each key
// destroyed and journaled), and nothing of anyone else's. Issue 33: restored from a snapshot taken before
// the erasure, letters erases the account again as it starts.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('acct-erase');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const hex = () => randomBytes(4).toString('hex');
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);
const member = () => {
  const id = randomUUID();
  return { id, token: tokenFor(id, { email: `${id}@example.com`, emailVerified: true }, 600) };
};

describe('letters: an erased account', () => {
  let drill: RestoreDrill;
  let letters: RunningService<LettersConfig> | undefined;
  let rpc: RpcClient;
  const start = (database: string) => startService(lettersService, {
    DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(drill.journalDatabase), NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent',
  }, { logger: createLogger('account-erasure-spec', 'silent') });  const dad = member();
  const mum = member();
  const call = <D extends RpcDeclaration>(who: { token: string }, declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: who.token, meta: { requestId: 'account-erasure-spec' } });

  /** Everything a member can keep here, each marked with words of his own. */
  const fill = async (who: { token: string }, tag: string) => {
    const words = { letter: `Letterword${tag}`, reflection: `Thoughtword${tag}`, portrait: `Aboutword${tag}`, post: `Postword${tag}`, story: `Storyword${tag}`, name: `Signedname${tag}` };
    const letter = await call(who, LettersRpc.write, { id: randomUUID(), title: `For Ellie ${words.letter}`, content: `Dear Ellie, ${words.letter} forever.` }) as Letter;
    await call(who, LettersRpc.reflectionSave, { text: `Today I felt ${words.reflection}` });
    await call(who, LettersRpc.portraitSave, { about_me: `I am ${words.portrait}`, personality_traits: [], favorite_music: '', favorite_films: '', core_values: [] });
    const post = await call(who, LettersRpc.communityPublish, { id: randomUUID(), content: `Our first winter ${words.post}`, author_name: words.name }) as { id: string };
    await call(who, LettersRpc.communitySubmitStory, { id: randomUUID(), story: `The day she was born ${words.story}`, author_name: words.name });
    return { words, letter, post };
  };

  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'acct-erase', service: 'letters', migrations: lettersMigrations.slice(1), startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    letters = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await letters?.close();
    await deleteStackStreams(NATS_URL, ['identity', 'letters'], STACK_ID);
    await drill?.close();
  });

  it('erases every letter, post, story, reflection and portrait of the owner, once, nothing of another member, and again after a restore', async () => {
    const his = await fill(dad, hex());
    const hers = await fill(mum, hex());
    const { snapshot } = await runBackup(drill.settings());

    const eventId = await publishAccountErased(letters!.core.nats, dad.id, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(letters!.core.nats, dad.id, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(letters!.core.nats, 'letters-account-erasures', STACK_ID, 2);

    for (const word of Object.values(his.words)) expect({ word, holding: await tablesHolding(drill.source.name, word) }).toEqual({ word, holding: [] });
    // Each of his streams erased once, as a deletion one by one is: its key destroyed and journaled.
    const erasures = await queryDatabase<{ stream_type: string; stream_id: string }>(drill.source.name, 'select stream_type, stream_id from erasure_journal order by stream_type');
    expect(erasures.map((e) => e.stream_type)).toEqual(['community-post', 'community-story', 'letter', 'portrait', 'reflection']);
    expect(erasures.map((e) => e.stream_id)).toEqual(expect.arrayContaining([`letter-${his.letter.id}`, `reflection-${dad.id}`, `portrait-${dad.id}`]));
    expect(await queryDatabase(drill.source.name, `select consumer from inbox where event_id = $1`, [eventId])).toEqual([{ consumer: 'letters-account-erasures' }]);
    for (const [table, column] of [['letter_keys', 'letter_id'], ['reflection_keys', 'owner_id'], ['portrait_keys', 'owner_id']] as const) {
      expect(await queryDatabase(drill.source.name, `select 1 from ${table} where ${column} = $1`, [table === 'letter_keys' ? his.letter.id : dad.id])).toEqual([]);
    }
    await expect(call(dad, LettersRpc.get, { id: his.letter.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await call(dad, LettersRpc.reflectionGet, {})).toMatchObject({ text: '' });

    // Hers is untouched: every word still in its place, readable by her.
    expect(await call(mum, LettersRpc.get, { id: hers.letter.id })).toMatchObject({ id: hers.letter.id, title: `For Ellie ${hers.words.letter}` });
    expect(await call(mum, LettersRpc.reflectionGet, {})).toMatchObject({ text: `Today I felt ${hers.words.reflection}` });
    expect(await tablesHolding(drill.source.name, hers.words.post)).toEqual(['community_posts']);
    expect(await tablesHolding(drill.source.name, hers.words.story)).toEqual(['community_stories']);
    expect(erasures.filter((e) => e.stream_id.includes(mum.id) || e.stream_id === `letter-${hers.letter.id}` || e.stream_id === `community-post-${hers.post.id}`)).toEqual([]);
    await waitFor(async () => (await queryDatabase(drill.journalDatabase, 'select 1 from erasures')).length === erasures.length, 10_000, 'the erasures to be journaled');

    // The stack is lost; the snapshot, taken before the erasure, comes back with all his words.
    await letters!.close();
    letters = undefined;
    await drill.loseAndRestore(snapshot);
    expect((await tablesHolding(drill.restoredDatabase, his.words.reflection)).length).toBeGreaterThan(0);
    // letters replays the journal as it starts: every one of his streams is erased again, hers stay.
    letters = await start(drill.restoredDatabase);
    for (const word of Object.values(his.words)) expect({ word, holding: await tablesHolding(drill.restoredDatabase, word) }).toEqual({ word, holding: [] });
    for (const [table, column] of [['reflection_keys', 'owner_id'], ['portrait_keys', 'owner_id']] as const) {
      expect(await queryDatabase(drill.restoredDatabase, `select 1 from ${table} where ${column} = $1`, [dad.id])).toEqual([]);
    }
    expect(await call(mum, LettersRpc.reflectionGet, {})).toMatchObject({ text: `Today I felt ${hers.words.reflection}` });
    expect(await tablesHolding(drill.restoredDatabase, hers.words.story)).toEqual(['community_stories']);
  });
});
