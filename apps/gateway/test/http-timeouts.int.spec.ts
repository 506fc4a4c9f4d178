// The gateway listening on a real port (real NATS and Redis), with vault-media's byte-stream listener
// played by a plain HTTP server: a slow or stalled client, or a hung vault-media, never holds a
// connection for ever. Raw sockets play the slow clients. Refusals made before any route runs
// (too slow, headers too large, an address that cannot be decoded) answer in the API's shape.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCodes, type AccessTokenClaims } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { holdConnection } from '@lv/testing';
import { createSpecGateway, specWorkDir } from './support/spec-gateway.js';

process.env.STACK_ID = `gwt${randomUUID().slice(0, 8)}`;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RECORDING_ID = '55555555-5555-4555-8555-555555555555';

const HEADERS_TIMEOUT_MS = 600;
const IDLE_TIMEOUT_MS = 2500;
const VAULT_MEDIA_IDLE_TIMEOUT_MS = 700;
/** Far below any default (60 s for headers, no idle bound at all before). */
const CUT_WITHIN_MS = IDLE_TIMEOUT_MS + 4000;

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const claims: AccessTokenClaims = { sub: randomUUID(), sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, kind: 'user' };
const token = new AccessTokenSigner(keys.privateKey).sign(claims, 600).token;

/** The JSON body of a raw answer (held.answer is latin1; the body is UTF-8). */
const bodyOf = (answer: string): unknown => JSON.parse(Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8'));

const uploadHead = (length: number) =>
  `PUT /api/media/uploads/${RECORDING_ID} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: video/webm\r\nContent-Length: ${length}\r\n\r\n`;

describe('gateway: slow clients and a hung vault-media are cut off', () => {
  let app: NestFastifyApplication;
  let port: number;
  let mediaHttp: Server;
  let workDir: string;
  /** How the stand-in treats uploads: read them (and note when the gateway gives up on one), or hang. */
  let behaviour: 'read' | 'hang' = 'read';
  const upstream: { url: string; aborted: boolean }[] = [];

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('timeouts'));

    mediaHttp = createServer((req: IncomingMessage, res) => {
      const entry = { url: req.url ?? '', aborted: false };
      upstream.push(entry);
      req.on('aborted', () => { entry.aborted = true; });
      res.on('close', () => { if (!res.writableFinished) entry.aborted = true; });
      if (behaviour === 'hang') {
        req.pause(); // reads nothing, answers nothing
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((r) => mediaHttp.listen(0, '127.0.0.1', r));

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey,
      WEB_DIST_DIR: join(workDir, 'web'), VAULT_MEDIA_URL: `http://127.0.0.1:${(mediaHttp.address() as AddressInfo).port}`,
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS), VAULT_MEDIA_IDLE_TIMEOUT_MS: String(VAULT_MEDIA_IDLE_TIMEOUT_MS),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL((await app.getUrl()).replace('[::1]', '127.0.0.1')).port);
  });

  afterAll(async () => {
    await app?.close();
    mediaHttp?.closeAllConnections();
    await new Promise((r) => mediaHttp?.close(r));
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('answers 408 and closes a connection whose headers arrive too slowly', async () => {
    const held = await holdConnection(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
    expect(held.closedAfterMs).not.toBeNull();
    expect(held.closedAfterMs!).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
    expect(held.answer).toMatch(/^HTTP\/1\.1 408/);
    // In the API's shape, not Fastify's {"error","message","statusCode"}.
    expect(bodyOf(held.answer)).toEqual({ code: 'REQUEST_TIMEOUT', message: ErrorCodes.REQUEST_TIMEOUT.message });
  });

  it('answers headers larger than the server reads with 431 in the API shape, and closes', async () => {
    const held = await holdConnection(port, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${'a'.repeat(20 * 1024)}\r\n\r\n`, null);
    expect(held.closedAfterMs).not.toBeNull();
    expect(held.answer).toMatch(/^HTTP\/1\.1 431/);
    expect(bodyOf(held.answer)).toEqual({ code: 'HEADERS_TOO_LARGE', message: ErrorCodes.HEADERS_TOO_LARGE.message });
  });

  it('answers an address that is not valid percent-encoding with 400 BAD_ADDRESS', async () => {
    for (const path of ['/api/letters/%ED%A0%80', '/api/letters/%ZZ']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 400, body: { code: 'BAD_ADDRESS', message: ErrorCodes.BAD_ADDRESS.message } });
    }
  });

  it('closes an upload whose body stalls, and tears down the request to vault-media with it', async () => {
    behaviour = 'read';
    const before = upstream.length;
    const held = await holdConnection(port, Buffer.concat([Buffer.from(uploadHead(1024 * 1024), 'latin1'), Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(60 * 1024)]), null);
    expect(held.closedAfterMs).not.toBeNull();
    expect(held.closedAfterMs!).toBeLessThan(CUT_WITHIN_MS);
    const forwarded = upstream.slice(before);
    expect(forwarded.map((u) => u.url)).toEqual([`/uploads/${RECORDING_ID}`]);
    expect(forwarded[0]!.aborted).toBe(true);
  });

  it('answers 503 when vault-media takes the upload and then hangs, instead of waiting for ever', async () => {
    behaviour = 'hang';
    const body = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(8 * 1024)]);
    const started = Date.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/media/uploads/${RECORDING_ID}`, {
      method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm' }, body,
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(VAULT_MEDIA_IDLE_TIMEOUT_MS + 3000);
  });

  it('refuses a bound of 0, which would mean "never"', async () => {
    const { gatewayConfigSchema } = await import('../src/config.js');
    const result = gatewayConfigSchema.safeParse({ JWT_PUBLIC_KEY: 'x', WEB_DIST_DIR: '/tmp', DEVICE_COOKIE_SECRET: 'x'.repeat(32), HTTP_IDLE_TIMEOUT_MS: '0' });
    expect(result.success).toBe(false);
  });
});
