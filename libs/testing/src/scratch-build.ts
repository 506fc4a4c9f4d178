import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (libs/testing/src -> ../../..). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Compiles projects (e.g. `['libs/contracts', 'libs/platform', 'apps/worker']`) with the build's own
 * SWC options into a scratch directory inside node_modules (so bare imports such as `pg` resolve),
 * pointing `@lv/contracts`, `@lv/evidence` and `@lv/platform/<module>` at the scratch copies. Fault-injection specs
 * run the result as a child process they can SIGKILL, from this checkout's sources, without touching
 * the dist/ folders a running stack may be using. Returns the scratch directory.
 */
export async function compileForChildProcess(projects: string[], label: string): Promise<string> {
  const { transformFile } = await import('@swc/core');
  const { swcOptions } = (await import(pathToFileURL(join(repoRoot, 'tools', 'build', 'swc-options.mjs')).href)) as { swcOptions: object };
  const scratch = join(repoRoot, 'node_modules', '.cache', `lv-${label}-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  for (const project of projects) {
    const src = join(repoRoot, project, 'src');
    for (const entry of await readdir(src, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      // Data files the code reads beside itself (identity's common-passwords.txt), as tools/build copies them.
      if (entry.isFile() && /\.(json|sql|html|txt)$/.test(file) && !file.includes('test-support')) {
        await mkdir(dirname(join(scratch, project, relative(src, file))), { recursive: true });
        await copyFile(file, join(scratch, project, relative(src, file)));
        continue;
      }
      if (!entry.isFile() || !file.endsWith('.ts') || file.endsWith('.d.ts') || /\.spec\.ts$/.test(file) || file.includes('test-support')) continue;
      const target = join(scratch, project, relative(src, file)).replace(/\.ts$/, '.js');
      const { code } = await transformFile(file, { ...swcOptions, filename: file, sourceMaps: false } as never);
      const rel = (to: string) => {
        const path = relative(dirname(target), join(scratch, to));
        return path.startsWith('.') ? path : `./${path}`;
      };
      const rewritten = code
        .replace(/(['"])@lv\/contracts\1/g, `'${rel('libs/contracts/index.js')}'`)
        .replace(/(['"])@lv\/evidence\1/g, `'${rel('libs/evidence/index.js')}'`)
        .replace(/(['"])@lv\/platform\/([a-z-]+)\1/g, (_m, _q, sub: string) => `'${rel(`libs/platform/${sub}/index.js`)}'`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, rewritten);
    }
  }
  await writeFile(join(scratch, 'package.json'), '{ "type": "module" }\n');
  return scratch;
}

export interface ChildService {
  child: ChildProcess;
  /** Every output line so far. */
  lines: string[];
  /**
   * Resolves with the first line matching, or rejects when the process exits first or time runs out
   * (30 s unless told; with `timeoutMs` null, as long as it takes: the test's own timeout is the bound).
   */
  waitForLine(pattern: RegExp, timeoutMs?: number | null): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `node <script> [...args]` with `env`, collecting its output lines. */
export function startChild(script: string, args: string[], env: Record<string, string>): ChildService {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    exited,
    waitForLine(pattern, timeoutMs = 30_000) {
      const seen = lines.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = timeoutMs === null ? undefined : setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${lines.slice(-30).join('\n')}`)), timeoutMs);
        waiters.push({ pattern, resolve: (line) => { clearTimeout(timer); resolve(line); } });
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`process exited (${signal ?? code}) before a line matching ${pattern}; output:\n${lines.slice(-30).join('\n')}`));
        });
      });
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/**
 * A service of this checkout run as a child process the way a stack runs it: its migrations first
 * (`main.js migrate`, which must exit 0), then the service, resolved once it logs that it listens on
 * NATS (the readiness line is logged at info, so `env` should not silence it).
 */
export async function startMigratedService(scratch: string, service: string, env: Record<string, string>): Promise<ChildService> {
  const script = join(scratch, 'apps', service, 'main.js');
  const migrate = startChild(script, ['migrate'], env);
  const { code, signal } = await migrate.exited;
  if (code !== 0) throw new Error(`${service} migrate exited (${signal ?? code}); output:\n${migrate.lines.slice(-30).join('\n')}`);
  const child = startChild(script, [], env);
  try {
    await child.waitForLine(new RegExp(`${service} is listening on NATS`), 60_000);
  } catch (err) {
    await child.kill('SIGKILL');
    throw err;
  }
  return child;
}
