import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Buckets, CourtJournalRpc, type CourtDocument, type RpcDeclaration } from '@lv/contracts';
import { generateEvidenceKey } from '@lv/evidence';
import { runBackup } from '@lv/platform/backup';
import { deleteStackStreams, generateTestKeys, openRestoreDrill, queryDatabase, sendHttp, uniqueStackId, userTokenSigner, waitFor, type RestoreDrill } from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import { courtFiles } from './test-support/files.js';
import { NATS_URL } from './test-support/harness.js';

// Issue 33, erasure survives a restore: back up, delete a court document, restore (its file comes back
// into the bucket); court-journal, started on the restored stack, replays the erasure journal and the
// document is deleted again: its file and its row gone, its key destroyed, its chain keeping the deletion.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('courterasure');
process.env.STACK_ID = STACK_ID;
const { objectExists: objectInBucket, startCourtOn } = await import('./test-support/restorable-court.js');
const { CourtHttpServer } = await import('../src/http/court-http.server.js');
const { RpcClient } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const BUCKET = Buckets.courtjournals;
const evidenceKey = generateEvidenceKey();
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);


describe('an erased court document after a restore of an older snapshot', () => {
  let drill: RestoreDrill;
  let court: Awaited<ReturnType<typeof startCourtOn>> | undefined;
  let rpc: InstanceType<typeof RpcClient>;
  const ownerId = randomUUID();
  const token = tokenFor(ownerId);
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'erasure-spec' } });

  const start = (database: string) => startCourtOn(database, { s3: drill.s3, journalDatabase: drill.journalDatabase, jwtPublicKey: keys.publicKey, evidenceSigningKey: evidenceKey.privateKeyPem, logName: 'court-erasure-spec' });
  const objectExists = (key: string) => objectInBucket(drill.s3, BUCKET, key);

  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'courterasure', service: 'court-journal', startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    court = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000, 'court-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await court?.close();
    await deleteStackStreams(NATS_URL, ['court-journal'], STACK_ID).catch(() => undefined);
    await drill?.close();
  });

  it('back up, delete a court document, restore: its file is gone again and its title only in its evidence chain', async () => {
    const title = `Handover${hex()}`;
    const body = courtFiles.pdf();
    const ticket = await call(CourtJournalRpc.startUpload, { title: `Custody ${title}`, category: 'Custody', fileName: 'order.pdf', size: body.length });
    const answer = await sendHttp(`${court!.app.get(CourtHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, chunks: [body] });
    expect(answer.status).toBe(201);
    const document = answer.json<CourtDocument>();
    const [{ object_key: objectKey }] = await queryDatabase<{ object_key: string }>(drill.source.name, 'select object_key from court_documents where id = $1', [document.id]) as [{ object_key: string }];
    expect(await objectExists(objectKey)).toBe(true);

    const { snapshot } = await runBackup(drill.settings());
    expect(await call(CourtJournalRpc.delete, { id: document.id })).toEqual({ id: document.id, deleted: true });
    expect(await objectExists(objectKey)).toBe(false);
    await waitFor(async () => (await queryDatabase(drill.journalDatabase, 'select 1 from erasures where stream_id = $1', [`court-document-${document.id}`])).length === 1, 10_000, 'the erasure to be journaled');

    // The stack is lost: database and bucket; the older snapshot is restored into an empty one.
    await court!.close();
    court = undefined;
    await drill.loseAndRestore(snapshot, [BUCKET]);
    expect(await queryDatabase(drill.restoredDatabase, 'select id from court_documents where id = $1', [document.id])).toEqual([{ id: document.id }]);
    expect(await objectExists(objectKey)).toBe(true);

    court = await start(drill.restoredDatabase);
    expect(await objectExists(objectKey)).toBe(false);
    expect(await queryDatabase(drill.restoredDatabase, 'select id from court_documents where id = $1', [document.id])).toEqual([]);
    expect(await queryDatabase(drill.restoredDatabase, 'select 1 from court_document_keys where document_id = $1', [document.id])).toEqual([]);
    const tables = (await queryDatabase<{ table_name: string }>(drill.restoredDatabase, `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((t) => t.table_name);
    const holding: string[] = [];
    for (const table of tables) if ((await queryDatabase<{ n: number }>(drill.restoredDatabase, `select count(*)::int as n from "${table}" t where t::text ilike $1`, [`%${title}%`]))[0]!.n > 0) holding.push(table);
    // The evidence chain's upload entry keeps the title by design (never shredded, evidence-facts.ts); the document's own stream does not.
    expect(holding).toEqual(['events']);
    expect(await queryDatabase(drill.restoredDatabase, `select distinct stream_type from events where data::text ilike $1`, [`%${title}%`])).toEqual([{ stream_type: 'evidence' }]);
    expect((await queryDatabase<{ type: string }>(drill.restoredDatabase, 'select type from events where stream_id = $1 order by version', [`court-document-${document.id}`])).map((e) => e.type))
      .toEqual(['CourtDocumentUploaded', 'CourtDocumentDeleted']);
    expect(await call(CourtJournalRpc.list, {})).toEqual(expect.not.arrayContaining([expect.objectContaining({ id: document.id })]));
  });
});
