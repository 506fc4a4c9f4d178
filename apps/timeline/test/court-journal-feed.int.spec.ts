// The timeline's court-journal feed: the timeline service in-process, court-journal played by the
// events it publishes on JetStream (CourtJournalEvents, ids and hashes only) and a stand-in `titles`
// responder that answers only for the caller's own documents. Real PostgreSQL (a fresh database),
// NATS JetStream and Redis; a STACK_ID of its own. The real court-journal's events are covered by its
// own specs; this is about what the timeline makes of them.
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  CourtJournalEvents, CourtJournalRpc, TimelineRpc, type CourtDocumentUploadedV1, type RpcDeclaration,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedSubject } from '@lv/platform/messaging';
import { RpcClient, type RunningService } from '@lv/platform/nest';
import { deleteStackStreams, generateTestKeys, makeStreamsAsOwners, TestViewerIssuer, uniqueStackId, userTokenSigner, waitFor, type TestDatabase } from '@lv/testing';
import { standInTitles, startTimeline, timelineDatabase } from './support/timeline-spec.js';

jest.setTimeout(120_000);

// Subjects are fixed when the controller modules load: choose this spec's stack first.
const STACK_ID = uniqueStackId('tlcourt');
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const tokenFor = userTokenSigner(keys.privateKey);
const meta = { requestId: 'timeline-court-spec' };

interface User { id: string; token: string }
const newUser = (): User => {
  const id = randomUUID();
  return { id, token: tokenFor(id, { email: `${id}@example.com` }) };
};

describe('timeline: the court-journal feed', () => {
  let db: TestDatabase;
  let app: RunningService;
  let rpc: RpcClient;
  let nc: NatsConnection;
  /** court-journal's titles, per owner: what its stand-in answers (only the caller's own). */
  const documentTitles = new Map<string, Map<string, string>>();

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const timeline = (user: User) => call(TimelineRpc.list, {}, user.token);
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);
  const row = async (id: string) => (await sql<Record<string, unknown>>(`select * from timeline_entries where source = 'court-journal' and id = ?`, [id]))[0];

  /** Publishes as court-journal's outbox relay does: Nats-Msg-Id is the event id unless a redelivery past the dedupe window is played. */
  async function publish(subject: string, data: { documentId: string } & Record<string, unknown>, eventId: string = randomUUID(), msgId: string = eventId): Promise<void> {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', msgId);
    const body = { eventId, type: subject, streamId: `court-document-${data.documentId}`, version: 1, occurredAt: new Date().toISOString(), data, metadata: {} };
    await jetstream(nc).publish(scopedSubject(subject, STACK_ID), JSON.stringify(body), { headers: h });
  }

  async function upload(user: User, title: string, category: CourtDocumentUploadedV1['category'], over: Partial<CourtDocumentUploadedV1> = {}, eventId: string = randomUUID()): Promise<CourtDocumentUploadedV1> {
    const data: CourtDocumentUploadedV1 = {
      documentId: randomUUID(), ownerId: user.id, category, variant: category === 'Photo Evidence' || category === 'Receipts or Payment Records' ? 'journal' : 'documents',
      size: 4321, sha256: 'c'.repeat(64), uploadedAt: new Date().toISOString(), ...over,
    };
    const titles = documentTitles.get(data.ownerId) ?? new Map<string, string>();
    titles.set(data.documentId, title);
    documentTitles.set(data.ownerId, titles);
    await publish(CourtJournalEvents.CourtDocumentUploaded.subject, { ...data }, eventId);
    return data;
  }

  /** Everything published on the stream before it is applied once it is (one stream, in order). */
  async function sentinel(user: User): Promise<void> {
    const { documentId } = await upload(user, 'sentinel', 'Other');
    await waitFor(async () => (await row(documentId)) !== undefined, 15_000, 'the sentinel document');
  }

  beforeAll(async () => {
    db = await timelineDatabase('tlcourt');
    // court-journal's events are published here as court-journal would, into its own stream.
    await makeStreamsAsOwners(NATS_URL, ['court-journal'], STACK_ID);
    app = await startTimeline(db, { jwtPublicKey: keys.publicKey, viewerPublicKey: viewerKeys.publicKey }, 'timeline-court-spec');

    nc = await standInTitles(CourtJournalRpc.titles, (caller, ids) => {
      const own = documentTitles.get(caller ?? '') ?? new Map<string, string>();
      const titles: Record<string, string> = {};
      for (const id of ids) if (own.has(id)) titles[id] = own.get(id)!;
      return { titles };
    });
    rpc = new RpcClient(NATS_URL, 10_000, 'timeline-court-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await deleteStackStreams(NATS_URL, ['letters', 'vault-media', 'court-journal', 'timeline'], STACK_ID);
    await nc?.close();
    await db?.drop();
  });

  it('shows a document of the upload form as a "document" and one of a journal card as a "journal", titled by court-journal at read time', async () => {
    const mum = newUser();
    const stranger = newUser();
    const order = await upload(mum, 'Custody order', 'Custody', { uploadedAt: new Date(Date.now() - 60_000).toISOString(), size: 1000, sha256: 'a'.repeat(64) });
    const receipt = await upload(mum, 'Receipt for school shoes', 'Receipts or Payment Records');
    await waitFor(async () => (await timeline(mum)).entries.length === 2, 15_000, 'both documents on the timeline');
    const { entries } = await timeline(mum);
    expect(entries.map((e) => e.id)).toEqual([receipt.documentId, order.documentId]);
    expect(entries[1]).toEqual({
      id: order.documentId, source: 'court-journal', type: 'document', entry_type: 'media', title: 'Custody order', file_path: null, blob_hash: 'a'.repeat(64),
      size: 1000, integrity: null, word_count: null, metadata: { category: 'Legal Notices or Orders', is_key_evidence: false }, timestamp: order.uploadedAt, created_at: order.uploadedAt,
    });
    expect(entries[0]).toMatchObject({ type: 'journal', title: 'Receipt for school shoes', metadata: { category: 'Receipts or Payment Records' } });
    // The gateway's timeline delete asks for the entry to route a court document to court-journal.
    expect(await call(TimelineRpc.entry, { id: order.documentId }, mum.token)).toMatchObject({ source: 'court-journal', type: 'document' });

    expect((await timeline(stranger)).entries).toEqual([]);
    expect(await codeOf(call(TimelineRpc.entry, { id: order.documentId }, stranger.token))).toBe('NOT_FOUND');
  });

  it('shows court documents to a viewer only when his key opens the Court Journal too: a key of the timeline alone sees none, not even by id', async () => {
    const mum = newUser();
    const order = await upload(mum, 'Custody order for the viewer', 'Custody');
    await waitFor(async () => (await timeline(mum)).entries.length === 1, 15_000, 'the document on the timeline');
    const viewers = new TestViewerIssuer(app.core.redis, viewerKeys);
    const withCourt = viewers.issue(mum.id, ['timeline', 'court-journal']);
    expect((await call(TimelineRpc.list, {}, withCourt.token)).entries.map((e) => [e.id, e.title])).toEqual([[order.documentId, 'Custody order for the viewer']]);
    expect((await call(TimelineRpc.entry, { id: order.documentId }, withCourt.token)).title).toBe('Custody order for the viewer');
    const timelineOnly = viewers.issue(mum.id, ['timeline', 'letters', 'who-i-am', 'if-im-not-there']);
    const page = await call(TimelineRpc.list, {}, timelineOnly.token);
    expect(page).toEqual({ entries: [], nextCursor: null });
    expect(await codeOf(call(TimelineRpc.entry, { id: order.documentId }, timelineOnly.token))).toBe('NOT_FOUND');
    expect(JSON.stringify(page)).not.toContain('Custody order');
  });

  it('marks and unmarks key evidence on the entry, and only for its owner', async () => {
    const dad = newUser();
    const other = newUser();
    // Published before the one category model: the entry names the card, Timeline of Events.
    const doc = await upload(dad, 'Texts about the weekend', 'Visitation');
    await publish(CourtJournalEvents.CourtDocumentKeyEvidenceChanged.subject, { documentId: doc.documentId, ownerId: dad.id, isKeyEvidence: true, changedAt: new Date().toISOString() });
    await waitFor(async () => (await row(doc.documentId))?.metadata !== undefined && ((await row(doc.documentId))!.metadata as { is_key_evidence: boolean }).is_key_evidence, 15_000, 'key evidence marked');
    // Another vault's event with the same id changes nothing.
    await publish(CourtJournalEvents.CourtDocumentKeyEvidenceChanged.subject, { documentId: doc.documentId, ownerId: other.id, isKeyEvidence: false, changedAt: new Date().toISOString() });
    await sentinel(dad);
    expect((await timeline(dad)).entries.find((e) => e.id === doc.documentId)!.metadata).toEqual({ category: 'Timeline of Events', is_key_evidence: true });
    await publish(CourtJournalEvents.CourtDocumentKeyEvidenceChanged.subject, { documentId: doc.documentId, ownerId: dad.id, isKeyEvidence: false, changedAt: new Date().toISOString() });
    await sentinel(dad);
    expect((await timeline(dad)).entries.find((e) => e.id === doc.documentId)!.metadata).toEqual({ category: 'Timeline of Events', is_key_evidence: false });
  });

  it('applies a redelivered upload once, drops a deleted document, and a late upload does not bring it back', async () => {
    const user = newUser();
    const eventId = randomUUID();
    const doc = await upload(user, 'Witness statement', 'Witness Statements', {}, eventId);
    // The same event again past JetStream's dedupe window (another Nats-Msg-Id): the inbox drops it.
    await publish(CourtJournalEvents.CourtDocumentUploaded.subject, { ...doc }, eventId, randomUUID());
    await sentinel(user);
    expect((await sql(`select 1 from timeline_entries where id = ?`, [doc.documentId])).length).toBe(1);
    expect((await call(TimelineRpc.awaitEntryGone, { id: doc.documentId, timeoutMs: 100 }, user.token))).toEqual({ gone: false });

    // Another vault's deletion of the same id does nothing; the owner's removes the entry.
    await publish(CourtJournalEvents.CourtDocumentDeleted.subject, { documentId: doc.documentId, ownerId: newUser().id, sha256: doc.sha256, deletedAt: new Date().toISOString() });
    await sentinel(user);
    expect((await timeline(user)).entries.map((e) => e.id)).toContain(doc.documentId);
    await publish(CourtJournalEvents.CourtDocumentDeleted.subject, { documentId: doc.documentId, ownerId: user.id, sha256: doc.sha256, deletedAt: new Date().toISOString() });
    expect(await call(TimelineRpc.awaitEntryGone, { id: doc.documentId, timeoutMs: 10_000 }, user.token)).toEqual({ gone: true });
    expect((await timeline(user)).entries.map((e) => e.id)).not.toContain(doc.documentId);

    await publish(CourtJournalEvents.CourtDocumentUploaded.subject, { ...doc });
    await sentinel(user);
    expect((await timeline(user)).entries.map((e) => e.id)).not.toContain(doc.documentId);
    expect(await codeOf(call(TimelineRpc.entry, { id: doc.documentId }, user.token))).toBe('NOT_FOUND');
  });

  it('falls back to "Document" and "Journal entry" when court-journal has no title for an entry', async () => {
    const user = newUser();
    const doc = await upload(user, 'Will be forgotten', 'Divorce');
    const card = await upload(user, 'Will be forgotten too', 'Photo Evidence');
    documentTitles.get(user.id)!.clear();
    await waitFor(async () => (await timeline(user)).entries.length === 2, 15_000, 'both entries');
    const titles = Object.fromEntries((await timeline(user)).entries.map((e) => [e.id, e.title]));
    expect(titles).toEqual({ [doc.documentId]: 'Document', [card.documentId]: 'Journal entry' });
  });

  it('rebuilds the court entries from court-journal’s stream to the same rows', async () => {
    const user = newUser();
    await upload(user, 'Before the rebuild', 'Support');
    await sentinel(user);
    const rows = () => sql<Record<string, unknown>>(`select * from timeline_entries where source = 'court-journal' order by id`);
    const before = await rows();
    const reply = await call(TimelineRpc.rebuildProjections, {}, signOperatorToken(signer, 'spec'));
    expect(reply.projections.map((p) => p.projection)).toContain('timeline_entries:court-journal');
    expect(await rows()).toEqual(before);
    await sentinel(user);
  });
});
