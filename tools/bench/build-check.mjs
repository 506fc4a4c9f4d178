// "Builds if needed" for the benchmark: of what the stack runs (the libraries and the processes listed
// in tools/dev/services.mjs), the projects whose dist is missing or older than their sources (or than
// the build tooling) are compiled with tools/build/build.mjs; a missing SPA bundle (the gateway serves
// it, so it must exist) triggers the whole build. Staleness rules as in tools/dev/start.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { services } from '../dev/services.mjs';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** The stack's projects (relative to root): libs/* and the directory of every service entry. */
export function stackProjects(root) {
  const libs = readdirSync(join(root, 'libs')).map((name) => `libs/${name}`).filter((dir) => existsSync(join(root, dir, 'src')));
  // entry 'apps/identity/dist/main.js' -> 'apps/identity'
  const apps = services.map((svc) => svc.entry.split('/dist/')[0]).filter((dir) => existsSync(join(root, dir, 'src')));
  return [...new Set([...libs, ...apps])];
}

/** Those of the stack's projects whose dist is missing or stale. */
export function staleServerProjects(root) {
  const tooling = Math.max(newestMtime(join(root, 'tools', 'build')), newestMtime(join(root, 'package-lock.json')));
  return stackProjects(root).filter((dir) => {
    const built = newestMtime(join(root, dir, 'dist'));
    return !built || built < Math.max(tooling, newestMtime(join(root, dir, 'src')));
  });
}

/** Builds what is stale; returns what it did (for the log). Throws when the build fails. */
export function buildIfNeeded(root, nodeBinary, log = console.log) {
  const build = join(root, 'tools', 'build', 'build.mjs');
  if (!existsSync(join(root, 'apps', 'web', 'dist', 'index.html'))) {
    log('[bench] apps/web/dist is missing: full build');
    const r = spawnSync(nodeBinary, [build], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`the build failed (exit ${r.status})`);
    return 'full build';
  }
  const stale = staleServerProjects(root);
  if (!stale.length) return 'up to date';
  log(`[bench] building ${stale.join(', ')}`);
  const r = spawnSync(nodeBinary, [build, ...stale], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the build failed (exit ${r.status})`);
  return `built ${stale.join(', ')}`;
}
