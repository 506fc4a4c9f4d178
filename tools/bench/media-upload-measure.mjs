// What media-upload.mjs measures with: the recording on disk, the browser's fingerprint, a PUT as a
// browser sends it, and the RSS of the stack's processes.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';

const MiB = 1024 * 1024;

/** A WebM-looking file: the EBML magic, then random bytes. */
export function makeFile(path, bytes) {
  const out = createWriteStream(path);
  return new Promise((resolve, reject) => {
    let written = 0;
    const write = () => {
      while (written < bytes) {
        const chunk = randomBytes(Math.min(4 * MiB, bytes - written));
        if (written === 0) chunk.set([0x1a, 0x45, 0xdf, 0xa3], 0);
        written += chunk.length;
        if (!out.write(chunk)) return out.once('drain', write);
      }
      out.end(resolve);
    };
    out.on('error', reject);
    write();
  });
}

/**
 * The browser's fingerprint of a recording: SHA-256 over the Blob it already holds in memory
 * (apps/web/src/api/media.ts: crypto.subtle.digest, native BoringSSL in Chromium). Here the native
 * OpenSSL digest over the same bytes in memory stands in for it (Node's Web Crypto would add a copy
 * to its thread pool that the browser does not make). Only the digest is timed, as in the browser.
 */
export async function browserSha256(bytes) {
  const started = performance.now();
  const hex = createHash('sha256').update(bytes).digest('hex');
  return { hex, ms: performance.now() - started };
}

/** PUT a file through the gateway, streamed from disk with its length, as a browser sends a Blob. */
export function putFile(url, path, token) {
  return new Promise((resolve, reject) => {
    const size = statSync(path).size;
    const req = httpRequest(url, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm', 'content-length': String(size) } }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    createReadStream(path, { highWaterMark: MiB }).pipe(req);
  });
}

/** The app's resumable upload as tus-js-client sends it while the connection holds: one PATCH of the whole file from `offset`. */
export function patchFile(url, path, token, offset = 0) {
  return new Promise((resolve, reject) => {
    const size = statSync(path).size;
    const req = httpRequest(url, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(size - offset) },
    }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    createReadStream(path, { highWaterMark: MiB, start: offset }).pipe(req);
  });
}

/** RSS in bytes of a process (Linux /proc). */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

export function sampleRss(pids) {
  const peaks = Object.fromEntries(Object.keys(pids).map((name) => [name, 0]));
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) peaks[name] = Math.max(peaks[name], rssOf(pid));
  }, 50);
  return () => {
    clearInterval(timer);
    for (const [name, pid] of Object.entries(pids)) peaks[name] = Math.max(peaks[name], rssOf(pid));
    return peaks;
  };
}
