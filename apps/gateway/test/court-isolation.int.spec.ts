// Court documents end to end through the gateway, in front of the REAL court-journal and timeline
// (child processes built from this checkout's sources) on the machine's PostgreSQL, NATS and Redis
// and the embedded S3 server. Nothing stands in for the service that decides ownership and file kinds, so a scoping bug
// shows up here as something other than 404, and a disguised file as something other than 415.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  CourtMessages, type CourtDocument, type CourtFileLink, type EvidenceEntrySummary, type EvidencePublicKeys, type SignedEvidenceHead,
} from '@lv/contracts';
import { generateTestKeys, userTokenSigner, sendHttp, uniqueStackId, waitFor, type HttpAnswer } from '@lv/testing';
import { startRealServiceStack, type RealServiceStack } from './support/real-service-stack.js';

jest.setTimeout(180_000);

// Subjects are fixed when the gateway's modules load: choose this spec's stack first.
const stackId = uniqueStackId('gwcourtiso');
process.env.STACK_ID = stackId;

const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);

/** A request whose body (if any) is sent whole. */
const send = (url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<HttpAnswer> =>
  sendHttp(url, { method: options.method, headers: options.headers, chunks: options.body ? [options.body] : [] });
const cookieOf = (answer: HttpAnswer) => ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('lv_court='))!.split(';', 1)[0]!;

/** A small but real PDF (court-journal checks the magic bytes and the trailer's shape). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A PNG's signature: bytes that are an image whatever the name says. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);

describe('gateway + real court-journal: owners, links and file kinds', () => {
  let stack: RealServiceStack | undefined;
  let base: string;
  const alice = randomUUID();
  const bob = randomUUID();
  const aliceAuth = { authorization: `Bearer ${tokenFor(alice)}` };
  const bobAuth = { authorization: `Bearer ${tokenFor(bob)}` };
  const json = (auth: Record<string, string>) => ({ ...auth, 'content-type': 'application/json' });

  /** Start, then stream the body, as the SPA does; answers the PUT. */
  async function uploadAs(auth: Record<string, string>, form: { title: string; category: string; fileName: string }, body: Buffer, type: string): Promise<HttpAnswer> {
    const started = await send(`${base}/api/court/uploads`, { method: 'POST', headers: json(auth), body: Buffer.from(JSON.stringify({ ...form, size: body.length })) });
    expect(started.status).toBe(201);
    const { uploadUrl } = started.json() as { uploadUrl: string };
    return send(`${base}${uploadUrl}`, { method: 'PUT', headers: { ...auth, 'content-type': type, 'content-length': String(body.length) }, body });
  }

  beforeAll(async () => {
    // The timeline reads court-journal's stream and asks it for titles.
    stack = await startRealServiceStack({
      label: 'court-iso', stackId, projects: ['libs/evidence', 'apps/court-journal'], service: 'court-journal', jwtPublicKey: keys.publicKey,
      serviceSettings: (port) => ({
        COURT_JOURNAL_HTTP_PORT: String(port), COURT_LINK_SECRET: randomBytes(24).toString('hex'),
        EVIDENCE_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
      urlSetting: 'COURT_JOURNAL_URL', streams: ['court-journal', 'timeline', 'letters', 'vault-media'],
    });
    base = stack.base;
  });

  afterAll(async () => {
    await stack?.close();
  });

  let document: CourtDocument;

  it('stores a PDF streamed through the gateway, with the hash of its bytes, and lists it for its owner only', async () => {
    const put = await uploadAs(aliceAuth, { title: 'Custody order', category: 'Custody', fileName: 'order.pdf' }, PDF, 'application/pdf');
    expect(put.status).toBe(201);
    document = put.json() as CourtDocument;
    // Sent with an old category (a page loaded before the one model): filed under its Court Journal card.
    expect(document).toMatchObject({ title: 'Custody order', category: 'Legal Notices or Orders', variant: 'documents', file_kind: 'pdf', size: PDF.length, is_key_evidence: false });
    const { createHash } = await import('node:crypto');
    expect(document.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));

    expect((await send(`${base}/api/court/documents`, { headers: aliceAuth })).json<CourtDocument[]>().map((d) => d.id)).toEqual([document.id]);
    expect((await send(`${base}/api/court/documents`, { headers: bobAuth })).json()).toEqual([]);
  });

  it('answers another user 404 "Document not found" for the key-evidence toggle, delete, preview and download links', async () => {
    const notFound = { code: 'NOT_FOUND', message: CourtMessages.notFound };
    const flag = await send(`${base}/api/court/documents/${document.id}`, { method: 'PATCH', headers: json(bobAuth), body: Buffer.from('{"is_key_evidence":true}') });
    expect({ status: flag.status, body: flag.json() }).toEqual({ status: 404, body: notFound });
    const del = await send(`${base}/api/court/documents/${document.id}`, { method: 'DELETE', headers: bobAuth });
    expect({ status: del.status, body: del.json() }).toEqual({ status: 404, body: notFound });
    for (const disposition of ['inline', 'attachment']) {
      const link = await send(`${base}/api/court/documents/${document.id}/link`, { method: 'POST', headers: json(bobAuth), body: Buffer.from(JSON.stringify({ disposition })) });
      expect({ disposition, status: link.status, body: link.json() }).toEqual({ disposition, status: 404, body: notFound });
    }
    // Still Alice's, unchanged.
    expect((await send(`${base}/api/court/documents`, { headers: aliceAuth })).json<CourtDocument[]>()[0]).toMatchObject({ id: document.id, is_key_evidence: false });
  });

  it('previews inline and downloads as an attachment, nosniff, only with the owner’s binding cookie', async () => {
    const preview = await send(`${base}/api/court/documents/${document.id}/link`, { method: 'POST', headers: json(aliceAuth), body: Buffer.from('{"disposition":"inline"}') });
    expect(preview.status).toBe(200);
    const { url } = preview.json() as CourtFileLink;
    const aliceCookie = cookieOf(preview);
    const shown = await send(`${base}${url}`, { headers: { cookie: aliceCookie } });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(PDF);
    expect(shown.headers['content-type']).toBe('application/pdf');
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
    expect(String(shown.headers['content-disposition'])).toMatch(/^inline/);

    const download = await send(`${base}/api/court/documents/${document.id}/link`, { method: 'POST', headers: json(aliceAuth), body: Buffer.from('{"disposition":"attachment"}') });
    const saved = await send(`${base}${(download.json() as CourtFileLink).url}`, { headers: { cookie: cookieOf(download) } });
    expect(saved.status).toBe(200);
    expect(String(saved.headers['content-disposition'])).toMatch(/^attachment/);
    expect(saved.body).toEqual(PDF);

    // Alice's link: without a cookie, or with Bob's binding (he asked for a bundle link of his own), refused.
    const bobBinding = cookieOf(await send(`${base}/api/court/evidence/bundle-link`, { method: 'POST', headers: bobAuth }));
    for (const headers of [{}, { cookie: bobBinding }] as Record<string, string>[]) {
      const refused = await send(`${base}${url}`, { headers });
      expect({ status: refused.status, body: refused.json() }).toEqual({ status: 403, body: { code: 'FORBIDDEN', message: CourtMessages.linkInvalid } });
    }
  });

  it('refuses a disguised file (a PNG named .pdf, bytes of no accepted kind) with 415, whatever the browser claimed', async () => {
    const png = await uploadAs(aliceAuth, { title: 'Not a PDF', category: 'Support', fileName: 'statement.pdf' }, PNG, 'application/pdf');
    expect({ status: png.status, code: png.json<{ code: string }>().code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA' });
    const exe = await uploadAs(aliceAuth, { title: 'A program', category: 'Other', fileName: 'photo.jpg' }, Buffer.concat([Buffer.from('MZ'), randomBytes(500)]), 'image/jpeg');
    expect({ status: exe.status, code: exe.json<{ code: string }>().code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA' });
    expect((await send(`${base}/api/court/documents`, { headers: aliceAuth })).json()).toHaveLength(1);
  });

  it('publishes the evidence keys to anyone, signs the owner’s chain head, and hands the owner a ZIP bundle', async () => {
    const published = await send(`${base}/api/court/evidence/keys`);
    expect(published.status).toBe(200);
    expect(published.json<EvidencePublicKeys>().keys[0]).toMatchObject({ algorithm: 'Ed25519', publicKeyPem: expect.stringContaining('BEGIN PUBLIC KEY'), validUntil: null });
    const head = await send(`${base}/api/court/evidence/head`, { headers: aliceAuth });
    expect(head.json()).toMatchObject({ ownerId: alice, keyId: published.json<EvidencePublicKeys>().keys[0]!.keyId });
    expect(head.json<SignedEvidenceHead>().sequence).toBeGreaterThanOrEqual(1);
    const link = await send(`${base}/api/court/evidence/bundle-link`, { method: 'POST', headers: aliceAuth });
    const zip = await send(`${base}${(link.json() as CourtFileLink).url}`, { headers: { cookie: cookieOf(link) } });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(String(zip.headers['content-disposition'])).toMatch(/^attachment/);
    expect(zip.body.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    // Bob's chain is his own: nothing of Alice's in it.
    expect((await send(`${base}/api/court/evidence/entries`, { headers: bobAuth })).json<EvidenceEntrySummary[]>().filter((e) => e.documentId === document.id)).toEqual([]);
  });

  it('puts a journal note (.txt) on the owner’s timeline, titled by court-journal; deleting the entry there deletes the document', async () => {
    const note = Buffer.from('Saturday 10:00: collected the children late, no message.\n');
    const put = await uploadAs(aliceAuth, { title: 'Late pick-up', category: 'Timeline of Events', fileName: 'late.txt' }, note, 'text/plain');
    expect(put.status).toBe(201);
    const saved = put.json() as CourtDocument;
    expect(saved).toMatchObject({ variant: 'journal', file_kind: 'txt', size: note.length });
    const entryOf = async (auth: Record<string, string>) =>
      ((await send(`${base}/api/timeline`, { headers: auth })).json() as { entries: { id: string }[] }).entries.find((e) => e.id === saved.id);
    await waitFor(async () => (await entryOf(aliceAuth)) !== undefined, 20_000, 'the note on the timeline');
    expect(await entryOf(aliceAuth)).toMatchObject({ source: 'court-journal', type: 'journal', title: 'Late pick-up', blob_hash: saved.sha256, size: note.length });
    expect(await entryOf(bobAuth)).toBeUndefined();
    // Bob cannot delete it from his timeline; Alice can, and the document goes with it. No vault-media
    // runs here: the timeline names court-journal as the owner, the only service asked to delete.
    expect((await send(`${base}/api/timeline/${saved.id}`, { method: 'DELETE', headers: bobAuth })).status).toBe(404);
    expect((await send(`${base}/api/timeline/${saved.id}`, { method: 'DELETE', headers: aliceAuth })).status).toBe(204);
    expect(await entryOf(aliceAuth)).toBeUndefined();
    expect((await send(`${base}/api/court/documents`, { headers: aliceAuth })).json<CourtDocument[]>().map((d) => d.id)).not.toContain(saved.id);
  });

  it('lets the owner mark key evidence and delete; the chain keeps every step', async () => {
    const marked = await send(`${base}/api/court/documents/${document.id}`, { method: 'PATCH', headers: json(aliceAuth), body: Buffer.from('{"is_key_evidence":true}') });
    expect(marked.json()).toMatchObject({ id: document.id, is_key_evidence: true });
    expect((await send(`${base}/api/court/documents/${document.id}`, { method: 'DELETE', headers: aliceAuth })).status).toBe(204);
    expect((await send(`${base}/api/court/documents`, { headers: aliceAuth })).json()).toEqual([]);
    const entries = (await send(`${base}/api/court/evidence/entries`, { headers: aliceAuth })).json() as { action: string; documentId: string | null }[];
    expect(entries.filter((e) => e.documentId === document.id).map((e) => e.action)).toEqual(expect.arrayContaining(['uploaded', 'viewed', 'key-evidence-marked', 'deleted']));
  });
});
