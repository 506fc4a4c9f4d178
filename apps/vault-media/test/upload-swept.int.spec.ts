import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { VaultMediaRpc, type ErrorBody, type Recording, type RpcDeclaration } from '@lv/contracts';
import { waitFor } from '@lv/testing';
import { sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// An upload and the sweeper that closes stale ones (MEDIA_UPLOAD_STALE_SECONDS, 2 s here), in one
// process: once seen as a 500 after the crash spec's restart, when the sweeper closed an upload whose
// bytes were still coming and storage then refused the rest. A live upload is never swept; one the
// sweeper closed while its client had stalled is answered 400 UPLOAD_INCOMPLETE, never a server error.

jest.setTimeout(120_000);

const MiB = 1024 * 1024;
const STALE_SECONDS = 2;
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media: uploads and the sweeper', () => {
  let h: Harness;
  let token: string;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const objectRow = async (id: string) =>
    (await h.db.orm.em.fork().execute<{ state: string; multipart_upload_id: string | null }[]>('select state, multipart_upload_id from media_objects where recording_id = ?', [id]))[0];
  const partsDir = () => join(h.s3Dir, 'vaultmedia', '._S3rver_uploads');
  const leftoverParts = async () => (existsSync(partsDir()) ? readdir(partsDir()) : []);

  beforeAll(async () => {
    h = await startVaultMedia('mediaswept', { MEDIA_UPLOAD_STALE_SECONDS: String(STALE_SECONDS) });
    token = h.tokenFor(randomUUID(), 'pro');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers 400 UPLOAD_INCOMPLETE, not 500, when the client finishes an upload the sweeper closed while it stalled, and leaves nothing', async () => {
    const body = webmBody(8 * MiB);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Late', sha256: sha(body), size: body.length });
    const upload = httpRequest(`${h.mediaUrl}/uploads/${ticket.uploadId}`, {
      method: 'PUT', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm', 'content-length': String(body.length) },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      });
      upload.on('error', reject);
    });
    // 6 MiB arrive (a 5 MiB part is stored), then the client stalls past the stale time.
    upload.write(body.subarray(0, 6 * MiB));
    await waitFor(async () => Boolean((await objectRow(ticket.uploadId))?.multipart_upload_id), 15_000, 'the multipart upload to start');
    // The server may still be storing the first part: it beats while busy, so the sweeper leaves the
    // upload alone. Only once it has waited on the silent client for the stale time does a sweep close
    // it. (Backdating the row here would let a sweep abort the upload under a part still being
    // written, which is not the stall this spec is about.)
    await waitFor(async () => (await h.service.sweep()).abandoned === 1, 30_000, 'the sweeper to close the stalled upload');
    expect(await leftoverParts()).toEqual([]);

    // The client wakes up and sends the rest: storage refuses the parts of the aborted upload.
    upload.end(body.subarray(6 * MiB));
    const { status, body: text } = await answer;
    expect({ status, code: (JSON.parse(text) as ErrorBody).code }).toEqual({ status: 400, code: 'UPLOAD_INCOMPLETE' });
    expect((await objectRow(ticket.uploadId))?.state).toBe('removed');
    expect(await leftoverParts()).toEqual([]);
    expect((await call(VaultMediaRpc.listRecordings, { limit: 100 })).map((r) => r.id)).not.toContain(ticket.uploadId);
  });

  it('never sweeps an upload whose bytes keep coming, however long it takes past the stale time', async () => {
    const body = webmBody(8 * MiB);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Slow and steady', sha256: sha(body), size: body.length });
    // 40 pieces, one every 100 ms: twice the stale time, with no pause longer than a tenth of it.
    const pieces = Array.from({ length: 40 }, (_, i) => body.subarray((i * body.length) / 40, ((i + 1) * body.length) / 40));
    const answer = sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm' }, chunks: pieces, delayMs: 100 });
    let finished = false;
    const sweeps: { abandoned: number }[] = [];
    void answer.finally(() => (finished = true)).catch(() => undefined);
    // The sweeper runs all along, as a second replica's would.
    while (!finished) {
      sweeps.push(await h.service.sweep());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const { status } = await answer;
    expect(sweeps.filter((s) => s.abandoned > 0)).toEqual([]);
    expect(sweeps.length).toBeGreaterThan((STALE_SECONDS * 1000) / 250);
    expect(status).toBe(201);
    expect((await answer).json<Recording>()).toMatchObject({ id: ticket.uploadId, size: body.length, blob_hash: sha(body) });
  });
});
