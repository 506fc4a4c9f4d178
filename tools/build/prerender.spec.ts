import { createHash } from 'node:crypto';
import { inlineFirstPaint } from './prerender.mjs';

describe('the prerendered pages carry what their first paint needs', () => {
  const page = [
    '<head>',
    '<script src="/theme-init.js"></script>',
    '<script type="module" crossorigin src="/assets/index-a1.js"></script>',
    '<link rel="stylesheet" crossorigin href="/assets/index-b2.css">',
    '</head>',
  ].join('\n');
  const files: Record<string, string> = {
    '/theme-init.js': "document.documentElement.classList.add('dark');\n",
    '/assets/index-b2.css': '.dark{color:#fff}',
  };
  const read = (href: string) => {
    const text = files[href];
    if (text === undefined) throw new Error(`no ${href}`);
    return text;
  };

  it('inlines the stylesheet, leaving a disabled link that names it, and theme-init.js as its exact text', () => {
    const html = inlineFirstPaint(page, read);
    expect(html).toContain('<style>.dark{color:#fff}</style><link rel="stylesheet" href="/assets/index-b2.css" disabled>');
    expect(html).toContain(`<script>${files['/theme-init.js']}</script>`);
    expect(html).not.toContain('src="/theme-init.js"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-a1.js"></script>');
    // The gateway's CSP hashes the built file; the inline script's text must hash the same.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(hash(inline)).toBe(hash(files['/theme-init.js']!));
  });

  it('refuses text that would end its element early, and a page without theme-init.js', () => {
    expect(() => inlineFirstPaint(page, (href) => (href.endsWith('.css') ? 'a{}</style><script>' : read(href)))).toThrow(/<\/style/);
    expect(() => inlineFirstPaint(page, (href) => (href.endsWith('.js') ? '"</script>"' : read(href)))).toThrow(/<\/script/);
    expect(() => inlineFirstPaint(page.replace('<script src="/theme-init.js"></script>', ''), read)).toThrow(/theme-init/);
  });
});
