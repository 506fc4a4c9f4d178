import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'unused-exports.mjs');

/** Runs the check on a workspace of the given files; its output and whether it failed. */
function check(files: Record<string, string>): { output: string; failed: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'unused-exports-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    try {
      return { output: execFileSync(process.execPath, [script, dir], { encoding: 'utf8' }), failed: false };
    } catch (error) {
      return { output: String((error as { stdout?: string }).stdout), failed: true };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('unused-exports', () => {
  it('names an export that no file uses, and only that one', () => {
    const { output, failed } = check({
      'libs/a/src/names.ts': [
        'export const imported = 1;',
        'export const dead = 2;',
        'export interface Shape { size: number }',
        'export function measure(shape: Shape) { return shape.size; }',
        'export type ReadInPlace = string;',
        'export const loaded = 3;',
      ].join('\n'),
      'apps/b/src/main.ts': [
        "import { imported, measure } from '@lv/a';",
        "type T = import('../../../libs/a/src/names.js').ReadInPlace;",
        "const { loaded } = await import('@lv/a');",
        'console.log(imported, measure, loaded);',
      ].join('\n'),
    });
    expect(failed).toBe(true);
    expect(output).toContain('libs/a/src/names.ts:2 dead');
    expect(output).toContain('1 exports that nothing uses');
  });

  it('takes specs and modules loaded with import() as entry points', () => {
    const { output, failed } = check({
      'apps/web/src/routes.tsx': "export const routes = [() => import('./pages/Page.js')];\nconsole.log(routes);\nexport const usedHere = routes;\n",
      'apps/web/src/pages/Page.tsx': 'export function Page() { return null; }\n',
      'apps/web/src/pages/Page.spec.tsx': 'export const helper = 1;\n',
      'apps/web/src/index.ts': "import { usedHere } from './routes.js';\nconsole.log(usedHere);\n",
    });
    expect(output).toContain('unused exports: none in 4 files');
    expect(failed).toBe(false);
  });
});
