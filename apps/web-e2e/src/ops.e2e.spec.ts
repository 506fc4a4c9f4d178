import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_QUEUES } from '@lv/contracts';
import { expect, test } from './support/test.js';
import { signUpWithToken } from './support/letters.js';
import { runOperatorCommand, stackUnderTest } from './support/media.js';

// Operations through the running stack: the BullMQ board at /api/admin/queues is for admins only
// and lists every queue of the contracts' registry; every answer names its request (X-Request-Id).

test.describe('the queue board (bull-board)', () => {
  test('is refused without a token and to an owner who is not an admin', async ({ page, request }) => {
    expect((await request.get('/api/admin/queues')).status()).toBe(401);
    const owner = await signUpWithToken(request, 'board-owner');
    const auth = { authorization: `Bearer ${owner.accessToken}` };
    expect((await request.get('/api/admin/queues', { headers: auth })).status()).toBe(403);
    expect((await request.get('/api/admin/queues/api/queues', { headers: auth })).status()).toBe(403);
    // No cookie for the board either.
    const session = await page.request.post('/api/admin/queue-session', { headers: auth });
    expect(session.status()).toBe(403);
    expect(session.headers()['set-cookie'] ?? '').not.toContain('lv_admin');
    const board = await page.goto('/api/admin/queues');
    expect(board?.status()).toBe(401);
    await expect(page.getByText('Legacy Vault queues')).toHaveCount(0);
  });

  test('shows an admin every queue of the registry', async ({ page, request }) => {
    const owner = await signUpWithToken(request, 'board-admin');
    runOperatorCommand('user:admin', owner.credentials.email);
    // A new session carries the admin claim.
    const signIn = await request.post('/api/auth/sign-in', { data: owner.credentials });
    expect(signIn.status()).toBe(200);
    const { accessToken } = (await signIn.json()) as { accessToken: string };
    const session = await page.request.post('/api/admin/queue-session', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(session.status()).toBe(204);

    await page.goto('/api/admin/queues');
    await expect(page.getByText('Legacy Vault queues').first()).toBeVisible();
    for (const queue of ALL_QUEUES) await expect(page.getByText(queue, { exact: true }).first()).toBeVisible();
    // The board's own API answers the admin with the same list.
    const listed = await page.request.get('/api/admin/queues/api/queues?activeQueue=&page=1');
    expect(listed.status()).toBe(200);
    const names = ((await listed.json()) as { queues: { name: string }[] }).queues.map((q) => q.name);
    expect([...names].sort()).toEqual([...ALL_QUEUES].sort());
  });
});

test('every API answer names its request in X-Request-Id, and keeps a well-formed one the caller sent', async ({ request }) => {
  const fresh = await request.get('/api/health');
  expect(fresh.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const kept = await request.get('/api/health', { headers: { 'x-request-id': 'support-ticket-4711' } });
  expect(kept.headers()['x-request-id']).toBe('support-ticket-4711');
});

test("every process of the stack answers liveness, readiness and metrics on its own ops listener", async ({ request }) => {
  // Something to count first: a sign-up goes through the gateway to identity.
  await signUpWithToken(request, 'ops-metrics');
  const { opsPorts } = JSON.parse(readFileSync(join(stackUnderTest().dir, 'stack.json'), 'utf8')) as { opsPorts: Record<string, number> };
  expect(Object.keys(opsPorts)).toEqual(expect.arrayContaining(['gateway', 'identity', 'letters', 'worker']));
  for (const [name, port] of Object.entries(opsPorts)) {
    const base = `http://127.0.0.1:${port}`;
    expect((await request.get(`${base}/health/live`)).status(), `${name} liveness`).toBe(200);
    const ready = await request.get(`${base}/health/ready`);
    expect({ name, status: ready.status(), body: await ready.json() as unknown }).toMatchObject({ name, status: 200, body: { status: 'up' } });
    const metrics = await (await request.get(`${base}/metrics`)).text();
    expect(metrics, `${name} metrics`).toContain(`process_cpu_user_seconds_total{app="${name}"}`);
  }
  const identity = await (await request.get(`http://127.0.0.1:${opsPorts.identity}/metrics`)).text();
  expect(identity).toMatch(/lv_rpc_requests_total\{subject="rpc\.identity\.sign-up",outcome="ok",app="identity"\} [1-9]/);
  // The outbox gauge is declared; its reading comes from the database at scrape time and is skipped when
  // slower than the scrape's limit (seen on the loaded full e2e run). Its value is checked against a real
  // service in apps/gateway/test/observability.int.spec.ts.
  expect(identity).toContain('# TYPE lv_outbox_pending gauge');
  const gateway = await (await request.get(`http://127.0.0.1:${opsPorts.gateway}/metrics`)).text();
  expect(gateway).toMatch(/lv_http_requests_total\{method="POST",route="\/api\/auth\/sign-up",status="201",app="gateway"\} [1-9]/);
});
