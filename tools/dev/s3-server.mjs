#!/usr/bin/env node
// The S3-protocol server of the dev stack and of the tests: no S3 server can be installed here
// (no Docker, not in Debian), so @20minutes/s3rver stands in for it. It checks SigV4 signatures
// (a wrong secret is rejected) and keeps its data on disk, so objects survive a restart.
// deploy/ and docker-compose.yml use a real S3 server (SeaweedFS). Objects are read 4 MiB at a time (see below).
//
// s3rver lacks two calls the minio client makes, answered here by a shim that runs only after
// s3rver has authenticated the request (the shim turns s3rver's own NotImplemented /
// MethodNotAllowed for exactly these two calls into real answers); unsigned requests get 403 as on
// MinIO:
//   GET /<bucket>?uploads                  -> an empty ListMultipartUploadsResult (minio-js asks
//                                             before every multipart upload; 501 broke it)
//   DELETE /<bucket>/<key>?uploadId=<id>   -> abort: removes the upload's stored parts (204)
//
// Usage: node tools/dev/s3-server.mjs [--port 9000] [--host 127.0.0.1] [--dir .data/s3]
//        [--access-key K] [--secret-key S]   (env: S3_PORT, S3_DIR, S3_ACCESS_KEY, S3_SECRET_KEY)
import { createRequire } from 'node:module';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const S3rver = require('@20minutes/s3rver');
const AWSAccount = require('@20minutes/s3rver/lib/models/account');
const FilesystemStore = require('@20minutes/s3rver/lib/stores/filesystem');
const S3Object = require('@20minutes/s3rver/lib/models/object');

export const DEFAULT_S3_ACCESS_KEY = 'legacy-vault';
export const DEFAULT_S3_SECRET_KEY = 'legacy-vault-dev-secret';

const UPLOADS_DIR = '._S3rver_uploads'; // s3rver's FilesystemStore keeps parts in <bucket>/._S3rver_uploads/<uploadId>/

const xmlEscape = (s) => String(s).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]);

// s3rver serves anonymous requests; MinIO and S3 refuse them on private buckets. Do the same, so
// code that forgets to sign (or to presign) fails here as it would in production.
async function denyAnonymous(ctx, next) {
  const signed = 'authorization' in ctx.headers || 'X-Amz-Algorithm' in ctx.query || 'Signature' in ctx.query;
  if (signed || ctx.method === 'OPTIONS') return next();
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied.</Message></Error>';
}

function multipartShim(directory) {
  return async function s3MultipartShim(ctx, next) {
    try {
      await next();
    } catch (err) {
      const code = err && err.code;
      if (code !== 'NotImplemented' && code !== 'MethodNotAllowed') throw err;
      const segments = ctx.path.split('/').filter(Boolean);
      const bucket = segments[0] ? decodeURIComponent(segments[0]) : undefined;

      if (ctx.method === 'GET' && segments.length === 1 && 'uploads' in ctx.query) {
        ctx.status = 200;
        ctx.type = 'application/xml';
        ctx.body = [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
          `<Bucket>${xmlEscape(bucket)}</Bucket>`,
          '<KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>',
          '<NextKeyMarker></NextKeyMarker><NextUploadIdMarker></NextUploadIdMarker>',
          `<Prefix>${xmlEscape(ctx.query.prefix ?? '')}</Prefix>`,
          `<Delimiter>${xmlEscape(ctx.query.delimiter ?? '')}</Delimiter>`,
          '<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>',
          '</ListMultipartUploadsResult>',
        ].join('');
        return;
      }

      if (ctx.method === 'DELETE' && segments.length >= 2 && typeof ctx.query.uploadId === 'string') {
        const uploadId = ctx.query.uploadId;
        const uploadDir = /^[A-Za-z0-9_-]{1,128}$/.test(uploadId) ? join(directory, bucket, UPLOADS_DIR, uploadId) : undefined;
        const exists = uploadDir ? await stat(uploadDir).then(() => true, () => false) : false;
        if (!exists) {
          ctx.status = 404;
          ctx.type = 'application/xml';
          ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xmlEscape(uploadId)}</UploadId></Error>`;
          return;
        }
        await rm(uploadDir, { recursive: true, force: true });
        ctx.status = 204;
        ctx.body = null;
        return;
      }
      throw err;
    }
  };
}

// s3rver reads objects in 64 KiB pieces, so a GET of a large object tops out at a few hundred MiB/s
// and costs the CPU it shares with the services on a small machine; MinIO serves GBs per second.
// Same logic as s3rver's getObject (ranges included), reading 4 MiB at a time: 2-3x faster reads.
const OBJECT_READ_BYTES = 4 * 1024 * 1024;
/** Buffers an object GET cycles through: one being read from the file while the others are written. */
const OBJECT_SEND_BUFFERS = 3;

/**
 * An object's bytes on disk, [start, end] inclusive, read through a file handle opened on first use.
 * As a stream (what s3rver's other calls, CopyObject, consume) it reads 4 MiB pieces into fresh
 * buffers. A GET's body is sent by `sendTo` instead, through a few buffers it reuses: a fresh 4 MiB buffer per read is
 * 50 of them per 200 MiB, and in s3rver's heap the external memory they add started a mark-compact
 * every 15-30 ms, which doubled the stand-in's CPU per GET (measured: 130-170 ms against 60-100 ms
 * for a bare server sending the same file).
 */
class ObjectFileStream extends Readable {
  constructor(path, start, end) {
    super({ highWaterMark: OBJECT_READ_BYTES });
    this.path = path;
    this.position = start;
    this.end = end;
    /** Opened on first use: a HEAD or a 304 answer never reads the file. */
    this.handle = undefined;
  }

  async opened() {
    this.handle ??= await open(this.path, 'r');
    return this.handle;
  }

  _read() {
    const length = Math.min(OBJECT_READ_BYTES, this.end - this.position + 1);
    if (length <= 0) return void this.push(null);
    const piece = Buffer.allocUnsafe(length);
    this.opened()
      .then((handle) => handle.read(piece, 0, length, this.position))
      .then(({ bytesRead }) => {
        if (bytesRead === 0) return this.destroy(new Error('the object file ended before its recorded length'));
        this.position += bytesRead;
        this.push(bytesRead === length ? piece : piece.subarray(0, bytesRead));
      }, (err) => this.destroy(err));
  }

  _destroy(err, callback) {
    if (!this.handle) return callback(err);
    this.handle.close().then(() => callback(err), () => callback(err));
  }

  /**
   * Writes the bytes to `res` and ends it. A buffer is read into again only once its previous write
   * has reached the socket (the write's callback), so the file read and the socket write overlap.
   * Rejects if the client goes away or the file cannot be read; the stream is destroyed either way.
   */
  async sendTo(res) {
    const buffers = Array.from({ length: OBJECT_SEND_BUFFERS }, () => Buffer.allocUnsafe(OBJECT_READ_BYTES));
    const writes = new Array(OBJECT_SEND_BUFFERS).fill(undefined);
    let gone;
    const clientGone = new Promise((_, reject) => {
      gone = () => reject(new Error('the client closed the connection'));
      res.once('close', gone);
    });
    clientGone.catch(() => undefined);
    const written = (chunk) => Promise.race([clientGone, new Promise((resolveWrite, rejectWrite) => res.write(chunk, (err) => (err ? rejectWrite(err) : resolveWrite())))]);
    try {
      const handle = await this.opened();
      for (let i = 0; this.position <= this.end; i = (i + 1) % OBJECT_SEND_BUFFERS) {
        await writes[i];
        const length = Math.min(OBJECT_READ_BYTES, this.end - this.position + 1);
        const { bytesRead } = await handle.read(buffers[i], 0, length, this.position);
        if (bytesRead === 0) throw new Error('the object file ended before its recorded length');
        this.position += bytesRead;
        writes[i] = written(buffers[i].subarray(0, bytesRead));
        writes[i].catch(() => undefined);
      }
      await Promise.all(writes);
      await new Promise((resolveEnd) => res.end(resolveEnd));
    } finally {
      res.off('close', gone);
      this.destroy();
    }
  }
}

FilesystemStore.prototype.getObject = async function getObjectInLargeReads(bucket, key, options) {
  let metadata;
  try {
    metadata = await this.getMetadata(bucket, key);
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
  const lastByte = Math.max(0, Number(metadata['content-length']) - 1);
  const ranged = Boolean(options && (options.start !== undefined || options.end));
  const range = { start: options?.start || 0, end: Math.min(options?.end || Infinity, lastByte) };
  if (range.start < 0 || range.end < range.start) {
    const unsatisfiable = new S3Object(bucket, key, null, metadata);
    if (ranged) unsatisfiable.range = range;
    return unsatisfiable;
  }
  const path = this.getResourcePath(bucket, key, 'object');
  try {
    await stat(path);
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
  // An empty object has no bytes to read: start 0 > end -1.
  const content = new ObjectFileStream(path, range.start, Number(metadata['content-length']) === 0 ? -1 : range.end);
  const object = new S3Object(bucket, key, content, metadata);
  if (ranged) object.range = range;
  return object;
};

/**
 * Sends a GET's object body with ObjectFileStream.sendTo rather than Koa's `body.pipe(res)`. Runs
 * after s3rver's route has authenticated the request and set the status and headers.
 */
async function sendObjectBodies(ctx, next) {
  await next();
  const body = ctx.body;
  if (!(body instanceof ObjectFileStream) || ctx.method !== 'GET') return;
  ctx.respond = false;
  try {
    await body.sendTo(ctx.res);
  } catch {
    // The client went away, or the file could not be read after the headers left: cut the
    // connection, so the reader sees a short body and not a complete-looking one.
    ctx.res.destroy();
  }
}

/**
 * Starts the S3-protocol server. `port: 0` picks a free port (tests).
 * Resolves to { endpoint, host, port, accessKey, secretKey, region, directory, close() }.
 */
export async function startS3Server({
  port = 9000,
  host = '127.0.0.1',
  directory = resolve('.data/s3'),
  accessKey = DEFAULT_S3_ACCESS_KEY,
  secretKey = DEFAULT_S3_SECRET_KEY,
  region = 'us-east-1',
  buckets = [],
  silent = true,
} = {}) {
  directory = resolve(directory);
  await mkdir(directory, { recursive: true });
  // s3rver's account registry is process-wide; register our key pair and drop the built-in
  // S3RVER/S3RVER one so only the configured credentials are accepted.
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);
  if (accessKey !== 'S3RVER') AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');

  const server = new S3rver({
    address: host,
    port,
    directory,
    silent,
    resetOnClose: false,
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  // Koa composes `middleware` when the server starts: put the shim right inside the request logger,
  // around s3rver's routes (and their authentication).
  server.middleware.splice(1, 0, denyAnonymous, multipartShim(directory), sendObjectBodies);
  // Client errors are answered as S3 XML by s3rver; keep Koa from printing 4xx noise.
  server.on('error', (err) => {
    if (!silent && !(err && err.status < 500)) console.error('[s3]', err);
  });
  const address = await server.run();
  const endpoint = `http://${host}:${address.port}`;
  return {
    endpoint,
    host,
    port: address.port,
    accessKey,
    secretKey,
    region,
    directory,
    close: async () => {
      if (!server.httpServer?.listening) return;
      server.httpServer.closeAllConnections?.();
      await server.close();
    },
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
  };
  const s3 = await startS3Server({
    port: Number(arg('port', process.env.S3_PORT ?? 9000)),
    host: arg('host', '127.0.0.1'),
    directory: arg('dir', process.env.S3_DIR ?? '.data/s3'),
    accessKey: arg('access-key', process.env.S3_ACCESS_KEY ?? DEFAULT_S3_ACCESS_KEY),
    secretKey: arg('secret-key', process.env.S3_SECRET_KEY ?? DEFAULT_S3_SECRET_KEY),
    silent: !process.argv.includes('--verbose'),
  });
  console.log(`S3-protocol server on ${s3.endpoint} (access key ${s3.accessKey}), data in ${s3.directory}`);
  const stop = () => void s3.close().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
