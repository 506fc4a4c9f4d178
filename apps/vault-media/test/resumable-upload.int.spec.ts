import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { seededRandom } from '@lv/testing';
import { startVaultMedia, type Harness } from './test-support/harness.js';

// Uploads that survive a dropped connection, on the real listener, database and S3 server: a
// 200 MiB recording whose connection is cut at 20 random byte offsets, each time resumed from what
// the vault says it holds (tus HEAD), ends as one object whose SHA-256 is the source's; no part
// is left behind, and the process's memory stays flat (a part per request, never the file).

jest.setTimeout(600_000);

const MiB = 1024 * 1024;
const SIZE = 200 * MiB;
const CUTS = 20;
const TUS = { 'tus-resumable': '1.0.0' };

/** The source, made block by block from one random MiB (never held whole): block i is the base with i written into it. */
function sourceOf(size: number) {
  const base = randomBytes(MiB);
  base.set([0x1a, 0x45, 0xdf, 0xa3], 0);
  const block = (i: number) => {
    const b = Buffer.from(base);
    b.writeUInt32BE(i, 8);
    return b;
  };
  function* bytes(from: number, to: number): Generator<Buffer> {
    for (let at = from; at < to; ) {
      const i = Math.floor(at / MiB);
      const end = Math.min(to, (i + 1) * MiB);
      yield block(i).subarray(at - i * MiB, end - i * MiB);
      at = end;
    }
  }
  const hash = createHash('sha256');
  for (const piece of bytes(0, size)) hash.update(piece);
  return { bytes, sha256: hash.digest('hex') };
}

interface Answer { status: number; headers: IncomingMessage['headers']; body: string }

function answerOf(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    res.on('error', reject);
  });
}

describe('vault-media: resumable uploads (tus)', () => {
  let h: Harness;
  let token: string;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const url = (id: string) => `${h.mediaUrl}/tus/${id}`;

  const head = (id: string, bearer = token): Promise<Answer> => new Promise((resolve, reject) => {
    const req = httpRequest(url(id), { method: 'HEAD', agent: false, headers: { ...TUS, authorization: `Bearer ${bearer}` } });
    req.on('response', (res) => resolve(answerOf(res)));
    req.on('error', reject);
    req.end();
  });

  /** A PATCH of `pieces` from `offset`; with `cutAt`, the connection is torn down after that many bytes of it. */
  const patch = (id: string, offset: number, length: number, pieces: Iterable<Buffer>, cutAt?: number): Promise<Answer | 'cut'> => new Promise((resolve, reject) => {
    const req = httpRequest(url(id), {
      method: 'PATCH', agent: false,
      headers: { ...TUS, authorization: `Bearer ${token}`, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), 'content-length': String(length) },
    });
    req.on('response', (res) => resolve(answerOf(res)));
    req.on('error', (err) => (cutAt === undefined ? reject(err) : resolve('cut')));
    const iterator = pieces[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        const next = iterator.next();
        if (next.done) {
          if (cutAt === undefined) req.end();
          else req.destroy();
          return;
        }
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });

  beforeAll(async () => {
    h = await startVaultMedia('mediatus', { MEDIA_MAX_UPLOAD_BYTES: String(256 * MiB), MEDIA_PART_SIZE_MB: '8' });
    token = h.tokenFor(randomUUID(), 'pro');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('a 200 MiB upload cut at 20 random offsets ends as one object with the source SHA-256, nothing stored twice, memory flat', async () => {
    // A new seed each run (printed), so the cuts fall somewhere else every time; RESUMABLE_SEED replays one.
    const seed = Number(process.env.RESUMABLE_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seededRandom(seed);
    const source = sourceOf(SIZE);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Cut twenty times', sha256: source.sha256, size: SIZE });
    expect(ticket.resumableUrl).toBe(`/api/media/tus/${ticket.uploadId}`);
    const cuts = Array.from({ length: CUTS }, () => 1 + Math.floor(random() * (SIZE - 1))).sort((a, b) => a - b);

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const offsets: number[] = [];
    let resent = 0;
    try {
      let offset = 0;
      for (const cut of cuts) {
        if (cut <= offset) continue;
        // The client sends from where the vault stands up to the cut, then its connection drops.
        expect(await patch(ticket.uploadId, offset, SIZE - offset, source.bytes(offset, cut), cut)).toBe('cut');
        const status = await waitForSettled(ticket.uploadId, offset);
        const held = Number(status.headers['upload-offset']);
        expect(Number(status.headers['upload-length'])).toBe(SIZE);
        // Never more than was sent, never less than before: whole parts kept, the rest to send again.
        expect(held).toBeGreaterThanOrEqual(offset);
        expect(held).toBeLessThanOrEqual(cut);
        resent += cut - held;
        offsets.push(held);
        offset = held;
      }
      const last = await patch(ticket.uploadId, offset, SIZE - offset, source.bytes(offset, SIZE));
      expect(last).toMatchObject({ status: 200 });
      const saved = JSON.parse((last as Answer).body) as Recording;
      expect(saved).toMatchObject({ id: ticket.uploadId, size: SIZE, blob_hash: source.sha256 });
    } finally {
      clearInterval(sampler);
    }

    // The object in storage, read back: the source's bytes exactly.
    const hash = createHash('sha256');
    const { size } = await h.resources.storage.readObject('vaultmedia', ticket.objectKey, (piece) => hash.update(piece));
    expect({ size, sha256: hash.digest('hex') }).toEqual({ size: SIZE, sha256: source.sha256 });
    // No part left over in the S3 server's multipart area, no other object of this upload.
    const partsDir = join(h.s3Dir, 'vaultmedia', '._S3rver_uploads');
    expect(existsSync(partsDir) ? await readdir(partsDir) : []).toEqual([]);
    const row = (await h.db.orm.em.fork().execute<{ state: string; bytes_received: string }[]>('select state, bytes_received from media_objects where recording_id = ?', [ticket.uploadId]))[0];
    expect(row).toEqual({ state: 'stored', bytes_received: String(SIZE) });
    // Asked again after the end (a client whose last answer was lost): complete.
    const after = await head(ticket.uploadId);
    expect(after.headers['upload-offset']).toBe(String(SIZE));

    const growth = (peak - baseline) / MiB;
    console.log(`resumable upload (seed ${seed}): ${SIZE / MiB} MiB, ${offsets.length} cuts, offsets held ${offsets.map((o) => (o / MiB).toFixed(0)).join(', ')} MiB; `
      + `${(resent / MiB).toFixed(1)} MiB sent again; RSS grew ${growth.toFixed(1)} MiB (part size 8 MiB)`);
    expect(growth).toBeLessThan(SIZE / MiB / 2);
  });

  it("refuses another owner's HEAD and PATCH alike, a wrong offset, and a body that is not the ticket's format", async () => {
    const body = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(64 * 1024)]);
    const sha = createHash('sha256').update(body).digest('hex');
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Mine', sha256: sha, size: body.length });
    const stranger = h.tokenFor(randomUUID(), 'pro');
    expect((await head(ticket.uploadId, stranger)).status).toBe(404);
    expect((await head(ticket.uploadId, 'not-a-token')).status).toBe(401);
    expect((await head(randomUUID())).status).toBe(404);
    expect(await patch(ticket.uploadId, 10, body.length - 10, [body.subarray(10)])).toMatchObject({ status: 409 });
    const saved = await patch(ticket.uploadId, 0, body.length, [body]);
    expect(saved).toMatchObject({ status: 200 });

    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1000)]);
    const wrong = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Not a video', sha256: createHash('sha256').update(png).digest('hex'), size: png.length });
    const refused = await patch(wrong.uploadId, 0, png.length, [png]);
    expect(refused).toMatchObject({ status: 415 });
    expect(JSON.parse((refused as Answer).body)).toMatchObject({ code: 'UNSUPPORTED_MEDIA' });
    expect((await head(wrong.uploadId)).status).toBe(400);
  });

  /**
   * Where the vault stands after a cut. The HEAD waits for the lock of the upload, which the cut
   * request holds until it has stored what it keeps (tus asks it to let go): the answer is settled.
   */
  async function waitForSettled(id: string, before: number): Promise<Answer> {
    const answer = await head(id);
    if (answer.status !== 200 && answer.status !== 204) throw new Error(`HEAD answered ${answer.status}: ${answer.body}`);
    expect(Number(answer.headers['upload-offset'])).toBeGreaterThanOrEqual(before);
    return answer;
  }
});
