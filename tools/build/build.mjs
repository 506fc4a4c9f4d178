#!/usr/bin/env node
// Compiles every server-side project (libs/*, apps/* except web, tools/cli, tools/evidence) from src/ to dist/
// with SWC: a whole-workspace build takes seconds on two cores, where tsc would take a minute.
// Type checking is a separate step (`npm run typecheck`), run by the test suite.
// Usage: node tools/build/build.mjs [project-dir ...]   (default: all of them, then the SPA, its
// prerendered public pages (prerender.mjs) and their precompressed copies)
import { transformFile } from '@swc/core';
import { readdir, mkdir, writeFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { swcOptions } from './swc-options.mjs';
import { compressDirectory } from './compress.mjs';
import { prerenderPages } from './prerender.mjs';
import { checkRouteBudgets, GOAL_KB, ROUTE_BUDGET_KB } from './route-budgets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

// Specs and test-support/ folders (helpers only specs use) never ship in dist/.
const isTestOnly = (file) => /\.(spec|int\.spec|e2e\.spec)\.ts$/.test(file) || /[\\/]test-support[\\/]/.test(file);
const isCompiled = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !isTestOnly(file);

/** Compiles `<projectDir>/src` into `out` (default `<projectDir>/dist`); returns how many files. */
export async function buildProject(projectDir, out = join(projectDir, 'dist')) {
  const src = join(projectDir, 'src');
  if (!existsSync(src)) return 0;
  await rm(out, { recursive: true, force: true });
  let count = 0;
  const jobs = [];
  for await (const file of walk(src)) {
    const target = join(out, relative(src, file));
    if (isCompiled(file)) {
      jobs.push((async () => {
        const { code, map } = await transformFile(file, { ...swcOptions, filename: file, sourceFileName: relative(dirname(target), file) });
        const js = target.replace(/\.ts$/, '.js');
        await mkdir(dirname(js), { recursive: true });
        await writeFile(js, `${code}\n//# sourceMappingURL=${js.split('/').pop()}.map\n`);
        if (map) await writeFile(`${js}.map`, map);
        count++;
      })());
    } else if (/\.(json|sql|html|txt)$/.test(file) && !isTestOnly(file)) {
      jobs.push((async () => {
        await mkdir(dirname(target), { recursive: true });
        const { readFile } = await import('node:fs/promises');
        await writeFile(target, await readFile(file));
      })());
    }
  }
  await Promise.all(jobs);
  return count;
}

async function serverProjects() {
  const dirs = [];
  for (const group of ['libs', 'apps']) {
    for (const name of await readdir(join(root, group))) {
      // The SPA is built by vite; browser specs are run by Playwright from source.
      if (group === 'apps' && (name === 'web' || name === 'web-e2e')) continue;
      const dir = join(root, group, name);
      if ((await stat(dir)).isDirectory() && existsSync(join(dir, 'src'))) dirs.push(dir);
    }
  }
  dirs.push(join(root, 'tools', 'cli'), join(root, 'tools', 'evidence'));
  return dirs;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const started = Date.now();
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const projects = args.length ? args.map((a) => join(root, a)) : await serverProjects();
  let files = 0;
  for (const p of projects) files += await buildProject(p);
  console.log(`compiled ${files} files in ${projects.length} projects (${Date.now() - started} ms)`);
  if (!args.length && !process.argv.includes('--no-web') && existsSync(join(root, 'apps', 'web', 'vite.config.ts'))) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: join(root, 'apps', 'web'), stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
    // The public pages' HTML, before compression so they get their .br and .gz too.
    const prerendered = await prerenderPages(join(root, 'apps', 'web'));
    console.log(`prerendered ${prerendered.length} pages into apps/web/dist/prerendered`);
    const compressed = compressDirectory(join(root, 'apps', 'web', 'dist'));
    const sum = (key) => compressed.reduce((n, f) => n + f[key], 0);
    console.log(`built the SPA into apps/web/dist (${compressed.length} files precompressed: ${Math.round(sum('bytes') / 1024)} KB -> br ${Math.round(sum('br') / 1024)} KB, gz ${Math.round(sum('gz') / 1024)} KB)`);
    const budgets = checkRouteBudgets(join(root, 'apps', 'web', 'dist'));
    if (!budgets.ok || process.argv.includes('--budgets')) console.log(`first load per route (budget ${ROUTE_BUDGET_KB} KB gz unless listed in route-budgets.mjs, goal ${GOAL_KB} KB):\n${budgets.lines.join('\n')}`);
    if (!budgets.ok) {
      console.error('the SPA is over its first-load budget (tools/build/route-budgets.mjs)');
      process.exit(1);
    }
  }
}
