import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Module boundaries, enforced on every test run from the Nx project tags (project.json):
 * apps never import each other; contracts depend on nothing; platform and domain libraries only on
 * contracts; test helpers only in tests; tools never load an app's code (its sources, or a module of
 * its built `dist`). A new dependency direction needs a deliberate change here.
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
  // Tools share their scripts: a bench starts tools/dev's stack, tools/dev renders deploy-check's NATS users.
  'type:tool': ['type:contracts', 'type:platform', 'type:domain', 'type:tool', 'type:build'],
  // tools/build: builds and checks the apps from outside; it imports none of them.
  'type:build': [],
  'type:e2e': ['type:contracts', 'type:testing'],
};
/** Spec files may also use the testing helpers, the local fakes of tools/dev (S3, SMTP) and the build's helpers. */
const ALLOWED_IN_TESTS = ['type:testing', 'type:tool', 'type:build'];
/** The build's specs check what it writes into an app (tools/build/tw-merge-config.spec.ts). */
const ALLOWED_IN_TESTS_OF: Record<string, string[]> = { 'type:build': ['type:app'] };
/** An app's build configuration (vite.config.ts, jest.config.mjs) uses the build's helpers. */
const ALLOWED_IN_CONFIG = ['type:build'];

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
/**
 * A module of an app's built output named by its path, as scripts load it at run time
 * (`import(pathToFileURL(join(root, path)))`): 'apps/<app>/dist/<module>.js' or
 * join()'s pieces 'apps', '<app>', 'dist', ..., '<module>.js'. `main.js` is the app's entry point,
 * which tools/dev runs as a process: running an app is not loading its code.
 */
const APP_DIST_MODULE = /['"`]apps\/([\w-]+)\/dist\/([\w./-]+\.m?js)['"`]|'apps',\s*'([\w-]+)',\s*'dist',\s*((?:'[\w.-]+',\s*)*'[\w.-]+\.m?js')/g;

/** The app directories whose built modules `text` names (see APP_DIST_MODULE). */
function appDistModules(text: string): string[] {
  const apps: string[] = [];
  for (const match of text.matchAll(APP_DIST_MODULE)) {
    const app = match[1] ?? match[3]!;
    const module = match[2] ?? match[4]!.replace(/['\s]/g, '').replace(/,/g, '/');
    if (module !== 'main.js') apps.push(`apps/${app}`);
  }
  return apps;
}

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
        // An app's or library's test/ folder holds its integration specs and their support files.
        const isTest = /\.(spec|int\.spec|e2e\.spec)\.tsx?$/.test(file) || file.includes('/test-support/') || /^(apps|libs)\/[^/]+\/test\//.test(relative(root, file));
        const isConfig = /\.config\.m?[jt]s$/.test(file);
        const allowed = [
          ...ALLOWED[project.type]!,
          ...(isTest ? [...ALLOWED_IN_TESTS, ...(ALLOWED_IN_TESTS_OF[project.type] ?? [])] : []),
          ...(isConfig ? ALLOWED_IN_CONFIG : []),
        ];
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2]!;
          let target: Project | undefined;
          if (specifier.startsWith('@lv/')) target = byPackage.get(specifier.split('/').slice(0, 2).join('/'));
          else if (specifier.startsWith('.')) target = owner(resolve(dirname(file), specifier));
          if (!target || target === project) continue;
          if (!allowed.includes(target.type)) violations.push(`${relative(root, file)} (${project.type}) imports ${specifier} (${target.type})`);
        }
        for (const app of appDistModules(text)) {
          const target = owner(join(root, app, 'dist'));
          if (target && target !== project && !allowed.includes(target.type)) violations.push(`${relative(root, file)} (${project.type}) loads a module of ${app}/dist (${target.type})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});

describe("a module of an app's dist, named by its path", () => {
  // Built from pieces, so that this file names no app's dist itself.
  const [identity, letters, web] = ['identity', 'letters', 'web'];
  const quoted = (...pieces: string[]) => `'${pieces.join('/')}'`;
  const joined = (...pieces: string[]) => pieces.map((piece) => `'${piece}'`).join(', ');

  it('is found as one string or as join() pieces', () => {
    expect(appDistModules(`await load(${quoted('apps', identity, 'dist', 'users', 'user-profile.projection.js')})`)).toEqual(['apps/identity']);
    expect(appDistModules(`import(pathToFileURL(join(root, ${joined('apps', letters, 'dist', 'letters', 'x.js')})).href)`)).toEqual(['apps/letters']);
  });

  it("leaves the app's entry point (run as a process) and the SPA's static files alone", () => {
    expect(appDistModules(`{ entry: ${quoted('apps', identity, 'dist', 'main.js')} }`)).toEqual([]);
    expect(appDistModules(`join(root, ${joined('apps', web, 'dist', 'index.html')})`)).toEqual([]);
    expect(appDistModules(`join(root, ${joined('apps', web, 'dist')})`)).toEqual([]);
  });
});
