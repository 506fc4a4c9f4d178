import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UploadTicket } from '@lv/contracts';
import { appSession } from './app-session.js';
import { ApiError } from './client.js';
import { uploadRecordingBody } from './media.js';

// The app's resumable upload (tus-js-client's browser build, over jsdom's XMLHttpRequest) against a
// small tus server in this process, which answers as vault-media does behind the gateway: an access
// token that expired while the recording was being sent is answered 401, and the app must refresh
// its session once and send the rest with the new token, losing no byte.

const ID = '6f1c1f0e-8d2a-4c3b-9e5f-0a1b2c3d4e5f';

interface TusServer {
  url: string;
  /** The Authorization header of every PATCH, in order. */
  patches: string[];
  /** The bytes the server holds. */
  held(): Buffer;
  /** Tokens the server takes; any other is answered 401. */
  accepted: Set<string>;
  /** A token that stops being taken once the server has answered its first HEAD (it expires mid-upload). */
  expiresAfterHead?: string;
}

function startTusServer(size: number): Promise<{ server: Server; tus: TusServer }> {
  let chunks: Buffer[] = [];
  const tus: TusServer = { url: '', patches: [], held: () => Buffer.concat(chunks), accepted: new Set() };
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'HEAD, PATCH, OPTIONS',
    'access-control-allow-headers': 'authorization, accept, content-type, tus-resumable, upload-offset',
    'access-control-expose-headers': 'upload-offset, upload-length, tus-resumable',
  };
  const answer = (res: ServerResponse, status: number, headers: Record<string, string> = {}, body?: string) => {
    res.writeHead(status, { ...cors, 'tus-resumable': '1.0.0', ...headers });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') return answer(res, 204);
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (req.method === 'PATCH') tus.patches.push(token);
    if (!tus.accepted.has(token)) {
      req.resume();
      return answer(res, 401, { 'content-type': 'application/json' }, JSON.stringify({ error: 'Unauthorized', code: 'UNAUTHORIZED' }));
    }
    const offset = tus.held().length;
    if (req.method === 'HEAD' && tus.expiresAfterHead) tus.accepted.delete(tus.expiresAfterHead);
    if (req.method === 'HEAD') return answer(res, 200, { 'upload-offset': String(offset), 'upload-length': String(size), 'cache-control': 'no-store' });
    if (Number(req.headers['upload-offset']) !== offset) {
      req.resume();
      return answer(res, 409, { 'content-type': 'application/json' }, JSON.stringify({ error: 'Conflict', code: 'CONFLICT' }));
    }
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      chunks = [...chunks, ...body];
      const now = tus.held().length;
      if (now < size) return answer(res, 204, { 'upload-offset': String(now) });
      answer(res, 200, { 'upload-offset': String(now), 'content-type': 'application/json' }, JSON.stringify({ id: ID, title: 'A message', size }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    tus.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/media/tus/${ID}`;
    resolve({ server, tus });
  }));
}

const SIZE = 256 * 1024;
const bytes = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 31) % 251));
let server: Server;
let tus: TusServer;
let token = 'expired-token';

beforeAll(async () => {
  ({ server, tus } = await startTusServer(SIZE));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  jest.restoreAllMocks();
});

const ticket = (): UploadTicket => ({ uploadId: ID, uploadUrl: `/api/media/uploads/${ID}`, resumableUrl: tus.url, objectKey: `u/${ID}.webm`, contentType: 'video/webm', maxBytes: SIZE });

describe('uploadRecordingBody: a session that expires during the upload', () => {
  it('refreshes the session once and sends the recording with the new token, whole', async () => {
    token = 'expired-token';
    tus.accepted = new Set(['expired-token', 'fresh-token']);
    tus.expiresAfterHead = 'expired-token';
    jest.spyOn(appSession, 'getAccessToken').mockImplementation(() => token);
    const refresh = jest.spyOn(appSession, 'refresh').mockImplementation(async () => {
      token = 'fresh-token';
      return true;
    });

    const saved = await uploadRecordingBody(ticket(), new Blob([bytes]));

    expect(saved).toEqual({ id: ID, title: 'A message', size: SIZE });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(tus.patches[0]).toBe('expired-token');
    expect(tus.patches.slice(1).every((t) => t === 'fresh-token')).toBe(true);
    expect(tus.held().equals(bytes)).toBe(true);
  });

  it('gives up with the 401 when the refreshed session is refused too (signed out meanwhile)', async () => {
    token = 'expired-token';
    tus.accepted = new Set();
    tus.expiresAfterHead = undefined;
    jest.spyOn(appSession, 'getAccessToken').mockImplementation(() => token);
    const refresh = jest.spyOn(appSession, 'refresh').mockImplementation(async () => {
      token = 'also-refused';
      return true;
    });

    const failure = await uploadRecordingBody(ticket(), new Blob([bytes])).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
