import { mkdtempSync, rmSync } from 'node:fs';
import { jest } from '@jest/globals';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type RunningStack } from './stack.mjs';
import { freePort } from './infra.mjs';

// `npm start` is also how someone runs the product on one home server: a process that dies is
// restarted with backoff, the log says so, and the product works again without anyone at the keyboard.
jest.setTimeout(240_000);

const waitFor = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe('npm start supervises its processes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lv-supervision-'));
  const lines: string[] = [];
  let stack: RunningStack | undefined;

  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts a killed service with backoff, says so, and the product works again', async () => {
    stack = await startStack({
      port: await freePort(),
      dataDir,
      dbPrefix: 'lv_sup_',
      fresh: true,
      stackId: `sup${process.pid}`,
      redisDb: 7,
      s3Port: 0,
      smtpPort: 0,
      mailHttpPort: 0,
      restartBackoffMs: 500,
      healthTimeoutMs: 180_000,
      log: (line) => lines.push(line),
    });
    const api = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${stack!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    };
    const signUp = await api('/api/auth/sign-up', { method: 'POST', body: { email: `supervised-${Date.now()}@example.com`, password: 'restarted-by-the-stack' } });
    expect(signUp.status).toBe(201);
    const token = signUp.body!.accessToken as string;

    const letters = stack.processes.find((p) => p.name === 'letters')!;
    const killedPid = letters.pid;
    process.kill(killedPid, 'SIGKILL');
    await waitFor('the restart to be logged', () => lines.some((l) => l.includes('[stack] letters was killed by SIGKILL; restarting it in 0.5 s (restart 1)')));
    await waitFor('letters to run again', () => lines.some((l) => /\[stack\] letters restarted \(pid \d+\)/.test(l)));
    expect(letters.pid).not.toBe(killedPid);

    // The product works again through the front door: a letter is written and read back.
    await waitFor('a letter to be written again', async () => (await api('/api/letters', { method: 'POST', token, body: { title: 'After the crash', content: 'Still here.' } })).status === 201);
    const list = await api('/api/letters', { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('After the crash');
  });
});
