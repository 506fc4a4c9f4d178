import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * A script, stylesheet or source map of the SPA's hashed build output (/assets/). These are never a
 * document, so the document's security headers (CSP, frame and opener policies) mean nothing on them;
 * an SVG or other file there could be opened as one, so it is not included.
 */
export function isBuildScriptOrStyle(path: string): boolean {
  return /^\/assets\/[\w.-]+\.(js|css|map)$/.test(path);
}

/**
 * The page prerendered at build time for an address (tools/build/prerender.mjs writes
 * dist/prerendered/<name>.html, "index" for "/"), or null for an address that cannot have one. Only an
 * address without a query: the prerendered markup is what the page shows with none (the sign-in page
 * reads ?mode=signup, the access page its parameters), and the browser must render the same to hydrate it.
 */
export function prerenderedPageFile(url: string): string | null {
  if (url === '/') return 'prerendered/index.html';
  // "/index" is no page of its own: its file is the landing page's.
  return /^\/[a-z0-9-]+$/.test(url) && url !== '/index' ? `prerendered${url}.html` : null;
}

/**
 * The file under `root` that a URL path names, as a path relative to `root`, or null when there is
 * no such regular file (or the path tries to leave `root`, or names a dotfile).
 */
export async function resolveSpaFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  const full = resolve(root, `.${decoded}`);
  const rel = relative(root, full);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
  try {
    return (await stat(full)).isFile() ? rel.split(sep).join('/') : null;
  } catch {
    return null;
  }
}

/**
 * The CSP source ('sha256-...') of the built theme-init.js's exact text, or null when the build has
 * none. The prerendered pages carry that script inline (tools/build/prerender.mjs) so it costs no
 * render-blocking request; the hash allows exactly that script and no other inline one.
 */
export function themeInitHash(webDistDir: string): string | null {
  let text: Buffer;
  try {
    text = readFileSync(join(webDistDir, 'theme-init.js'));
  } catch {
    return null;
  }
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}
