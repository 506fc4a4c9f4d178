import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Buckets, CourtJournalRpc, type CourtDocument, type RpcDeclaration } from '@lv/contracts';
import { generateEvidenceKey } from '@lv/evidence';
import { runBackup } from '@lv/platform/backup';
import {
  deleteStackStreams, generateTestKeys, makeStreamsAsOwners, openRestoreDrill, publishAccountErased, queryDatabase, sendHttp, tablesHolding, uniqueStackId, userTokenSigner, waitFor, waitForIdentityConsumer, type RestoreDrill,
} from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import { courtFiles } from './test-support/files.js';
import { NATS_URL } from './test-support/harness.js';

// Issue 32, "Delete my account", court-journal's part: identity's AccountErased, consumed from JetStream,
// deletes every court document of the owner as he would (key destroyed and journaled, object removed),
// ends his upload tickets and deletes his evidence chain; another owner's are untouched. Issue 33: the
// erasure survives a restore of a snapshot taken before it.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('courtacct');
process.env.STACK_ID = STACK_ID;
const { objectExists: objectInBucket, startCourtOn } = await import('./test-support/restorable-court.js');
const { CourtHttpServer } = await import('../src/http/court-http.server.js');
const { RpcClient } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const BUCKET = Buckets.courtjournals;
const evidenceKey = generateEvidenceKey();
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);
const owner = () => {
  const id = randomUUID();
  return { id, token: tokenFor(id) };
};

describe('court-journal: an erased account', () => {
  let drill: RestoreDrill;
  let court: Awaited<ReturnType<typeof startCourtOn>> | undefined;
  let rpc: InstanceType<typeof RpcClient>;
  const dad = owner();
  const mum = owner();
  const call = <D extends RpcDeclaration>(who: { token: string }, declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: who.token, meta: { requestId: 'account-erasure-spec' } });

  const start = (database: string) => startCourtOn(database, { s3: drill.s3, journalDatabase: drill.journalDatabase, jwtPublicKey: keys.publicKey, evidenceSigningKey: evidenceKey.privateKeyPem, logName: 'court-account-erasure-spec' });
  const objectExists = (key: string) => objectInBucket(drill.s3, BUCKET, key);

  /** A stored document of `who`, titled with `title`, and its object's key. */
  const upload = async (who: { token: string }, title: string) => {
    const body = courtFiles.pdf();
    const ticket = await call(who, CourtJournalRpc.startUpload, { title: `Custody ${title}`, category: 'Custody', fileName: `order-${title}.pdf`, size: body.length });
    const answer = await sendHttp(`${court!.app.get(CourtHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/octet-stream' }, chunks: [body] });
    expect(answer.status).toBe(201);
    const document = answer.json<CourtDocument>();
    const [row] = await queryDatabase<{ object_key: string }>(drill.source.name, 'select object_key from court_documents where id = $1', [document.id]);
    return { document, objectKey: row!.object_key };
  };

  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'courtacct', service: 'court-journal', startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    court = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000, 'court-account-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await court?.close();
    await deleteStackStreams(NATS_URL, ['identity', 'court-journal'], STACK_ID).catch(() => undefined);
    await drill?.close();
  });

  it('erases every document, ticket and the evidence chain of the owner, once, nothing of another owner, and again after a restore', async () => {
    const his = { stored: `Handover${hex()}`, ticket: `Unsent${hex()}` };
    const hers = `Hearing${hex()}`;
    const stored = await upload(dad, his.stored);
    await call(dad, CourtJournalRpc.startUpload, { title: `Custody ${his.ticket}`, category: 'Custody', fileName: `note-${his.ticket}.pdf`, size: 1000 });
    const herStored = await upload(mum, hers);
    const { snapshot } = await runBackup(drill.settings());

    const eventId = await publishAccountErased(court!.core.nats, dad.id, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(court!.core.nats, dad.id, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(court!.core.nats, 'court-journal-account-erasures', STACK_ID, 2);

    const nowhere = async (database: string) => {
      for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(database, word) }).toEqual({ word, holding: [] });
      expect(await objectExists(stored.objectKey)).toBe(false);
      expect(await queryDatabase(database, 'select 1 from court_document_keys where document_id = $1', [stored.document.id])).toEqual([]);
      expect(await queryDatabase(database, 'select 1 from events where stream_id = $1', [`evidence-${dad.id}`])).toEqual([]);
      // Hers is untouched: her document, its object, her chain.
      expect(await objectExists(herStored.objectKey)).toBe(true);
      expect((await call(mum, CourtJournalRpc.list, {}) as CourtDocument[]).map((d) => d.title)).toEqual([`Custody ${hers}`]);
      expect(await tablesHolding(database, hers)).toEqual(['court_documents', 'events']);
    };
    await nowhere(drill.source.name);
    expect(await call(dad, CourtJournalRpc.list, {})).toEqual([]);
    expect(await queryDatabase(drill.source.name, 'select consumer from inbox where event_id = $1', [eventId])).toEqual([{ consumer: 'court-journal-account-erasures' }]);
    expect((await queryDatabase<{ stream_id: string }>(drill.source.name, 'select stream_id from erasure_journal order by erased_at, stream_id')).map((e) => e.stream_id))
      .toEqual([`court-document-${stored.document.id}`, `evidence-${dad.id}`]);
    await waitFor(async () => (await queryDatabase(drill.journalDatabase, 'select 1 from erasures where stream_id = $1', [`evidence-${dad.id}`])).length === 1, 10_000, 'the erasure to be journaled');

    // The stack is lost; the snapshot, taken before the erasure, comes back with his words and his file.
    await court!.close();
    court = undefined;
    await drill.loseAndRestore(snapshot, [BUCKET]);
    expect(await tablesHolding(drill.restoredDatabase, his.stored)).toEqual(['court_documents', 'events']);
    expect(await tablesHolding(drill.restoredDatabase, his.ticket)).toEqual(['court_uploads']);
    expect(await objectExists(stored.objectKey)).toBe(true);

    // court-journal replays the journal as it starts: his document and his chain are erased again.
    court = await start(drill.restoredDatabase);
    for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(drill.restoredDatabase, word) }).toEqual({ word, holding: [] });
    expect(await objectExists(stored.objectKey)).toBe(false);
    expect(await queryDatabase(drill.restoredDatabase, 'select 1 from events where stream_id = $1', [`evidence-${dad.id}`])).toEqual([]);
    expect(await objectExists(herStored.objectKey)).toBe(true);
  });
});
