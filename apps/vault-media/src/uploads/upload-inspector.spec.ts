import { createHash } from 'node:crypto';
import { matchesFormat } from './media-formats.js';
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
    const inspector = new UploadInspector({ maxBytes: 1_000_000, declaredSize: body.length, contentType: 'video/webm' });
    const chunks = [body.subarray(0, 1), body.subarray(1, 2), body.subarray(2, 3), body.subarray(3, 5000), body.subarray(5000)];
    expect(await drain(inspector, chunks)).toEqual(body);
    expect(inspector.bytes).toBe(body.length);
    expect(inspector.digest()).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('refuses anything that does not start with the EBML magic before a byte is let through', async () => {
    const inspector = new UploadInspector({ maxBytes: 1000, declaredSize: 100, contentType: 'video/webm' });
    let passed = 0;
    const attempt = (async () => { for await (const chunk of inspector.pipe((async function* () { yield Buffer.from("%PDF-1.7 not a video"); })())) passed += chunk.length; })();
    expect(await codeOf(attempt)).toBe('UNSUPPORTED_MEDIA');
    expect(passed).toBe(0);
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 100, contentType: 'video/webm' }), [Buffer.from([0x1a, 0x45])]))).toBe('UNSUPPORTED_MEDIA');
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 100, contentType: 'video/webm' }), []))).toBe('UNSUPPORTED_MEDIA');
  });

  it('stops at the size limit with 413, and at the declared size with UPLOAD_INCOMPLETE', async () => {
    const big = [WEBM, Buffer.alloc(600), Buffer.alloc(600)];
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 1000, declaredSize: 1000, contentType: 'video/webm' }), big))).toBe('PAYLOAD_TOO_LARGE');
    expect(await codeOf(drain(new UploadInspector({ maxBytes: 10_000, declaredSize: 700, contentType: 'video/webm' }), big))).toBe('UPLOAD_INCOMPLETE');
  });

  it('names the limit in megabytes in the 413 message', async () => {
    const error = await drain(new UploadInspector({ maxBytes: 1024 * 1024, declaredSize: 1024 * 1024, contentType: 'video/webm' }), [WEBM, Buffer.alloc(1024 * 1024)]).catch((e: Error) => e);
    expect((error as Error).message).toBe('This recording is too large: the limit is 1 MB.');
  });
});

describe('matchesFormat (Who I Am uploads: the first bytes must be the announced format)', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  const samples: Record<string, Buffer> = {
    'image/jpeg': bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'),
    'image/png': bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'),
    'image/gif': bytes('GIF89a', [1, 0, 1, 0]),
    'image/webp': bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '),
    'video/webm': bytes([0x1a, 0x45, 0xdf, 0xa3], 'webm....'),
    'video/mp4': bytes([0, 0, 0, 0x20], 'ftypisom'),
    'video/quicktime': bytes([0, 0, 0, 0x14], 'ftypqt  '),
    'audio/mp4': bytes([0, 0, 0, 0x20], 'ftypM4A '),
    'audio/mpeg': bytes('ID3', [4, 0, 0, 0, 0, 0, 0, 0, 0]),
    'audio/wav': bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '),
    'audio/ogg': bytes('OggS', [0, 2, 0, 0, 0, 0, 0, 0]),
  };

  it('accepts each format by its magic and refuses every other format’s', () => {
    for (const [type, head] of Object.entries(samples)) {
      expect({ type, verdict: matchesFormat(type, head) }).toEqual({ type, verdict: true });
      for (const [other, otherHead] of Object.entries(samples)) {
        // Formats that share a magic (the WebMs, the ISO media files) are told apart by the declared type alone.
        const sameFamily = (a: string, b: string) => [a, b].every((t) => t.endsWith('/webm')) || [a, b].every((t) => ['video/mp4', 'video/quicktime', 'audio/mp4'].includes(t));
        if (other !== type && !sameFamily(type, other)) expect({ type, other, verdict: matchesFormat(type, otherHead) }).toEqual({ type, other, verdict: false });
      }
    }
  });

  it('waits for more bytes while a short head could still become the format, and knows an MP3 frame without a tag', () => {
    expect(matchesFormat('image/png', Buffer.from([0x89, 0x50]))).toBe('more');
    expect(matchesFormat('audio/mpeg', Buffer.from([0xff, 0xfb, 0x90]))).toBe(true);
    expect(matchesFormat('audio/mpeg', Buffer.from([0xff, 0x00, 0x90]))).toBe(false);
    expect(matchesFormat('application/pdf', Buffer.from('%PDF-1.7'))).toBe(false);
  });
});
