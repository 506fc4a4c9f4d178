import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { ALL_BUCKETS, Buckets } from '@lv/contracts';
import { waitFor } from '@lv/testing';
import { PART_SIZE, createObjectStorage, type ObjectStorage } from '../src/storage/index.js';

// Runs against the embedded S3-protocol server (the dev stack's), started in-process on a free port.

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function* chunked(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('object storage (embedded S3 server)', () => {
  let dir: string;
  let server: RunningS3Server;
  let storage: ObjectStorage;
  const bucket = Buckets.documents;

  const configFor = (s: RunningS3Server, secret = s.secretKey) => ({
    S3_ENDPOINT: s.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY: s.accessKey,
    S3_SECRET_KEY: secret,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lv-storage-'));
    server = await startS3Server({ port: 0, directory: dir, accessKey: 'spec-key', secretKey: 'spec-secret' });
    storage = createObjectStorage(configFor(server));
    await storage.ensureBucket(bucket);
  });

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('uses 16 MiB parts and knows every bucket of the original app', () => {
    expect(storage.partSize).toBe(16 * 1024 * 1024);
    expect(PART_SIZE).toBe(16 * 1024 * 1024);
    expect([...ALL_BUCKETS].sort()).toEqual(['courtjournals', 'documents', 'parent-music-library', 'recordings', 'vault-media', 'vaultmedia', 'who-i-am']);
  });

  it('creates buckets idempotently, also when called concurrently', async () => {
    const fresh = createObjectStorage(configFor(server));
    await Promise.all([fresh.ensureBuckets(ALL_BUCKETS), fresh.ensureBuckets(ALL_BUCKETS), fresh.ensureBucket(Buckets.recordings)]);
    const names = (await fresh.client.listBuckets()).map((b) => b.name);
    for (const name of ALL_BUCKETS) expect(names).toContain(name);
  });

  it('puts, gets, reads a range and removes an object', async () => {
    const body = Buffer.from('0123456789abcdefghij');
    const put = await storage.upload(bucket, 'a/b/letter.txt', Readable.from([body]), { contentType: 'text/plain', metadata: { owner: 'u1' } });
    expect(put).toMatchObject({ size: body.length, parts: 1 });

    expect(await readAll(await storage.getObject(bucket, 'a/b/letter.txt'))).toEqual(body);
    expect((await readAll(await storage.getRange(bucket, 'a/b/letter.txt', 5, 4))).toString()).toBe('5678');

    const stat = await storage.client.statObject(bucket, 'a/b/letter.txt');
    expect(stat.size).toBe(body.length);
    expect(stat.metaData['content-type']).toBe('text/plain');
    expect(stat.metaData['owner']).toBe('u1');

    await storage.removeObject(bucket, 'a/b/letter.txt');
    await expect(storage.client.statObject(bucket, 'a/b/letter.txt')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('serves a presigned GET without credentials, and refuses an unsigned one', async () => {
    await storage.upload(bucket, 'shared.bin', Readable.from([Buffer.from('presigned bytes')]));
    const url = await storage.presignedGet(bucket, 'shared.bin', 60);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('presigned bytes');

    const unsigned = await fetch(`${server.endpoint}/${bucket}/shared.bin`);
    expect(unsigned.status).toBe(403);
    const tampered = await fetch(url.replace('shared.bin', 'other.bin'));
    expect(tampered.status).toBe(403);
  });

  it('uploads a large stream in parts and reads it back', async () => {
    const small = createObjectStorage(configFor(server), { partSize: 5 * 1024 * 1024 });
    const data = Buffer.alloc(12 * 1024 * 1024 + 123);
    for (let i = 0; i < data.length; i += 4096) data[i] = i % 251;
    const result = await small.upload(bucket, 'big/video.webm', chunked(data, 64 * 1024), { contentType: 'video/webm' });
    expect(result).toMatchObject({ size: data.length, parts: 3 });
    const back = await readAll(await small.getObject(bucket, 'big/video.webm'));
    expect(back.equals(data)).toBe(true);
    const tail = await readAll(await small.getRange(bucket, 'big/video.webm', data.length - 200));
    expect(tail.equals(data.subarray(data.length - 200))).toBe(true);
  });

  it('fills its parts from pieces of any size: a piece across two parts, exactly whole parts, one byte more, a piece larger than a part', async () => {
    const partSize = 5 * 1024 * 1024;
    const small = createObjectStorage(configFor(server), { partSize });
    const pattern = (length: number) => {
      const data = Buffer.allocUnsafe(length);
      for (let i = 0; i < length; i++) data[i] = (i * 31 + (i >> 12)) % 256;
      return data;
    };
    // Pieces of odd sizes (1 MiB + 7, then 3 bytes, then 2 MiB + 1...) so that pieces straddle the parts' edges.
    async function* oddPieces(data: Buffer): AsyncGenerator<Buffer> {
      const sizes = [1024 * 1024 + 7, 3, 2 * 1024 * 1024 + 1, 65_536, 11 * 1024 * 1024];
      for (let offset = 0, i = 0; offset < data.length; i++) {
        const end = Math.min(data.length, offset + sizes[i % sizes.length]!);
        yield data.subarray(offset, end);
        offset = end;
      }
    }
    for (const [name, length, parts] of [['exact', 2 * partSize, 2], ['one-more', 2 * partSize + 1, 3], ['under-one', partSize - 1, 1]] as const) {
      const data = pattern(length);
      const result = await small.upload(bucket, `parts/${name}.bin`, oddPieces(data));
      expect(result).toMatchObject({ size: length, parts });
      expect((await readAll(await small.getObject(bucket, `parts/${name}.bin`))).equals(data)).toBe(true);
    }
  });

  it('reads a whole object into one reused buffer (readObject), with the S3 error code when it is missing', async () => {
    const data = Buffer.alloc(12 * 1024 * 1024 + 123);
    for (let i = 0; i < data.length; i += 4096) data[i] = i % 251;
    await storage.upload(bucket, 'read/whole.webm', chunked(data, 1024 * 1024), { contentType: 'video/webm' });
    const pieces: Buffer[] = [];
    let largest = 0;
    const read = await storage.readObject(bucket, 'read/whole.webm', (piece) => {
      largest = Math.max(largest, piece.length);
      pieces.push(Buffer.from(piece));
    });
    expect(read.size).toBe(data.length);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
    // A key with characters that need encoding, signed and read the same way.
    await storage.upload(bucket, 'read/a key+ü.txt', Readable.from([Buffer.from('odd name')]));
    const odd: Buffer[] = [];
    await storage.readObject(bucket, 'read/a key+ü.txt', (piece) => odd.push(Buffer.from(piece)));
    expect(Buffer.concat(odd).toString()).toBe('odd name');

    await expect(storage.readObject(bucket, 'read/missing.webm', () => undefined)).rejects.toMatchObject({ code: 'NoSuchKey' });
    const wrong = createObjectStorage(configFor(server, 'not-the-secret'));
    await expect(wrong.readObject(bucket, 'read/whole.webm', () => undefined)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    await expect(storage.readObject(bucket, 'read/whole.webm', () => { throw new Error('disk full'); })).rejects.toThrow('disk full');
  });

  it('serves a large object from a few reused buffers: ranges across its 4 MiB reads, an empty object, a client that leaves mid-body', async () => {
    const data = Buffer.alloc(13 * 1024 * 1024 + 7);
    for (let i = 0; i < data.length; i += 1000) data[i] = (i / 1000) % 253;
    await storage.upload(bucket, 'served/large.webm', chunked(data, 1024 * 1024), { contentType: 'video/webm' });
    await storage.upload(bucket, 'served/empty.txt', Readable.from([Buffer.alloc(0)]));

    expect((await readAll(await storage.getObject(bucket, 'served/large.webm'))).equals(data)).toBe(true);
    const across = 4 * 1024 * 1024 - 10;
    expect((await readAll(await storage.getRange(bucket, 'served/large.webm', across, 8 * 1024 * 1024 + 20))).equals(data.subarray(across, across + 8 * 1024 * 1024 + 20))).toBe(true);
    expect((await readAll(await storage.getObject(bucket, 'served/empty.txt'))).length).toBe(0);

    // The object's files that this process (the server runs in it) holds open.
    const openObjectFiles = async () => {
      const links = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
      return links.filter((link) => link.startsWith(dir) && link.includes('large.webm'));
    };
    const url = await storage.presignedGet(bucket, 'served/large.webm', 60);
    await new Promise<void>((resolve, reject) => {
      httpGet(url, (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      }).on('error', reject);
    });
    await waitFor(async () => (await openObjectFiles()).length === 0, 5000, 'the server to close the object file the client left');
    // The server goes on serving the object whole.
    expect((await readAll(await storage.getObject(bucket, 'served/large.webm'))).equals(data)).toBe(true);
    expect(await openObjectFiles()).toEqual([]);
  });

  it('aborts the multipart upload and removes its parts when the source fails', async () => {
    const small = createObjectStorage(configFor(server), { partSize: 5 * 1024 * 1024 });
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(6 * 1024 * 1024, 1);
      throw new Error('client went away');
    }
    await expect(small.upload(bucket, 'broken.webm', failing())).rejects.toThrow('client went away');
    expect(await readdir(join(dir, bucket, '._S3rver_uploads'))).toEqual([]);
    await expect(small.client.statObject(bucket, 'broken.webm')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('aborts a multipart upload left behind by a dead process, and takes a second abort as done', async () => {
    const uploadId = await storage.client.initiateNewMultipartUpload(bucket, 'orphan.webm', {});
    await storage.client.uploadPart({ bucketName: bucket, objectName: 'orphan.webm', uploadID: uploadId, partNumber: 1, headers: {} }, Buffer.alloc(1024, 2));
    expect(await readdir(join(dir, bucket, '._S3rver_uploads'))).toEqual([uploadId]);
    await storage.abortMultipartUpload(bucket, 'orphan.webm', uploadId);
    expect(await readdir(join(dir, bucket, '._S3rver_uploads'))).toEqual([]);
    await expect(storage.abortMultipartUpload(bucket, 'orphan.webm', uploadId)).resolves.toBeUndefined();
  });

  it('rejects a wrong secret', async () => {
    const wrong = createObjectStorage(configFor(server, 'not-the-secret'));
    await expect(wrong.client.listBuckets()).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    await expect(wrong.upload(bucket, 'x.txt', Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    await expect(wrong.ping()).rejects.toBeDefined();
  });

  it('pings a live server and fails fast on a dead one', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    const dead = createObjectStorage({ ...configFor(server), S3_ENDPOINT: 'http://127.0.0.1:1' });
    await expect(dead.ping(1000)).rejects.toBeDefined();
  });

  it('keeps objects across a restart of the server', async () => {
    await storage.upload(bucket, 'durable.txt', Readable.from([Buffer.from('still here')]));
    await server.close();
    server = await startS3Server({ port: 0, directory: dir, accessKey: 'spec-key', secretKey: 'spec-secret' });
    const again = createObjectStorage(configFor(server));
    expect((await readAll(await again.getObject(bucket, 'durable.txt'))).toString()).toBe('still here');
  });
});
