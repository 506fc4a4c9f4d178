import { createHash } from 'node:crypto';
import { UploadInspector } from './upload-inspector.js';

const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

async function drain(inspector: UploadInspector, chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of inspector.pipe((async function* () { yield* chunks; })())) out.push(chunk);
  return Buffer.concat(out);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(() => 'OK', (e: { code?: string }) => e.code ?? String(e));
}

describe('upload inspector', () => {
  it('passes a WebM body through, counting and hashing it, even when the header arrives a byte at a time', async () => {
    const body = Buffer.concat([WEBM, Buffer.alloc(10_000, 7)]);
    const inspector = new UploadInspector({ maxBytes: 1_000_000, declaredSize: body.length });
    const chunks = [body.subarray(0, 1), body.subarray(1, 2), body.subarray(2, 3), body.subarray(3, 5000), body.subarray(5000)];
    expect(await drain(inspector, chunks)).toEqual(body);
    expect(inspector.bytes).toBe(body.length);
    expect(inspector.digest()).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('refuses anything that does not start with the EBML magic before a byte is let through', async () => {
    const inspector = new UploadInspector({ maxBytes: 1000, declaredSize: 100 });
    let passed = 0;
    const attempt = (async () => { for await (const chunk of inspector.pipe((async function* () { yield Buffer.from("%PDF-1.7 not a video"); })())) passed += chunk.length; })();
    expect(await codeOf(attempt)).toBe('UNSUPPORTED_MEDIA');
    expect(passed).toBe(0);
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 100 }), [Buffer.from([0x1a, 0x45])]))).toBe('UNSUPPORTED_MEDIA');
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 100 }), []))).toBe('UNSUPPORTED_MEDIA');
  });

  it('stops at the size limit with 413, and at the declared size with UPLOAD_INCOMPLETE', async () => {
    const big = [WEBM, Buffer.alloc(600), Buffer.alloc(600)];
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 1000 }), big))).toBe('PAYLOAD_TOO_LARGE');
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 10_000, declaredSize: 700 }), big))).toBe('UPLOAD_INCOMPLETE');
  });

  it('names the limit in megabytes in the 413 message', async () => {
    const error = await drain(new UploadInspector({ maxBytes: 1024 * 1024, declaredSize: 1024 * 1024 }), [WEBM, Buffer.alloc(1024 * 1024)]).catch((e: Error) => e);
    expect((error as Error).message).toBe('This recording is too large: the limit is 1 MB.');
  });
});
