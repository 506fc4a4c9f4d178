#!/usr/bin/env node
// `npm test` (after tools/dev/ensure-install.mjs): every test tier in order, then one summary.
//   typecheck  tsc --noEmit on tsconfig.json and apps/web/tsconfig.json (each counts as one test)
//   lint       ESLint over the workspace (eslint.config.mjs; one test, passed with 0 findings), and
//              tools/workspace-check/unused-exports.mjs (one test: no export that nothing uses)
//   build      node tools/build/build.mjs (one test)
//   jest       the root jest.config.mjs once (its projects unit, web and int), counted per project
//   e2e        Playwright on apps/web-e2e, against a fresh stack of its own: port 3100, databases
//              lv_e2e_*, data in .data/e2e, STACK_ID=e2e, Redis database 1 (never the developer's data;
//              E2E_STACK_ID, E2E_PORT, E2E_REDIS_DB give a second run names of its own)
// The last line is `N passed, N failed` (`, N skipped` when some were); the exit code is 1 when a
// test failed or a tier crashed (a crashed tier counts as at least one failure). A tier that ran fewer
// tests than its floor in tools/test/minimums.json fails too, by name (a broken path that runs nothing).
// Works without a TTY and with CI=true. Options: --only=jest,e2e  --skip=typecheck  --e2e-files=letters,who-i-am
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startStack, StackError, nodeBinary, root, SERVICE_NODE_FLAGS } from '../dev/stack.mjs';
import { applyMinimums, countJestByProject, JEST_PROJECTS } from './tiers.mjs';
import { provideInfrastructure, InfraError } from '../dev/infra.mjs';

const TIERS = ['typecheck', 'lint', 'build', 'jest', 'e2e'];
const listArg = (name) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3).split(',').filter(Boolean) : undefined;
};
const only = listArg('only');
const skip = listArg('skip') ?? [];
const enabled = (tier) => (!only || only.includes(tier)) && !skip.includes(tier);

const minutes = (env, fallback) => Number(process.env[env] ?? fallback) * 60_000;
const bin = {
  tsc: join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
  jest: join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
  playwright: join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
  eslint: join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'),
};
const workDir = join(tmpdir(), `lv-test-${process.pid}`);
mkdirSync(workDir, { recursive: true });

const results = [];
const record = (tier, label, r) => {
  results.push({ tier, label, passed: r.passed ?? 0, failed: r.failed ?? 0, skipped: r.skipped ?? 0, note: r.note });
};
const banner = (text) => console.log(`\n=== ${text} ===`);

// The child of the moment, so a Ctrl-C / SIGTERM of the runner stops it (it runs in its own group).
let current;
let stack;
// PostgreSQL, Redis and NATS for the integration and browser tiers: the machine's own, the URLs given
// (POSTGRES_URL, REDIS_URL, NATS_URL), or private instances with their data in .data/test-infra.
let infra;
async function infrastructure() {
  if (!infra) {
    infra = await provideInfrastructure({ dataDir: join(root, '.data', 'test-infra'), root, log: (line) => console.log(line) });
    if (infra.private.length) console.log(`[test] private instances for this run: ${infra.private.join(', ')}`);
  }
  return infra;
}
/** What the specs read: TEST_POSTGRES_URL (libs/testing), NATS_URL and REDIS_URL. */
const testInfraEnv = (urls) => ({ TEST_POSTGRES_URL: urls.postgres, NATS_URL: urls.nats, REDIS_URL: urls.redis });
let interrupted = false;
async function interrupt(sig) {
  if (interrupted) process.exit(130);
  interrupted = true;
  console.log(`\n[test] ${sig}: stopping`);
  if (current) try { process.kill(-current.pid, 'SIGTERM'); } catch { /* gone */ }
  await stack?.stop().catch(() => undefined);
  await infra?.stop().catch(() => undefined);
}
// A signal handler cannot await: whatever stopping does, the runner then exits.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void interrupt(sig).finally(() => process.exit(130)));

/** Runs `node <args>` from the repo root with inherited output; resolves to { code, timedOut }. */
function run(args, { env = {}, timeoutMs }) {
  return new Promise((resolvePromise) => {
    const child = spawn(nodeBinary(), args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.log(`[test] ${args.join(' ')} took longer than ${timeoutMs / 60_000} min: killing it`);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeoutMs);
    child.once('error', (err) => { clearTimeout(timer); current = undefined; console.log(`[test] could not run ${args[0]}: ${err.message}`); resolvePromise({ code: 127, timedOut }); });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      // Leftovers of the tier (workers of a crashed Jest) go with it.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none */ }
      resolvePromise({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

// --- typecheck -----------------------------------------------------------------------------------
async function typecheck() {
  for (const [label, project] of [['root', 'tsconfig.json'], ['web', 'apps/web/tsconfig.json']]) {
    if (!existsSync(join(root, project))) {
      record('typecheck', label, { skipped: 1, note: `${project} does not exist` });
      continue;
    }
    banner(`typecheck ${project}`);
    const { code, timedOut } = await run([bin.tsc, '-p', project, '--noEmit'], { timeoutMs: minutes('LV_TYPECHECK_TIMEOUT_MIN', 10) });
    record('typecheck', label, code === 0 ? { passed: 1 } : { failed: 1, note: timedOut ? 'timed out' : `tsc exit ${code}` });
  }
}

// --- lint --------------------------------------------------------------------------------------
// Every finding fails it, warnings included (--max-warnings=0); ESLint prints them above the summary.
async function lint() {
  banner('lint eslint.config.mjs');
  const { code, timedOut } = await run([bin.eslint, '--max-warnings=0', '.'], { timeoutMs: minutes('LV_LINT_TIMEOUT_MIN', 10) });
  record('lint', 'eslint', code === 0 ? { passed: 1 } : { failed: 1, note: timedOut ? 'timed out' : code === 1 ? 'findings (listed above)' : `eslint exit ${code}` });
  banner('lint unused exports');
  const unused = await run([join(root, 'tools', 'workspace-check', 'unused-exports.mjs')], { timeoutMs: minutes('LV_LINT_TIMEOUT_MIN', 10) });
  record('lint', 'unused-exports', unused.code === 0 ? { passed: 1 } : { failed: 1, note: unused.timedOut ? 'timed out' : 'exports that nothing uses (listed above)' });
}

// --- build ---------------------------------------------------------------------------------------
let buildOk = true;
async function build() {
  banner('build');
  const { code, timedOut } = await run([join(root, 'tools', 'build', 'build.mjs')], { timeoutMs: minutes('LV_BUILD_TIMEOUT_MIN', 10) });
  buildOk = code === 0;
  record('build', 'all', buildOk ? { passed: 1 } : { failed: 1, note: timedOut ? 'timed out' : `exit ${code}` });
}

// --- jest ----------------------------------------------------------------------------------------
// The web project is one of the root config's projects: one run counts every spec once.
async function jest() {
  const { urls } = await infrastructure();
  banner('jest jest.config.mjs (unit, web, int)');
  const out = join(workDir, 'jest.json');
  rmSync(out, { force: true });
  const { code, timedOut } = await run(
    [bin.jest, '-c', 'jest.config.mjs', '--json', `--outputFile=${out}`, '--maxWorkers=2', '--ci', '--forceExit'],
    // The services' Node flags too (tools/dev/stack.mjs), so the specs run on the runtime the product does.
    { env: { ...testInfraEnv(urls), NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', ...SERVICE_NODE_FLAGS].filter(Boolean).join(' ') }, timeoutMs: minutes('LV_JEST_TIMEOUT_MIN', 30) },
  );
  const report = readJson(out);
  if (!report) {
    record('jest', 'all', { failed: 1, note: timedOut ? 'timed out (no report)' : `crashed (exit ${code}, no report)` });
    return;
  }
  const byProject = countJestByProject(report);
  for (const project of JEST_PROJECTS) record('jest', project, byProject[project]);
  if (code !== 0 && !JEST_PROJECTS.some((p) => byProject[p].failed)) {
    record('jest', 'run', { failed: 1, note: timedOut ? 'timed out' : `jest exit ${code} with no failing test` });
  }
}

// --- e2e -----------------------------------------------------------------------------------------
function findSpecs(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : findSpecs(path);
    return e.name.endsWith('.e2e.spec.ts') ? [path] : [];
  });
}

function tail(file, lines) {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

async function e2e() {
  const specs = findSpecs(join(root, 'apps', 'web-e2e', 'src'));
  if (!specs.length) {
    record('e2e', 'playwright', { note: 'no specs in apps/web-e2e/src' });
    return;
  }
  if (!buildOk) {
    record('e2e', 'playwright', { failed: 1, note: 'not run: the build failed' });
    return;
  }
  if (!existsSync('/usr/bin/chromium')) {
    console.log('[test] /usr/bin/chromium is missing: `apt-get install -y chromium` (ensure-install --browser does it)');
    record('e2e', 'playwright', { failed: 1, note: 'not run: /usr/bin/chromium is missing' });
    return;
  }
  banner(`e2e (${specs.length} spec file${specs.length > 1 ? 's' : ''})`);
  // E2E_STACK_ID (default e2e) names everything of this stack, so two test runs can coexist:
  // databases lv_<id>_*, data in .data/<id>, STACK_ID=<id>; E2E_PORT and E2E_REDIS_DB move the rest.
  const id = process.env.E2E_STACK_ID ?? 'e2e';
  if (!/^[a-z][a-z0-9]*$/.test(id)) {
    record('e2e', 'playwright', { failed: 1, note: `E2E_STACK_ID must be lower-case letters and digits (is ${JSON.stringify(id)})` });
    return;
  }
  const dataDir = join(root, '.data', id);
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'stack.log');
  const logStream = createWriteStream(logFile, { flags: 'w' });
  const log = (line) => logStream.write(`${line}\n`);
  try {
    console.log(`[test] starting a fresh stack for the browser tests (logs: ${logFile})`);
    const started = Date.now();
    try {
      stack = await startStack({
        port: Number(process.env.E2E_PORT ?? 3100),
        host: '127.0.0.1',
        dataDir,
        dbPrefix: `lv_${id}_`,
        fresh: true,
        stackId: id,
        redisDb: Number(process.env.E2E_REDIS_DB ?? 1),
        s3Port: 0,
        smtpPort: 0,
        mailHttpPort: 0,
        infra: (await infrastructure()).urls,
        log,
      });
    } catch (err) {
      console.log(`[test] the e2e stack did not start: ${err instanceof StackError ? err.message : err.stack}`);
      console.log(`[test] last lines of ${logFile}:\n${tail(logFile, 30)}`);
      record('e2e', 'playwright', { failed: 1, note: 'crashed: the stack did not start' });
      return;
    }
    console.log(`[test] stack ready at ${stack.url} in ${((Date.now() - started) / 1000).toFixed(1)}s (mail: ${stack.mailUrl})`);

    const out = join(workDir, 'playwright.json');
    rmSync(out, { force: true });
    // --e2e-files=a,b runs only the spec files whose names match (Playwright's file filters), for a
    // developer's quick loop; CI runs them all.
    const fileFilters = listArg('e2e-files') ?? [];
    const { code, timedOut } = await run([bin.playwright, 'test', '-c', 'apps/web-e2e/playwright.config.ts', '--reporter=list,json', ...fileFilters], {
      env: { ...testInfraEnv((await infrastructure()).urls), BASE_URL: stack.url, MAIL_URL: stack.mailUrl, S3_ENDPOINT: stack.s3Endpoint, PLAYWRIGHT_JSON_OUTPUT_NAME: out, CI: process.env.CI ?? 'true' },
      timeoutMs: minutes('LV_E2E_TIMEOUT_MIN', 30),
    });
    const report = readJson(out);
    if (!report?.stats) {
      record('e2e', 'playwright', { failed: 1, note: timedOut ? 'timed out (no report)' : `crashed (exit ${code}, no report)` });
    } else {
      const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
      let failed = unexpected;
      let note = flaky ? `${flaky} flaky` : undefined;
      const errors = report.errors?.length ?? 0;
      if (code !== 0 && failed === 0) {
        failed = Math.max(1, errors);
        note = timedOut ? 'timed out' : `playwright exit ${code}${errors ? ` (${errors} error(s) outside tests)` : ''}`;
      }
      record('e2e', 'playwright', { passed: expected + flaky, failed, skipped, note });
    }
    if (code !== 0) console.log(`[test] the stack's logs are in ${logFile}`);
  } finally {
    await stack?.stop().catch((err) => console.log(`[test] stopping the e2e stack: ${err.message}`));
    stack = undefined;
    await new Promise((r) => logStream.end(r));
  }
}

// --- minimums -----------------------------------------------------------------------------------
function checkMinimums() {
  const file = join(root, 'tools', 'test', 'minimums.json');
  const minimums = readJson(file);
  if (!minimums) {
    record('minimums', 'file', { failed: 1, note: `${file} is missing or not JSON` });
    return;
  }
  for (const line of applyMinimums(results, minimums, enabled)) console.log(`[test] ${line}`);
}

// --- main ----------------------------------------------------------------------------------------
const tiers = { typecheck, lint, build, jest, e2e };
const startedAt = Date.now();
for (const name of TIERS) {
  if (!enabled(name)) continue;
  const before = results.length;
  try {
    await tiers[name]();
  } catch (err) {
    console.log(`[test] the ${name} tier crashed: ${err instanceof InfraError ? err.message : err.stack ?? err}`);
    if (results.length === before) record(name, 'crashed', { failed: 1, note: 'crashed' });
  }
}
await infra?.stop().catch((err) => console.log(`[test] stopping the private instances: ${err.message}`));
rmSync(workDir, { recursive: true, force: true });
checkMinimums();

const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
console.log(`\n=== summary (${((Date.now() - startedAt) / 1000).toFixed(0)}s) ===`);
for (const r of results) {
  const counts = `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`;
  console.log(`  ${`${r.tier} (${r.label})`.padEnd(24)} ${r.failed ? 'FAIL' : 'ok  '}  ${counts}${r.note ? `  [${r.note}]` : ''}`);
}
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
