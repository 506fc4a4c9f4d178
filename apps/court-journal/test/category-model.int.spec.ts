import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { COURT_CATEGORIES, CourtJournalRpc, type CourtDocument, type RpcDeclaration } from '@lv/contracts';
import { verifyEvidenceBundle } from '@lv/evidence';
import { sendHttp } from '@lv/testing';
import type { CourtDocumentUploadedData } from '../src/documents/court-document.decider.js';
import { evidenceFacts } from '../src/evidence/evidence-facts.js';
import { mapOldCourtCategoriesSql } from '../src/migrations.js';
import { ownerAction } from '../src/use-cases/court-answers.js';
import { executeDocumentCommand } from '../src/use-cases/document-commands.js';
import { courtFiles } from './test-support/files.js';
import { startCourtJournal, type CourtHarness } from './test-support/harness.js';

jest.setTimeout(180_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/**
 * One category model (issue 35): documents filed under the upload form's old categories (Custody,
 * Divorce, Support, Visitation, Other) are counted on the Court Journal's cards. Their events stay as
 * they were written; the service reads them as cards, its read model holds cards after the migration
 * and after a rebuild, and the evidence bundle groups the originals by card.
 */
describe('court-journal: one category model (real PostgreSQL, NATS, S3 server)', () => {
  let h: CourtHarness;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });

  beforeAll(async () => {
    h = await startCourtJournal('courtcategories');
  });

  afterAll(async () => {
    await h?.close();
  });

  /**
   * A document filed before the one model, exactly as the old code filed it: its object in storage,
   * CourtDocumentUploaded with the old category, and the chain's 'uploaded' entry naming it.
   */
  async function fileTheOldWay(ownerId: string, category: CourtDocumentUploadedData['category'], fileName: string, body: Buffer, kind: 'pdf' | 'png'): Promise<string> {
    const documentId = randomUUID();
    const objectKey = `${ownerId}/${documentId}/${fileName}`;
    const contentType = kind === 'pdf' ? 'application/pdf' : 'image/png';
    await h.storage.upload(h.service.bucket, objectKey, Readable.from([body]), { contentType, metadata: { owner: ownerId, document: documentId } });
    const uploaded: CourtDocumentUploadedData = {
      documentId, ownerId, title: `Old ${category}`, description: null, category, variant: 'documents', fileName, fileKind: kind, contentType,
      bucket: h.service.bucket, objectKey, size: body.length, sha256: sha(body), uploadedAt: new Date().toISOString(),
    };
    const metadata = ownerAction(ownerId, 'spec');
    await executeDocumentCommand(h.orm, h.service.store, { type: 'RecordUpload', ...uploaded }, metadata, async (em) => {
      await h.service.evidence.appendIn(em, ownerId, evidenceFacts.uploaded(uploaded), metadata);
    });
    return documentId;
  }

  const counts = (documents: CourtDocument[]) => Object.fromEntries(COURT_CATEGORIES.map((c) => [c, documents.filter((d) => d.category === c).length]));

  it('counts old documents on their cards: in the list, in each card’s filter, after the migration and after a rebuild', async () => {
    const owner = randomUUID();
    const token = h.tokenFor(owner);
    const custody = await fileTheOldWay(owner, 'Custody', 'order.pdf', courtFiles.pdf(), 'pdf');
    const support = await fileTheOldWay(owner, 'Support', 'receipts.pdf', courtFiles.pdf(), 'pdf');
    const otherPhoto = await fileTheOldWay(owner, 'Other', 'bruise.png', courtFiles.png(), 'png');

    const listed = await call(CourtJournalRpc.list, {}, token);
    const byId = new Map(listed.map((d) => [d.id, d]));
    expect(byId.get(custody)).toMatchObject({ category: 'Legal Notices or Orders', variant: 'documents' });
    expect(byId.get(support)).toMatchObject({ category: 'Receipts or Payment Records' });
    expect(byId.get(otherPhoto)).toMatchObject({ category: 'Photo Evidence' });
    // Every document is on exactly one card: the cards' counts add up to the list.
    expect(counts(listed)).toEqual({ 'Receipts or Payment Records': 1, 'Photo Evidence': 1, 'Emails or Messages': 0, 'Witness Statements': 0, 'Timeline of Events': 0, 'Legal Notices or Orders': 1 });
    expect(Object.values(counts(listed)).reduce((a, b) => a + b, 0)).toBe(listed.length);
    expect((await call(CourtJournalRpc.list, { category: 'Legal Notices or Orders' }, token)).map((d) => d.id)).toEqual([custody]);
    expect((await call(CourtJournalRpc.list, { category: 'Photo Evidence' }, token)).map((d) => d.id)).toEqual([otherPhoto]);
    // The old names are no card: a filter by one is refused.
    await expect(call(CourtJournalRpc.list, { category: 'Custody' }, token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    // The events keep what was filed (they are immutable)...
    const [stored] = await h.orm.em.fork().execute<{ category: string }[]>(`select data->>'category' as category from events where stream_id = ? and type = 'CourtDocumentUploaded'`, [`court-document-${custody}`]);
    expect(stored!.category).toBe('Custody');

    // ...and a read model left by the code before (old names in its rows) is mapped by the migration.
    const em = h.orm.em.fork();
    await em.execute(`update court_documents set category = 'Custody' where id = ?`, [custody]);
    await em.execute(`update court_documents set category = 'Other' where id = ?`, [otherPhoto]);
    await em.execute(mapOldCourtCategoriesSql());
    expect(counts(await call(CourtJournalRpc.list, {}, token))).toEqual(counts(listed));

    // A rebuild from the events gives the same cards.
    await em.execute(`update court_documents set category = 'Support' where id = ?`, [support]);
    const reports = await h.service.rebuildProjections();
    expect(reports.map((r) => r.projection)).toEqual(['court_documents']);
    expect(await call(CourtJournalRpc.list, {}, token)).toEqual(listed);
  });

  it('files an upload under the card chosen on either screen, and an old category from an old page under its card', async () => {
    const owner = randomUUID();
    const token = h.tokenFor(owner);
    const send = async (category: string, fileName: string, body: Buffer, variant?: 'documents' | 'journal') => {
      const ticket = await call(CourtJournalRpc.startUpload, { title: `Filed ${fileName}`, category, fileName, size: body.length, ...(variant ? { variant } : {}) }, token);
      const answer = await sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, chunks: [body] });
      if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
      return answer.json<CourtDocument>();
    };
    expect(await send('Witness Statements', 'statement.pdf', courtFiles.pdf(), 'documents')).toMatchObject({ category: 'Witness Statements', variant: 'documents' });
    expect(await send('Witness Statements', 'notes.txt', courtFiles.txt(), 'journal')).toMatchObject({ category: 'Witness Statements', variant: 'journal' });
    expect(await send('Visitation', 'schedule.pdf', courtFiles.pdf())).toMatchObject({ category: 'Timeline of Events', variant: 'documents' });
    // The /court-documents form never takes a text file, whatever the card.
    await expect(call(CourtJournalRpc.startUpload, { title: 'T', category: 'Witness Statements', variant: 'documents', fileName: 'notes.txt', size: 10 }, token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(counts(await call(CourtJournalRpc.list, {}, token))).toMatchObject({ 'Witness Statements': 2, 'Timeline of Events': 1 });
  });

  it('groups the evidence bundle by card, old documents on their cards, and the bundle verifies', async () => {
    const owner = randomUUID();
    const token = h.tokenFor(owner);
    await fileTheOldWay(owner, 'Divorce', 'decree.pdf', courtFiles.pdf(), 'pdf');
    await fileTheOldWay(owner, 'Support', 'transfer.png', courtFiles.png(), 'png');
    const grant = await call(CourtJournalRpc.bundleLink, {}, token);
    const answer = await sendHttp(`${h.httpUrl}${grant.url.replace('/api/court/', '/')}`, { headers: { 'x-lv-court-binding': grant.binding.value } });
    expect(answer.status).toBe(200);
    const verdict = await verifyEvidenceBundle(answer.body, { trustedKeys: await call(CourtJournalRpc.publicKeys, {}) });
    expect(verdict).toMatchObject({ ok: true, ownerId: owner });
    if (!verdict.ok) return;
    // In the journal's order: receipts first, orders last; each in its card's folder.
    expect(verdict.files.map((f) => f.path.replace(/\/\d+-/, '/<entry>-'))).toEqual([
      'files/receipts-or-payment-records/<entry>-transfer.png',
      'files/legal-notices-or-orders/<entry>-decree.pdf',
    ]);
  });
});
