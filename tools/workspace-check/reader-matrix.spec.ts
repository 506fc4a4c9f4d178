import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every app that answers RPC messages runs the reader matrix (libs/testing runReaderMatrix) in
 * `apps/<app>/test/reader-matrix.int.spec.ts`, against a table of answers written in the spec. The
 * matrix calls every handler of the running service's registry and fails on one missing from the
 * table, so a new handler cannot go unlisted; this check makes sure a new service cannot skip the
 * matrix altogether.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What marks a message handler: Nest's decorators, or the platform's typed one. */
const HANDLER = /@(MessagePattern|EventPattern|RpcHandler)\(/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test-results'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !/\.(spec|int\.spec|e2e\.spec)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function appsWithRpcHandlers(): string[] {
  const apps: string[] = [];
  for (const name of readdirSync(join(root, 'apps'))) {
    const src = join(root, 'apps', name, 'src');
    if (!existsSync(src) || !statSync(src).isDirectory()) continue;
    for (const file of sourceFiles(src)) {
      if (HANDLER.test(readFileSync(file, 'utf8'))) {
        apps.push(name);
        break;
      }
    }
  }
  return apps.sort();
}

describe('reader matrix coverage', () => {
  const apps = appsWithRpcHandlers();

  it('finds the apps that answer RPC messages', () => {
    // The three services of today: if this list shrinks, the marker above no longer finds handlers.
    expect(apps).toEqual(expect.arrayContaining(['identity', 'letters', 'vault-media']));
    expect(apps).not.toContain('gateway');
  });

  it('gives every such app a reader-matrix int spec that runs the matrix against a table of its own', () => {
    const problems: string[] = [];
    for (const app of apps) {
      const spec = join(root, 'apps', app, 'test', 'reader-matrix.int.spec.ts');
      const where = relative(root, spec);
      if (!existsSync(spec)) {
        problems.push(`${where} is missing: every app with RPC handlers runs runReaderMatrix (libs/testing)`);
        continue;
      }
      const text = readFileSync(spec, 'utf8');
      if (!text.includes('runReaderMatrix(')) problems.push(`${where} does not call runReaderMatrix`);
      if (!text.includes('answerTable(')) problems.push(`${where} does not state its expected answers (answerTable)`);
      if (!text.includes('readerMatrixTests(')) problems.push(`${where} does not run the matrix's tests (readerMatrixTests)`);
    }
    expect(problems).toEqual([]);
  });
});
