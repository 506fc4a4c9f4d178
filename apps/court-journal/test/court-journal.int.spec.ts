import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  COURT_FILE_MAX_BYTES, courtCategoryOf, CourtJournalEvents, CourtJournalRpc, CourtMessages, type CourtDocument, type CourtUploadTicket, type PublishedEvent, type RpcDeclaration,
} from '@lv/contracts';
import { verifyChain, verifyEvidenceBundle, verifyHead } from '@lv/evidence';
import type { DomainError } from '@lv/platform/errors';
import { OwnerLinkSigner } from '@lv/platform/links';
import { scopedStreamName } from '@lv/platform/messaging';
import { sendHttp, waitFor } from '@lv/testing';
import { courtFiles } from './test-support/files.js';
import { COURT_LINK_SECRET, startCourtJournal, type CourtHarness } from './test-support/harness.js';

jest.setTimeout(180_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const MiB = 1024 * 1024;

describe('court-journal (in-process, real PostgreSQL, NATS, Redis, S3 server)', () => {
  let h: CourtHarness;
  const alice = randomUUID();
  const bob = randomUUID();
  const aliceSession = randomUUID();
  let aliceToken: string;
  let bobToken: string;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const failure = (p: Promise<unknown>) => p.then(() => ({ code: 'OK' }) as unknown as DomainError, (e: DomainError) => e);
  const codeOf = async (p: Promise<unknown>) => (await failure(p)).code;
  const put = (ticket: CourtUploadTicket, token: string, chunks: Buffer[], headers: Record<string, string> = {}) =>
    sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...headers }, chunks });
  const ticketFor = (token: string, fileName: string, size: number, category = 'Custody', title = 'A document') =>
    call(CourtJournalRpc.startUpload, { title, category, fileName, size }, token);

  /** Start + PUT in one go: what the SPA does through the gateway. */
  async function upload(token: string, fileName: string, body: Buffer, category = 'Custody', title = `Doc ${fileName}`): Promise<CourtDocument> {
    const ticket = await ticketFor(token, fileName, body.length, category, title);
    const answer = await put(ticket, token, [body]);
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<CourtDocument>();
  }

  const objectExists = (key: string) => h.storage.client.statObject('courtjournals', key).then(() => true, () => false);
  const objectKeysOf = async (owner: string) => {
    const keys: string[] = [];
    for await (const item of h.storage.client.listObjectsV2('courtjournals', `${owner}/`, true)) if (item.name) keys.push(item.name);
    return keys;
  };
  const chainOf = async (owner: string) => h.service.evidence.read(h.orm.em.fork(), owner);
  const open = (url: string, binding?: string) =>
    sendHttp(`${h.httpUrl}${url.replace('/api/court/', '/')}`, { headers: binding ? { 'x-lv-court-binding': binding } : {} });

  beforeAll(async () => {
    h = await startCourtJournal('courtjournal');
    aliceToken = h.tokenFor(alice, aliceSession);
    bobToken = h.tokenFor(bob);
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('upload', () => {
    it.each([
      ['pdf', 'hearing-notes.pdf', 'Custody', 'application/pdf', true],
      ['doc', 'statement.doc', 'Divorce', 'application/msword', false],
      ['docx', 'Letter to court (final).docx', 'Support', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', false],
      ['jpeg', 'receipt.JPG', 'Receipts or Payment Records', 'image/jpeg', true],
      ['png', 'screenshot.png', 'Emails or Messages', 'image/png', true],
      ['txt', 'diary.txt', 'Timeline of Events', 'text/plain; charset=utf-8', false],
    ] as const)('stores a %s under <owner>/<document>/<safe name>, hashed while it streamed', async (kind, fileName, category, contentType, previewable) => {
      const body = courtFiles[kind]();
      const ticket = await ticketFor(aliceToken, fileName, body.length, category, `  ${kind} evidence  `);
      expect(ticket).toEqual({ uploadId: expect.any(String), uploadUrl: `/api/court/uploads/${ticket.uploadId}`, maxBytes: COURT_FILE_MAX_BYTES });
      // Sent in small pieces: the kind is judged even when its magic number arrives a byte at a time.
      const answer = await put(ticket, aliceToken, [body.subarray(0, 1), body.subarray(1, 3), body.subarray(3, 100), body.subarray(100)]);
      expect(answer.status).toBe(201);
      const doc = answer.json<CourtDocument>();
      expect(doc).toMatchObject({
        // Old categories (from a page loaded before the one model) are filed under their cards.
        id: ticket.uploadId, title: `${kind} evidence`, description: null, category: courtCategoryOf(category, kind), file_name: fileName, file_kind: kind, file_type: contentType, size: body.length,
        sha256: sha(body), previewable, is_key_evidence: false,
      });
      expect(doc.file_path).toBe(`${alice}/${doc.id}/${doc.file_path.split('/')[2]}`);
      const stat = await h.storage.client.statObject('courtjournals', doc.file_path);
      expect(stat.size).toBe(body.length);
      expect(stat.metaData['content-type']).toBe(contentType);
      expect((await call(CourtJournalRpc.list, {}, aliceToken)).map((d) => d.id)).toContain(doc.id);
    });

    it('lists newest first, filters by category, and titles documents for the timeline', async () => {
      const list = await call(CourtJournalRpc.list, {}, aliceToken);
      const dates = list.map((d) => d.upload_date);
      expect(dates).toEqual([...dates].sort().reverse());
      const photos = await call(CourtJournalRpc.list, { category: 'Emails or Messages' }, aliceToken);
      expect(photos.map((d) => d.category)).toEqual(['Emails or Messages']);
      expect(await codeOf(call(CourtJournalRpc.list, { category: 'Cats' }, aliceToken))).toBe('VALIDATION_FAILED');
      const first = list[0]!;
      expect(await call(CourtJournalRpc.titles, { ids: [first.id, randomUUID(), 'nope'] }, aliceToken)).toEqual({ titles: { [first.id]: first.title } });
      expect(await call(CourtJournalRpc.stats, {}, aliceToken)).toEqual({ activeDays: [new Date().toISOString().slice(0, 10)] });
    });

    it("checks the form with the spec's words before a byte is sent", async () => {
      const missing = await failure(call(CourtJournalRpc.startUpload, { title: ' ', category: 'Custody', fileName: '', size: 10 }, aliceToken));
      expect(missing).toMatchObject({ code: 'VALIDATION_FAILED', message: CourtMessages.missingInformation, details: { fields: { title: CourtMessages.missingInformation, file: CourtMessages.missingInformation } } });
      const journal = await failure(call(CourtJournalRpc.startUpload, { title: '', category: 'Photo Evidence', fileName: 'a.png', size: 10 }, aliceToken));
      expect(journal).toMatchObject({ code: 'VALIDATION_FAILED', message: CourtMessages.journalMissing });
      const tooLarge = await failure(ticketFor(aliceToken, 'big.pdf', COURT_FILE_MAX_BYTES + 1));
      expect(tooLarge).toMatchObject({ code: 'VALIDATION_FAILED', message: CourtMessages.fileTooLarge });
      // A .txt is a journal file only: the documents form never gets a ticket for one.
      const txt = await failure(ticketFor(aliceToken, 'notes.txt', 100, 'Custody'));
      expect(txt).toMatchObject({ code: 'VALIDATION_FAILED', message: CourtMessages.unsupportedType });
      expect(await codeOf(ticketFor(aliceToken, 'notes.txt', 100, 'Witness Statements'))).toBe('OK');
      expect(await codeOf(call(CourtJournalRpc.startUpload, { title: 'x', category: 'Custody', fileName: 'a.pdf', size: 10 }))).toBe('UNAUTHENTICATED');
    });
  });

  describe('disguised and broken files', () => {
    async function refused(fileName: string, body: Buffer, category: string, status: number, expected: { code: string; message: string }) {
      const before = await objectKeysOf(alice);
      const chainBefore = (await chainOf(alice)).entries.length;
      const ticket = await ticketFor(aliceToken, fileName, body.length, category);
      const answer = await put(ticket, aliceToken, [body]);
      expect({ status: answer.status, body: answer.json() }).toEqual({ status, body: expected });
      // Nothing is left behind: no object, no document, no chain entry, no event, no ticket.
      expect(await objectKeysOf(alice)).toEqual(before);
      expect((await call(CourtJournalRpc.list, {}, aliceToken)).map((d) => d.id)).not.toContain(ticket.uploadId);
      expect((await chainOf(alice)).entries.length).toBe(chainBefore);
      const { count } = (await h.orm.em.fork().execute<{ count: number }[]>(`select count(*)::int as count from events where stream_id = ?`, [`court-document-${ticket.uploadId}`]))[0]!;
      expect(count).toBe(0);
      // The ticket is used up: the bytes cannot be sent again under it.
      expect((await put(ticket, aliceToken, [courtFiles.pdf()])).status).toBe(404);
    }

    const mismatch = { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.typeMismatch };

    it('refuses a PNG named .pdf (415, typeMismatch)', () => refused('evidence.pdf', courtFiles.png(), 'Custody', 415, mismatch));
    it('refuses EXE bytes named .docx (415, unsupportedType)', () => refused('contract.docx', courtFiles.exe(), 'Divorce', 415, { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.unsupportedType }));
    it('refuses a plain ZIP named .docx (415, typeMismatch)', () => refused('archive.docx', courtFiles.zip(), 'Support', 415, mismatch));
    it('refuses binary bytes named .txt, even when the binary comes late in the file (415)', () =>
      refused('diary.txt', Buffer.concat([courtFiles.txt(), Buffer.from([0x00, 0x01, 0x02])]), 'Timeline of Events', 415, mismatch));
    it('refuses a text file named .pdf in a documents category (415)', () => refused('notes.pdf', courtFiles.txt(), 'Visitation', 415, { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.unsupportedType }));
    it('refuses a body shorter than announced (400 UPLOAD_INCOMPLETE)', async () => {
      const body = courtFiles.pdf(5000);
      const ticket = await ticketFor(aliceToken, 'short.pdf', 6000);
      const answer = await put(ticket, aliceToken, [body]);
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({ code: 'UPLOAD_INCOMPLETE', message: CourtMessages.uploadIncomplete });
      expect(await objectExists(`${alice}/${ticket.uploadId}/short.pdf`)).toBe(false);
    });
  });

  describe('a body longer than announced', () => {
    it('is refused with 400 UPLOAD_INCOMPLETE, sent at once or in chunks, and nothing is kept (issue 29 saw a 503)', async () => {
      for (const chunks of [[courtFiles.pdf(6000)], [courtFiles.pdf(3000), courtFiles.pdf(3000)]]) {
        const ticket = await ticketFor(aliceToken, 'long.pdf', 5000);
        const answer = await put(ticket, aliceToken, chunks).catch((e: Error) => e);
        expect(answer).toMatchObject({ status: 400 });
        expect((answer as { json(): unknown }).json()).toEqual({ code: 'UPLOAD_INCOMPLETE', message: CourtMessages.uploadIncomplete });
        expect(await objectExists(`${alice}/${ticket.uploadId}/long.pdf`)).toBe(false);
      }
    });
  });

  describe('the 10 MB limit', () => {
    it('refuses an announced size over the limit at once (413)', async () => {
      const ticket = await ticketFor(aliceToken, 'big.pdf', COURT_FILE_MAX_BYTES);
      const answer = await put(ticket, aliceToken, [courtFiles.pdf(1000)], { 'content-length': String(COURT_FILE_MAX_BYTES + 1) }).catch((e: Error) => e);
      expect(answer).toMatchObject({ status: 413 });
    });

    it('refuses 10 MB + 1 byte sent chunked, mid-stream, leaving no object and no parts (memory: upload-memory.int.spec.ts)', async () => {
      const ticket = await ticketFor(aliceToken, 'huge.pdf', COURT_FILE_MAX_BYTES);
      const first = courtFiles.pdf(MiB);
      const chunks = [first, ...Array.from({ length: 9 }, () => first), Buffer.from([0x41]), ...Array.from({ length: 5 }, () => first)];
      const answer = await put(ticket, aliceToken, chunks).catch((e: Error) => e);
      expect(answer).toMatchObject({ status: 413 });
      expect((answer as { json(): unknown }).json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge });
      expect(await objectExists(`${alice}/${ticket.uploadId}/huge.pdf`)).toBe(false);
      const incomplete: unknown[] = [];
      for await (const upload of h.storage.client.listIncompleteUploads('courtjournals', `${alice}/`, true)) incomplete.push(upload);
      expect(incomplete).toEqual([]);
    });

    it('accepts exactly 10 MB', async () => {
      const body = courtFiles.pdf(COURT_FILE_MAX_BYTES);
      const doc = await upload(aliceToken, 'limit.pdf', body);
      expect(doc).toMatchObject({ size: COURT_FILE_MAX_BYTES, sha256: sha(body) });
    });
  });

  describe('owner scoping, links and bytes out', () => {
    let doc: CourtDocument;
    let body: Buffer;

    beforeAll(async () => {
      body = courtFiles.pdf(50_000);
      doc = await upload(aliceToken, 'Résumé "final".pdf', body, 'Custody', 'For Bob to never see');
    });

    it('gives another user "not found" everywhere, never "forbidden"', async () => {
      expect((await call(CourtJournalRpc.list, {}, bobToken)).map((d) => d.id)).not.toContain(doc.id);
      for (const attempt of [
        call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'inline' }, bobToken),
        call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'attachment' }, bobToken),
        call(CourtJournalRpc.setKeyEvidence, { id: doc.id, isKeyEvidence: true }, bobToken),
        call(CourtJournalRpc.delete, { id: doc.id }, bobToken),
      ]) expect(await failure(attempt)).toMatchObject({ code: 'NOT_FOUND', message: CourtMessages.notFound });
      expect(await call(CourtJournalRpc.titles, { ids: [doc.id] }, bobToken)).toEqual({ titles: {} });
      // Alice's upload ticket is no use to Bob either.
      const ticket = await ticketFor(aliceToken, 'mine.pdf', 1000);
      expect((await put(ticket, bobToken, [courtFiles.pdf(1000)])).status).toBe(404);
      expect((await put(ticket, aliceToken, [courtFiles.pdf(1000)])).status).toBe(201);
      // Still there, untouched.
      expect((await call(CourtJournalRpc.list, {}, aliceToken)).find((d) => d.id === doc.id)?.is_key_evidence).toBe(false);
    });

    it('serves a preview inline and a download as an attachment, with the kind\'s type, nosniff and no caching', async () => {
      const preview = await call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'inline' }, aliceToken);
      expect(preview.url).toMatch(new RegExp(`^/api/court/files/${doc.id}\\?d=inline&u=${alice}&exp=\\d+&sig=`));
      expect(preview.expiresAt).toBeGreaterThan(Date.now());
      const inline = await open(preview.url, preview.binding.value);
      expect(inline.status).toBe(200);
      expect(inline.body.equals(body)).toBe(true);
      expect(inline.headers).toMatchObject({
        'content-type': 'application/pdf', 'content-length': String(body.length), 'x-content-type-options': 'nosniff', 'cache-control': 'private, no-store',
        'content-disposition': `inline; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
        'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      });
      const download = await call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'attachment' }, aliceToken);
      const attachment = await open(download.url, download.binding.value);
      expect(attachment.status).toBe(200);
      expect(attachment.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`);
      expect(attachment.headers['content-security-policy']).toBeUndefined();
    });

    it('refuses a link that is altered, expired, foreign or presented without its binding (403 linkInvalid)', async () => {
      const grant = await call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'inline' }, aliceToken);
      const denied = { code: 'FORBIDDEN', message: CourtMessages.linkInvalid };
      const check = async (url: string, binding?: string) => {
        const answer = await open(url, binding);
        expect({ status: answer.status, body: answer.json() }).toEqual({ status: 403, body: denied });
      };
      await check(grant.url);
      await check(grant.url.replace('d=inline', 'd=attachment'), grant.binding.value);
      await check(grant.url.replace(/exp=(\d+)/, (_, e: string) => `exp=${Number(e) + 60}`), grant.binding.value);
      // Bob signed in, holding Alice's link: his own binding does not open it.
      const bobs = await call(CourtJournalRpc.bundleLink, {}, bobToken);
      await check(grant.url, bobs.binding.value);
      // A link that expired (signed with the service's secret an hour ago).
      const past = new OwnerLinkSigner({ namespace: 'court', secret: COURT_LINK_SECRET, secretName: 'COURT_LINK_SECRET', purposes: ['file', 'bundle'], ttlSeconds: 300, now: () => Date.now() - 3600_000 });
      const expired = past.signLink('file', `/api/court/files/${doc.id}`, alice, doc.id, { d: 'inline' });
      await check(expired.url, grant.binding.value);
      // A file link never opens a bundle, and the other way round.
      await check(`/api/court/evidence/bundle?${new URL(grant.url, 'http://x').searchParams.toString()}`, grant.binding.value);
    });

    it('marks and unmarks key evidence, then deletes: object gone, list without it, words shredded, chain keeps the hash', async () => {
      expect(await call(CourtJournalRpc.setKeyEvidence, { id: doc.id, isKeyEvidence: true }, aliceToken)).toMatchObject({ id: doc.id, is_key_evidence: true });
      expect(await call(CourtJournalRpc.setKeyEvidence, { id: doc.id, isKeyEvidence: true }, aliceToken)).toMatchObject({ is_key_evidence: true });
      expect(await call(CourtJournalRpc.setKeyEvidence, { id: doc.id, isKeyEvidence: false }, aliceToken)).toMatchObject({ is_key_evidence: false });
      const grant = await call(CourtJournalRpc.fileLink, { id: doc.id, disposition: 'attachment' }, aliceToken);
      expect(await call(CourtJournalRpc.delete, { id: doc.id }, aliceToken)).toEqual({ id: doc.id, deleted: true });
      expect(await objectExists(doc.file_path)).toBe(false);
      expect((await call(CourtJournalRpc.list, {}, aliceToken)).map((d) => d.id)).not.toContain(doc.id);
      expect((await open(grant.url, grant.binding.value)).status).toBe(404);
      expect(await codeOf(call(CourtJournalRpc.delete, { id: doc.id }, aliceToken))).toBe('NOT_FOUND');
      // The title and file name are unreadable in the stored events now.
      const { n } = (await h.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from court_document_keys where document_id = ?`, [doc.id]))[0]!;
      expect(n).toBe(0);
      const rows = await h.orm.em.fork().execute<{ data: string }[]>(`select data::text as data from events where stream_id = ?`, [`court-document-${doc.id}`]);
      expect(rows.length).toBe(4);
      for (const row of rows) expect(row.data).not.toContain('Bob to never see');
      // The chain: uploaded, viewed x3 (two links above and one here... counted below), marked, unmarked, deleted.
      const entries = (await chainOf(alice)).entries.filter((e) => e.documentId === doc.id);
      expect(entries.map((e) => e.action)).toEqual(['uploaded', 'viewed', 'viewed', 'viewed', 'key-evidence-marked', 'key-evidence-unmarked', 'viewed', 'deleted']);
      expect(entries.at(-1)).toMatchObject({ action: 'deleted', sha256: sha(body), size: body.length });
      expect(entries[0]).toMatchObject({ action: 'uploaded', title: 'For Bob to never see', sha256: sha(body) });
    });
  });

  describe('the evidence chain', () => {
    it('signs its head with the evidence key, published with the public keys', async () => {
      const head = await call(CourtJournalRpc.evidenceHead, {}, aliceToken);
      const keys = await call(CourtJournalRpc.publicKeys, {});
      expect(keys.keys[0]).toMatchObject({ keyId: h.evidenceKey.keyId, algorithm: 'Ed25519', publicKeyPem: h.evidenceKey.publicKeyPem, validUntil: null });
      expect(verifyHead(head, keys)).toMatchObject({ ok: true, keyId: h.evidenceKey.keyId });
      const { entries } = await chainOf(alice);
      expect(head).toMatchObject({ ownerId: alice, sequence: entries.length, headHash: entries.at(-1)!.hash });
      expect(verifyChain(entries)).toEqual({ ok: true });
      expect(await call(CourtJournalRpc.evidenceEntries, {}, aliceToken)).toEqual(entries.map((e) => ({ sequence: e.sequence, action: e.action, documentId: e.documentId, sha256: e.sha256, at: e.at, hash: e.hash })));
      // Someone without documents has an empty chain, signed too.
      const empty = await call(CourtJournalRpc.evidenceHead, {}, bobToken);
      expect(empty).toMatchObject({ ownerId: bob, sequence: 0, headHash: '0'.repeat(64) });
      expect(verifyHead(empty, keys).ok).toBe(true);
    });

    it('does not fork when appends race: every entry lands once, in one line, never a view after a deletion', async () => {
      const owner = randomUUID();
      const token = h.tokenFor(owner);
      const docs = await Promise.all([1, 2, 3].map((i) => upload(token, `race-${i}.png`, courtFiles.png(), 'Photo Evidence')));
      const outcomes = await Promise.allSettled([
        ...docs.flatMap((d) => [call(CourtJournalRpc.fileLink, { id: d.id, disposition: 'inline' }, token), call(CourtJournalRpc.fileLink, { id: d.id, disposition: 'attachment' }, token)]),
        call(CourtJournalRpc.setKeyEvidence, { id: docs[0]!.id, isKeyEvidence: true }, token),
        call(CourtJournalRpc.setKeyEvidence, { id: docs[1]!.id, isKeyEvidence: true }, token),
        call(CourtJournalRpc.delete, { id: docs[2]!.id }, token),
      ]);
      // Only a view of the document being deleted may lose (NOT_FOUND: it was gone by then).
      const lost = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [{ i, code: (o.reason as DomainError).code }] : []));
      for (const { i, code } of lost) expect({ i: i === 4 || i === 5 ? 'view of the deleted one' : i, code }).toEqual({ i: 'view of the deleted one', code: 'NOT_FOUND' });
      const { entries, head } = await chainOf(owner);
      const landed = 3 + outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(entries.map((e) => e.sequence)).toEqual(Array.from({ length: landed }, (_, i) => i + 1));
      expect(verifyChain(entries)).toEqual({ ok: true });
      expect(head).toMatchObject({ sequence: landed, headHash: entries.at(-1)!.hash });
    });

    it('exports a bundle that verifies, whose chain includes the export that made it', async () => {
      const owner = randomUUID();
      const session = randomUUID();
      const token = h.tokenFor(owner, session);
      const kept = await upload(token, 'kept.pdf', courtFiles.pdf(), 'Custody', 'Kept');
      const gone = await upload(token, 'gone.jpg', courtFiles.jpeg(), 'Photo Evidence', 'Gone');
      await call(CourtJournalRpc.delete, { id: gone.id }, token);
      const before = (await chainOf(owner)).entries.length;
      const grant = await call(CourtJournalRpc.bundleLink, {}, token);
      expect(grant.url).toMatch(new RegExp(`^/api/court/evidence/bundle\\?u=${owner}&exp=\\d+&sig=`));
      // Issuing the link records nothing; streaming the bundle does.
      expect((await chainOf(owner)).entries.length).toBe(before);
      const answer = await open(grant.url, grant.binding.value);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/zip');
      expect(answer.headers['content-disposition']).toBe(`attachment; filename="legacy-vault-evidence-${new Date().toISOString().slice(0, 10)}.zip"`);
      const verdict = await verifyEvidenceBundle(answer.body, { trustedKeys: await call(CourtJournalRpc.publicKeys, {}) });
      expect(verdict).toMatchObject({ ok: true, ownerId: owner });
      const { entries } = await chainOf(owner);
      expect(entries.length).toBe(before + 1);
      expect(entries.at(-1)).toMatchObject({ action: 'exported', documentId: null });
      if (verdict.ok) {
        expect(verdict.entries).toEqual(entries);
        expect(verdict.head?.headHash).toBe(entries.at(-1)!.hash);
        expect(verdict.files).toHaveLength(1);
        expect(verdict.deletedDocuments).toBe(1);
      }
      expect(kept.id).toBeDefined();
      // Someone else's binding does not open it.
      expect((await open(grant.url, (await call(CourtJournalRpc.bundleLink, {}, bobToken)).binding.value)).status).toBe(403);
    });
  });

  it('rebuilds the documents read model from the sealed events: the same list, deleted documents stay gone', async () => {
    const before = await call(CourtJournalRpc.list, {}, aliceToken);
    expect(before.length).toBeGreaterThan(3);
    await h.orm.em.fork().execute('update court_documents set title = ?', ['tampered']);
    const reports = await h.service.rebuildProjections();
    expect(reports.map((r) => r.projection)).toEqual(['court_documents']);
    expect(await call(CourtJournalRpc.list, {}, aliceToken)).toEqual(before);
  });

  it('sweeps expired tickets: their PUT is then "not found"', async () => {
    const ticket = await ticketFor(aliceToken, 'late.pdf', 1000);
    await h.orm.em.fork().execute(`update court_uploads set expires_at = now() - interval '1 second' where id = ?`, [ticket.uploadId]);
    expect((await put(ticket, aliceToken, [courtFiles.pdf(1000)])).status).toBe(404);
    expect((await h.service.sweep()).expired).toBeGreaterThanOrEqual(1);
    const { n } = (await h.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from court_uploads where id = ?', [ticket.uploadId]))[0]!;
    expect(n).toBe(0);
  });

  it('never turns an upload the sweeper took for dead into a document: its object goes', async () => {
    const body = courtFiles.pdf(200_000);
    const ticket = await ticketFor(aliceToken, 'slow.pdf', body.length);
    // The body comes in two halves 2 s apart; meanwhile the ticket ages past its expiry and is swept.
    const answer = sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, {
      method: 'PUT', headers: { authorization: `Bearer ${aliceToken}` }, chunks: [body.subarray(0, 100_000), body.subarray(100_000)], delayMs: 2000,
    });
    await waitFor(async () => (await h.orm.em.fork().execute<{ state: string }[]>('select state from court_uploads where id = ?', [ticket.uploadId]))[0]?.state === 'uploading', 5000, 'the upload to start');
    await h.orm.em.fork().execute(`update court_uploads set expires_at = now() - interval '1 hour', last_activity_at = now() - interval '1 hour' where id = ?`, [ticket.uploadId]);
    expect((await h.service.sweep()).expired).toBeGreaterThanOrEqual(1);
    const late = await answer;
    expect({ status: late.status, body: late.json() }).toEqual({ status: 400, body: { code: 'UPLOAD_INCOMPLETE', message: CourtMessages.uploadIncomplete } });
    expect((await call(CourtJournalRpc.list, {}, aliceToken)).map((d) => d.id)).not.toContain(ticket.uploadId);
    expect(await objectExists(`${alice}/${ticket.uploadId}/slow.pdf`)).toBe(false);
  });

  it('publishes the V1 events on JetStream, without titles, descriptions or file names', async () => {
    const owner = randomUUID();
    const token = h.tokenFor(owner);
    const title = `secret-title-${randomUUID().slice(0, 8)}`;
    const ticket = await call(CourtJournalRpc.startUpload, { title, category: 'Witness Statements', description: 'secret-description', fileName: 'secret-name.txt', size: 0 }, token).catch(() => null);
    expect(ticket).toBeNull();
    const body = courtFiles.txt();
    const t = await call(CourtJournalRpc.startUpload, { title, category: 'Witness Statements', description: 'secret-description', fileName: 'secret-name.txt', size: body.length }, token);
    const doc = (await put(t, token, [body])).json<CourtDocument>();
    await call(CourtJournalRpc.setKeyEvidence, { id: doc.id, isKeyEvidence: true }, token);
    await call(CourtJournalRpc.delete, { id: doc.id }, token);

    const jsm = await jetstreamManager(h.nats);
    const stream = scopedStreamName('court-journal', h.stackId);
    const mine: { subject: string; raw: string; event: PublishedEvent }[] = [];
    await waitFor(async () => {
      mine.length = 0;
      const info = await jsm.streams.info(stream);
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
        if (!message || !message.string().includes(owner)) continue;
        mine.push({ subject: message.subject, raw: message.string(), event: JSON.parse(message.string()) as PublishedEvent });
      }
      return mine.length >= 6;
    }, 15_000, 'the events to reach JetStream');
    const subjects = mine.map((m) => m.subject.slice(m.subject.indexOf('court-journal.')));
    expect(subjects).toEqual([
      CourtJournalEvents.CourtDocumentUploaded.subject, CourtJournalEvents.EvidenceHeadSigned.subject,
      CourtJournalEvents.CourtDocumentKeyEvidenceChanged.subject, CourtJournalEvents.EvidenceHeadSigned.subject,
      CourtJournalEvents.CourtDocumentDeleted.subject, CourtJournalEvents.EvidenceHeadSigned.subject,
    ]);
    expect(mine[0]!.event.data).toEqual({ documentId: doc.id, ownerId: owner, category: 'Witness Statements', variant: 'journal', size: body.length, sha256: sha(body), uploadedAt: doc.upload_date });
    expect(mine[1]!.event.data).toMatchObject({ ownerId: owner, sequence: 1, keyId: h.evidenceKey.keyId });
    for (const m of mine) for (const word of [title, 'secret-description', 'secret-name']) expect(m.raw).not.toContain(word);
  });
});
