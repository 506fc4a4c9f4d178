import { EXPORT_FORMAT, extensionOf, indexHtml, itemPath, letterText, manifestOf, sha256Hex, slug, type ExportItem } from './vault-export.js';
import { upstreamPath } from './vault-export.service.js';

const item = (over: Partial<ExportItem>): ExportItem => ({
  path: 'letters/a.txt', type: 'letter', title: 'A', id: '11111111-2222-4333-8444-555555555555', created_at: '2026-11-20T10:00:00.000Z', updated_at: null,
  content_type: 'text/plain', size: 3, sha256: 'aa', recorded_sha256: null, ...over,
});

describe('vault export layout', () => {
  it('names files from titles without ever making a path of them', () => {
    expect(slug('For your 18th Birthday!')).toBe('for-your-18th-birthday');
    expect(slug('../../etc/passwd')).toBe('etc-passwd');
    expect(slug('Émilie’s café')).toBe('emilie-s-cafe');
    expect(slug('   ')).toBe('untitled');
    expect(slug('🙂')).toBe('untitled');
    expect(slug('x'.repeat(200))).toHaveLength(60);
  });

  it('puts each kind in its folder, dated, with the start of the id so equal titles never collide', () => {
    const base = { title: 'Hello', created_at: '2026-11-20T10:00:00.000Z', content_type: 'video/webm' };
    expect(itemPath('recording', { ...base, id: 'abcdef12-0000-4000-8000-000000000000' })).toBe('recordings/2026-11-20-hello-abcdef12.webm');
    expect(itemPath('recording', { ...base, id: 'abcdef13-0000-4000-8000-000000000000' })).not.toBe(itemPath('recording', { ...base, id: 'abcdef12-0000-4000-8000-000000000000' }));
    expect(itemPath('court-document', { ...base, id: '12345678-0000-4000-8000-000000000000', content_type: 'application/pdf', file_name: 'Order (final).PDF' }))
      .toBe('court-documents/2026-11-20-order-final-12345678.pdf');
    expect(itemPath('final-message', { ...base, id: '12345678-0000-4000-8000-000000000000', content_type: 'audio/webm' })).toMatch(/^final-messages\//);
  });

  it('takes the extension from the type, then the file name, else bin', () => {
    expect(extensionOf('image/jpeg')).toBe('jpg');
    expect(extensionOf('application/x-unknown', 'notes.md')).toBe('md');
    expect(extensionOf('application/x-unknown')).toBe('bin');
  });

  it('writes a letter as its title, its dates and its words', () => {
    expect(letterText({ title: 'Dear Sam', content: 'I love you.', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }))
      .toBe('Dear Sam\nWritten 2026-01-01T00:00:00.000Z\n\nI love you.\n');
    expect(letterText({ title: 'T', content: 'c', created_at: 'a', updated_at: 'b' })).toContain('last revised b');
  });

  it('lists in the manifest every file whose bytes differ from the hash recorded at upload', () => {
    const manifest = manifestOf({ id: 'u', email: 'dad@example.com', full_name: null }, [
      item({ path: 'recordings/ok.webm', sha256: 'x', recorded_sha256: 'x' }),
      item({ path: 'recordings/bad.webm', sha256: 'y', recorded_sha256: 'x' }),
      item({ path: 'letters/l.txt', sha256: 'z', recorded_sha256: null }),
    ], new Date('2026-11-26T00:00:00.000Z'));
    expect(manifest.format).toBe(EXPORT_FORMAT);
    expect(manifest.mismatches).toEqual(['recordings/bad.webm']);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('browses offline: relative links, no script, titles escaped', () => {
    const html = indexHtml(manifestOf({ id: 'u', email: 'dad@example.com', full_name: '<b>Dad</b>' }, [
      item({ title: '<script>alert(1)</script>', path: 'letters/2026-11-20-x-11111111.txt' }),
    ], new Date()));
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('href="letters/2026-11-20-x-11111111.txt"');
    expect(html).toContain('&lt;b&gt;Dad&lt;/b&gt;');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('Nothing saved here.');
  });

  it("maps a signed link the gateway serves to the service's own path, keeping the query", () => {
    expect(upstreamPath('/api/media/play/abc?u=1&exp=2&sig=3', '/api/media/play/', '/media/')).toBe('/media/abc?u=1&exp=2&sig=3');
    expect(() => upstreamPath('https://evil.example/x', '/api/media/play/', '/media/')).toThrow();
  });
});
