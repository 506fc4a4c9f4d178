import { lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { jest } from '@jest/globals';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type RunningStack } from './stack.mjs';
import { DEFAULT_URLS, freePort } from './infra.mjs';

// The set-up a new user gets when nothing runs yet: `npm start` with private PostgreSQL, Redis and
// NATS (LV_PRIVATE_INFRA=1 forces them beside the machine's own). The product starts on them, keeps
// a letter across a restart, and leaves no process behind.
jest.setTimeout(300_000);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function api<T>(stack: RunningStack, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

describe('npm start on private PostgreSQL, Redis and NATS', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lv-private-infra-'));
  const lines: string[] = [];
  let stack: RunningStack | undefined;

  const start = async () =>
    startStack({
      port: await freePort(),
      dataDir,
      stackId: `pinfra${process.pid}`,
      s3Port: 0,
      smtpPort: 0,
      mailHttpPort: 0,
      privateInfra: true,
      // The test runner exports REDIS_URL and NATS_URL for the other specs; a user's URL would win.
      infraEnv: {},
      healthTimeoutMs: 180_000,
      log: (line) => lines.push(line),
    });

  afterAll(async () => {
    await stack?.stop();
    // As root, PostgreSQL's cluster may live elsewhere, linked from <dataDir>/pg (see infra.mjs).
    const pg = join(dataDir, 'pg');
    if (lstatSync(pg, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(realpathSync(pg), { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on its own instances, keeps a letter across a restart, and stops them with the stack', async () => {
    stack = await start();
    expect(stack.privateInfra).toEqual(['postgres', 'redis', 'nats']);
    for (const url of [stack.postgresUrl, stack.redisUrl, stack.natsUrl]) expect(Object.values(DEFAULT_URLS)).not.toContain(url);
    expect(lines.some((l) => l.includes(`private PostgreSQL on ${stack!.postgresUrl}, data in ${join(dataDir, 'pg')}`))).toBe(true);

    const email = `private-infra-${Date.now()}@example.com`;
    const signUp = await api<{ accessToken: string }>(stack, '/api/auth/sign-up', { method: 'POST', body: { email, password: 'kept-across-restarts' } });
    expect(signUp.status).toBe(201);
    const written = await api<{ id: string }>(stack, '/api/letters', { method: 'POST', token: signUp.body.accessToken, body: { title: 'For Ellie', content: 'Written on a private PostgreSQL.' } });
    expect(written.status).toBe(201);

    const firstRun = [...stack.children.map((c) => c.pid), ...Object.values(stack.privateInfraPids)];
    expect(Object.keys(stack.privateInfraPids).sort()).toEqual(['nats', 'postgres', 'redis']);
    await stack.stop();
    stack = undefined;
    expect(firstRun.filter(alive)).toEqual([]);

    stack = await start();
    const signIn = await api<{ accessToken: string }>(stack, '/api/auth/sign-in', { method: 'POST', body: { email, password: 'kept-across-restarts' } });
    expect(signIn.status).toBe(200);
    const letter = await api<{ title: string; content: string }>(stack, `/api/letters/${written.body.id}`, { token: signIn.body.accessToken });
    expect(letter.status).toBe(200);
    expect(letter.body).toMatchObject({ title: 'For Ellie', content: 'Written on a private PostgreSQL.' });

    const pids = [...stack.children.map((c) => c.pid), ...Object.values(stack.privateInfraPids)];
    await stack.stop();
    stack = undefined;
    expect(pids.filter(alive)).toEqual([]);
  });
});
