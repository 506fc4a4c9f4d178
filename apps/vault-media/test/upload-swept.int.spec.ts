import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { VaultMediaRpc, type ErrorBody, type Recording, type RpcDeclaration } from '@lv/contracts';
import { waitFor } from '@lv/testing';
import { startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// An upload and the sweeper that closes stale ones (MEDIA_UPLOAD_STALE_SECONDS, 2 s here), in one
// process: once seen as a 500 after the crash spec's restart, when the sweeper closed an upload whose
// bytes were still coming and storage then refused the rest. A live upload is never swept; one the
// sweeper closed while its client had stalled is answered 400 UPLOAD_INCOMPLETE, never a server error.
//
// The sweeps here are asked "as of" a moment the spec chooses (a stale time after what the database
// shows), never left to the wall clock: on a busy machine a two-second pause of the database or of
// this process would otherwise look like a stalled upload, or hide one.

jest.setTimeout(120_000);

const MiB = 1024 * 1024;
const STALE_SECONDS = 2;
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media: uploads and the sweeper', () => {
  let h: Harness;
  let token: string;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const objectRow = async (id: string) =>
    (await h.db.orm.em.fork().execute<{ state: string; multipart_upload_id: string | null; bytes_received: string | number; last_activity_ms: number }[]>(
      `select state, multipart_upload_id, bytes_received, floor(extract(epoch from last_activity_at) * 1000)::float8 as last_activity_ms
         from media_objects where recording_id = ?`, [id]))[0];
  /** The row once a heartbeat has recorded every byte sent so far (the server has taken them all in). */
  const recorded = async (id: string, bytes: number) => {
    let row: Awaited<ReturnType<typeof objectRow>>;
    await waitFor(async () => Number((row = await objectRow(id))?.bytes_received) === bytes, 30_000, `a heartbeat to record ${bytes} bytes`);
    return row!;
  };
  const partsDir = () => join(h.s3Dir, 'vaultmedia', '._S3rver_uploads');
  const leftoverParts = async () => (existsSync(partsDir()) ? readdir(partsDir()) : []);
  /** A PUT of `length` bytes whose body the spec writes piece by piece. */
  const openUpload = (uploadId: string, length: number) => {
    const upload = httpRequest(`${h.mediaUrl}/uploads/${uploadId}`, {
      method: 'PUT', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm', 'content-length': String(length) },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      });
      upload.on('error', reject);
    });
    return { upload, answer };
  };

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
    const { upload, answer } = openUpload(ticket.uploadId, body.length);
    // 6 MiB arrive (a 5 MiB part is stored), then the client stalls.
    upload.write(body.subarray(0, 6 * MiB));
    // All 6 MiB taken in means the first part is stored (the next bytes are read only once it is):
    // the server is now waiting on a silent client, and stops beating.
    const stalled = await recorded(ticket.uploadId, 6 * MiB);
    expect(stalled.multipart_upload_id).toBeTruthy();
    // A sweep a stale time later closes it (not a moment sooner).
    expect((await h.service.sweep(stalled.last_activity_ms + STALE_SECONDS * 1000 - 1)).abandoned).toBe(0);
    expect((await h.service.sweep(stalled.last_activity_ms + STALE_SECONDS * 1000 + 1)).abandoned).toBe(1);
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
    const { upload, answer } = openUpload(ticket.uploadId, body.length);
    // Eight pieces of 1 MiB. After each has been taken in, a sweeper judging a stale time after the
    // activity recorded before that piece (so, by its clock, the upload has been going for longer
    // than the stale time) finds the upload alive, as a second replica's would.
    const piece = body.length / 8;
    let before = (await objectRow(ticket.uploadId))!.last_activity_ms;
    const sweeps: { abandoned: number }[] = [];
    for (let sent = piece; sent < body.length; sent += piece) {
      upload.write(body.subarray(sent - piece, sent));
      const now = await recorded(ticket.uploadId, sent);
      expect(now.last_activity_ms).toBeGreaterThan(before);
      sweeps.push(await h.service.sweep(before + STALE_SECONDS * 1000 + 1));
      before = now.last_activity_ms;
    }
    upload.end(body.subarray(body.length - piece));
    const { status, body: text } = await answer;
    expect(sweeps).toHaveLength(7);
    expect(sweeps.filter((s) => s.abandoned > 0)).toEqual([]);
    expect(status).toBe(201);
    expect(JSON.parse(text) as Recording).toMatchObject({ id: ticket.uploadId, size: body.length, blob_hash: sha(body) });
  });
});
