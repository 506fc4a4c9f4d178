import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Module boundaries, enforced on every test run from the Nx project tags (project.json):
 * apps never import each other; contracts depend on nothing; platform and domain libraries only on
 * contracts; test helpers only in tests. A new dependency direction needs a deliberate change here.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ALLOWED: Record<string, string[]> = {
  'type:contracts': [],
  'type:platform': ['type:contracts'],
  // Pure domain libraries shared by a service and a tool (libs/evidence: the court journal writes
  // evidence records, tools/evidence verifies them offline).
  'type:domain': ['type:contracts'],
  'type:testing': ['type:contracts', 'type:platform'],
  'type:app': ['type:contracts', 'type:platform', 'type:domain'],
  'type:tool': ['type:contracts', 'type:platform', 'type:domain'],
  'type:e2e': ['type:contracts', 'type:testing'],
};
/** Spec files may also use the testing helpers. */
const ALLOWED_IN_TESTS = ['type:testing'];

interface Project { name: string; root: string; packageName?: string; type: string }

function projects(): Project[] {
  const found: Project[] = [];
  for (const group of ['apps', 'libs', 'tools']) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      if (!statSync(dir).isDirectory() || !existsSync(join(dir, 'project.json'))) continue;
      const project = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')) as { name: string; tags?: string[] };
      const pkg = existsSync(join(dir, 'package.json')) ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }) : undefined;
      const type = project.tags?.find((t) => t.startsWith('type:'));
      if (!type) throw new Error(`${relative(root, dir)}/project.json has no type: tag`);
      found.push({ name: project.name, root: dir, packageName: pkg?.name, type });
    }
  }
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test-results'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('module boundaries', () => {
  const all = projects();
  const byPackage = new Map(all.filter((p) => p.packageName).map((p) => [p.packageName!, p]));
  const owner = (file: string) => all.find((p) => file.startsWith(p.root + '/'));

  it('every project has a known type tag', () => {
    for (const p of all) expect(Object.keys(ALLOWED)).toContain(p.type);
  });

  it('Nx sees the same projects', () => {
    const output = execFileSync('npx', ['nx', 'show', 'projects', '--json'], { cwd: root, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, encoding: 'utf8' });
    const names = JSON.parse(output.slice(output.indexOf('['))) as string[];
    expect([...names].sort()).toEqual(all.map((p) => p.name).sort());
  });

  it('imports only follow allowed directions', () => {
    const violations: string[] = [];
    for (const project of all) {
      for (const file of sourceFiles(project.root)) {
        const isTest = /\.(spec|int\.spec|e2e\.spec)\.tsx?$/.test(file) || file.includes('/test-support/');
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2]!;
          let target: Project | undefined;
          if (specifier.startsWith('@lv/')) target = byPackage.get(specifier.split('/').slice(0, 2).join('/'));
          else if (specifier.startsWith('.')) target = owner(resolve(dirname(file), specifier));
          if (!target || target === project) continue;
          const allowed = [...ALLOWED[project.type]!, ...(isTest ? ALLOWED_IN_TESTS : [])];
          if (!allowed.includes(target.type)) violations.push(`${relative(root, file)} (${project.type}) imports ${specifier} (${target.type})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
