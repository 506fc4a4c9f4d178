import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { COURT_FILE_MAX_BYTES, CourtJournalRpc, CourtMessages } from '@lv/contracts';
import { sendHttp } from '@lv/testing';
import { courtFiles } from './support/files.js';
import { startCourtJournal, type CourtHarness } from './support/harness.js';

// The 10 MB limit holds while the body streams and memory stays flat: this process runs the service
// (the S3 stand-in runs in a child process, so its copies of the parts do not count) and sends a body
// far over the limit; the service refuses it at 10 MB + 1 byte holding at most a part at a time.

jest.setTimeout(120_000);

const MiB = 1024 * 1024;

describe('court-journal upload memory', () => {
  let h: CourtHarness;

  beforeAll(async () => {
    h = await startCourtJournal('courtmemory', {}, { s3InChildProcess: true });
  });

  afterAll(async () => {
    await h?.close();
  });

  async function peakGrowthWhile(run: () => Promise<unknown>): Promise<number> {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 2);
    try {
      await run();
    } finally {
      clearInterval(sampler);
    }
    return Math.max(peak, process.memoryUsage().rss) - before;
  }

  it('refuses 10 MB + 1 byte mid-stream with memory bounded by the part size, not by what is sent', async () => {
    const owner = randomUUID();
    const token = h.tokenFor(owner);
    const chunk = courtFiles.pdf(MiB);
    // Warm up the connections and pools with one accepted upload, so what follows measures the refusal.
    const warm = await h.rpc.call(CourtJournalRpc.startUpload, { title: 'Warm-up', category: 'Custody', fileName: 'warm.pdf', size: 2 * MiB }, { accessToken: token, meta: { requestId: 'spec' } });
    expect((await sendHttp(`${h.httpUrl}/uploads/${warm.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, chunks: [chunk, chunk] })).status).toBe(201);

    const ticket = await h.rpc.call(CourtJournalRpc.startUpload, { title: 'Too big', category: 'Custody', fileName: 'huge.pdf', size: COURT_FILE_MAX_BYTES }, { accessToken: token, meta: { requestId: 'spec' } });
    // 10 MiB, one byte, then 30 MiB more: a client that does not stop. The spec resends one 1 MiB
    // buffer, so what grows is the service's.
    const chunks = [...Array.from({ length: 10 }, () => chunk), Buffer.from([0x41]), ...Array.from({ length: 30 }, () => chunk)];
    let status = 0;
    let body: unknown;
    const growth = await peakGrowthWhile(async () => {
      const answer = await sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, chunks }).catch((e: Error) => e);
      if (!(answer instanceof Error)) ({ status, body } = { status: answer.status, body: answer.json() });
    });
    expect({ status, body }).toEqual({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge } });
    // The service reads 26 MiB of this body (10 MiB + 1 byte, then up to the 16 MiB drain budget
    // before cutting the client off) and 41 MiB are sent; it holds a 5 MiB part being filled, that
    // part's concatenated copy on its way to storage and the socket's buffers, never the body.
    expect(growth).toBeLessThan(24 * MiB);
    process.stdout.write(`rss growth while refusing 41 MiB: ${(growth / MiB).toFixed(1)} MiB\n`);
  });
});
