#!/usr/bin/env node
// Prerenders the SPA's public pages at build time (issue 10, first load on a phone): a vite SSR build of
// apps/web/src/prerender.tsx renders each page with the app's own route table and providers, and its
// markup goes into a copy of the built index.html, with modulepreload links for the page's chunks. The
// browser paints the page's text from the HTML, before any JS has run; main.tsx then hydrates it. The
// gateway sends dist/prerendered/<name>.html for exactly that path (apps/gateway/src/spa/spa.ts).
// Usage: node tools/build/prerender.mjs   (after `vite build` in apps/web; the build runs it)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { firstLoadFiles } from './route-budgets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The prerendered pages: address and page module (the key of vite's manifest). */
export const PRERENDERED_PAGES = [
  { path: '/', page: 'src/pages/landing/LandingPage.tsx' },
  { path: '/auth', page: 'src/pages/auth/AuthPage.tsx' },
  { path: '/login', page: 'src/pages/auth/AuthPage.tsx' },
  { path: '/login-signup', page: 'src/pages/auth/AuthPage.tsx' },
  { path: '/how-it-works', page: 'src/pages/how-it-works/HowItWorksPage.tsx' },
  { path: '/pricing', page: 'src/pages/billing/PricingPage.tsx' },
  { path: '/privacy', page: 'src/pages/privacy/PrivacyPage.tsx' },
  { path: '/access', page: 'src/pages/access/AccessPage.tsx' },
  // Needs a session: prerendered as it shows while the session loads, the shell and the page's
  // placeholder (apps/web/src/app/route-placeholders.ts), nothing of any user's. The HTML preloads what
  // that needs; the page's own code (and TanStack Query) loads beside the session (main.tsx).
  { path: '/vault', page: 'src/pages/vault/VaultHomeIntro.tsx' },
];

/** dist/prerendered/<name>.html of an address ("/" is "index"); the gateway maps paths the same way. */
export const prerenderedFile = (path) => `prerendered/${path === '/' ? 'index' : path.slice(1)}.html`;

/** index.html with `markup` in #root and, in <head>, modulepreload links for `files` it does not load yet. */
export function pageHtml(indexHtml, markup, files) {
  const links = files
    .filter((file) => !indexHtml.includes(`/${file}"`))
    .map((file) => (file.endsWith('.css') ? `<link rel="stylesheet" crossorigin href="/${file}">` : `<link rel="modulepreload" crossorigin href="/${file}">`));
  const withRoot = indexHtml.replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
  if (withRoot === indexHtml) throw new Error('index.html has no empty <div id="root"></div>');
  return withRoot.replace('</head>', () => `${links.map((l) => `    ${l}\n`).join('')}  </head>`);
}

/**
 * What the page needs before its first paint, in its own HTML instead of render-blocking requests
 * (issue 10: on a phone each cost a round trip before the prerendered text could paint):
 * - each stylesheet link becomes a <style> with the file's text (the gateway's CSP allows inline
 *   styles), followed by a `disabled` link to the same file: a disabled stylesheet is not fetched, but
 *   vite's preload helper sees its href and does not add the file again when a lazy page lists it;
 * - /theme-init.js becomes an inline script with the file's exact text, which the gateway's CSP allows
 *   by its sha256 (apps/gateway/src/spa/spa-files.ts themeInitHash), so the saved theme still applies
 *   before the first paint.
 * `read(path)` gives a built file's text by its URL path.
 */
export function inlineFirstPaint(html, read) {
  const withStyles = html.replace(/<link rel="stylesheet" crossorigin href="(\/[^"]+\.css)">/g, (_, href) => {
    const css = read(href);
    if (/<\/style/i.test(css)) throw new Error(`${href} contains "</style": it cannot be inlined`);
    return `<style>${css}</style><link rel="stylesheet" href="${href}" disabled>`;
  });
  const tag = '<script src="/theme-init.js"></script>';
  if (!withStyles.includes(tag)) throw new Error(`the page has no ${tag}`);
  const script = read('/theme-init.js');
  if (/<\/script/i.test(script)) throw new Error('theme-init.js contains "</script": it cannot be inlined');
  return withStyles
    .replace(tag, () => `<script>${script}</script>`)
    .replace('(external file so a strict CSP allows it)', "(inline here: the gateway's CSP allows it by its sha256)");
}

/** CSS files a page needs first (its own and its static imports'), from vite's manifest. */
function cssFiles(manifest, pageKey) {
  const css = new Set();
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(pageKey);
  return [...css];
}

/** Renders PRERENDERED_PAGES into `<webDir>/dist/prerendered/`; returns the files written. */
export async function prerenderPages(webDir = join(root, 'apps', 'web')) {
  const dist = join(webDir, 'dist');
  // Inside apps/web (removed after), so the render's imports resolve to the workspace's node_modules.
  const ssrOut = mkdtempSync(join(webDir, '.prerender-'));
  try {
    const r = spawnSync('npx', ['vite', 'build', '--ssr', 'src/prerender.tsx', '--outDir', ssrOut, '--emptyOutDir', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`the prerender build failed (exit ${r.status})`);
    const { renderPage } = await import(pathToFileURL(join(ssrOut, 'prerender.js')).href);
    const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
    mkdirSync(join(dist, 'prerendered'), { recursive: true });
    const written = [];
    for (const { path, page } of PRERENDERED_PAGES) {
      if (!manifest[page]) throw new Error(`${page} (for ${path}) is not in the build's manifest`);
      const markup = await renderPage(path);
      const file = prerenderedFile(path);
      const html = pageHtml(indexHtml, markup, [...firstLoadFiles(manifest, page), ...cssFiles(manifest, page)]);
      writeFileSync(join(dist, file), inlineFirstPaint(html, (href) => readFileSync(join(dist, href.slice(1)), 'utf8')));
      written.push(file);
    }
    return written;
  } finally {
    rmSync(ssrOut, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const written = await prerenderPages();
  console.log(`prerendered ${written.length} pages: ${written.join(', ')}`);
}
