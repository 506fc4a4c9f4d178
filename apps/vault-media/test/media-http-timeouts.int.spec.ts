// vault-media's byte-stream listener must not let a slow or stalled client hold a connection: raw
// sockets that dribble their headers or stop sending the body are cut within the configured bounds.
import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { holdConnection } from '@lv/testing';
import { Redis } from 'ioredis';
import { VaultMediaRpc } from '@lv/contracts';
import { AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { createLogger } from '@lv/platform/logging';
import { REDIS_URL, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

jest.setTimeout(120_000);

const TIMEOUTS = { headersMs: 600, idleMs: 900, requestMs: 60_000 };
/** Plenty for a deadline checked every 600 ms on a busy machine; far below any default (60 s, none). */
const CUT_WITHIN_MS = 4000;

describe('vault-media byte-stream listener: slow clients are cut off', () => {
  let h: Harness;
  let redis: Redis;
  let server: import('../src/http/media-http.server.js').MediaHttpServer;
  let port: number;
  const owner = randomUUID();

  beforeAll(async () => {
    h = await startVaultMedia('mediatimeouts');
    redis = new Redis(REDIS_URL);
    const { MediaHttpServer } = await import('../src/http/media-http.server.js');
    // The same listener as the service's, with short bounds so the spec runs in seconds.
    server = new MediaHttpServer(h.service, new AccessTokenVerifier(h.keys.publicKey, new RevokedSessions(redis)), createLogger('media-timeouts-spec', 'silent'), {
      host: '127.0.0.1', port: 0, timeouts: TIMEOUTS,
    });
    await server.start();
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    await server?.stop();
    redis?.disconnect();
    await h?.close();
  });

  it('answers 408 and closes a connection whose headers arrive too slowly', async () => {
    const held = await holdConnection(port, 'GET /media/x HTTP/1.1\r\nHost: vault-media\r\n', 'X-Slow: 1\r\n', 20_000);
    expect(held.closedAfterMs).not.toBeNull();
    expect(held.closedAfterMs!).toBeLessThan(CUT_WITHIN_MS);
    expect(held.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an upload whose body stalls, and the recording is not saved', async () => {
    const token = h.tokenFor(owner);
    const body = webmBody(256 * 1024);
    const ticket = await h.rpc.call(
      VaultMediaRpc.startUpload,
      { type: 'video', title: 'Stalled', sha256: createHash('sha256').update(body).digest('hex'), size: body.length },
      { accessToken: token, meta: { requestId: 'spec' } },
    );
    const head = `PUT /uploads/${ticket.uploadId} HTTP/1.1\r\nHost: vault-media\r\nAuthorization: Bearer ${token}\r\nContent-Type: video/webm\r\nContent-Length: ${body.length}\r\n\r\n`;
    // A quarter of the body, then nothing.
    const held = await holdConnection(port, Buffer.concat([Buffer.from(head, 'latin1'), body.subarray(0, 64 * 1024)]), null, 20_000);
    expect(held.closedAfterMs).not.toBeNull();
    expect(held.closedAfterMs!).toBeGreaterThanOrEqual(TIMEOUTS.idleMs - 100);
    expect(held.closedAfterMs!).toBeLessThan(CUT_WITHIN_MS);
    const recordings = await h.rpc.call(VaultMediaRpc.listRecordings, {}, { accessToken: token, meta: { requestId: 'spec' } });
    expect(recordings).toEqual([]);
  });

  it('keeps the defaults bounded too (no bound of 0, which would mean "never")', async () => {
    const { MEDIA_HTTP_TIMEOUTS } = await import('../src/http/media-http.server.js');
    expect(MEDIA_HTTP_TIMEOUTS.headersMs).toBeGreaterThan(0);
    expect(MEDIA_HTTP_TIMEOUTS.headersMs).toBeLessThanOrEqual(30_000);
    expect(MEDIA_HTTP_TIMEOUTS.idleMs).toBeGreaterThan(0);
    expect(MEDIA_HTTP_TIMEOUTS.idleMs).toBeLessThanOrEqual(60_000);
    expect(MEDIA_HTTP_TIMEOUTS.requestMs).toBeGreaterThan(0);
  });
});
