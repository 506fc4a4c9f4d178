// The production shape, started on this machine and used through its front door: every process with
// NODE_ENV=production and freshly generated secrets, each connecting to a PRIVATE nats-server (TLS
// required, the generated permission file) as its own NATS user, on databases of their own prefix and a
// Redis database of their own; then a family's path over HTTP only, as a browser would take it: an owner
// signs up and verifies his address from the e-mail, writes a letter, a family member asks for access on
// the public form, the owner approves, the key is e-mailed, and the family member redeems it and reads the
// letter's words. A start-up or handler that the deployment's permissions refuse fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { waitFor } from '@lv/testing';
import { secretGenerators } from '../dev/compose-secrets.mjs';
import { DEFAULT_URLS, freePort } from '../dev/infra.mjs';
import { startStack, type RunningStack } from '../dev/stack.mjs';
import { NATS_USERS } from './nats-permissions.mjs';
import { startPrivateNats, type PrivateNats } from './test-support/private-nats.js';

jest.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), 'lv-production-shape-'));
const lines: string[] = [];
const exits: string[] = [];
const refusals: string[] = [];
let nats: PrivateNats | undefined;
let stack: RunningStack | undefined;

/** The values compose-secrets.mjs would put in a deployment's .env: random, at least 32 characters. */
const secrets = Object.fromEntries(Object.entries(secretGenerators()).map(([name, make]) => [name, make()]));
const secret = (name: string): string => {
  const value = secrets[name];
  if (!value) throw new Error(`compose-secrets.mjs generates no ${name}`);
  return value;
};

/** What each process gets over the dev stack's environment: its NATS user over TLS, and production's secrets. */
function productionEnv(name: string, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const own: Record<string, string | undefined> = { NODE_ENV: 'production', ...nats!.settings(name) };
  // The dev stack derives these from its key; a deployment sets random ones, shared where processes share one.
  for (const variable of ['KEY_MAIL_SECRET', 'MEDIA_LINK_SECRET', 'COURT_LINK_SECRET', 'DEVICE_COOKIE_SECRET']) {
    if (env[variable] !== undefined) own[variable] = secret(variable);
  }
  if (name === 'billing') {
    // No Stripe keys on this machine: the local provider, which production takes only when told in so many words.
    Object.assign(own, { PAYMENT_PROVIDER: 'local', ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION: 'true', LOCAL_WEBHOOK_SECRET: secret('BILLING_WEBHOOK_SECRET') });
  }
  // Unset, as in a deployment: the gateway then marks cookies Secure and sends HSTS (production's default).
  if (name === 'gateway') own.COOKIE_SECURE = undefined;
  return own;
}

beforeAll(async () => {
  nats = await startPrivateNats(join(dir, 'nats'));
  stack = await startStack({
    port: await freePort(),
    dataDir: join(dir, 'stack'),
    dbPrefix: 'lv_prodshape_',
    fresh: true,
    // No STACK_ID: subjects and streams carry the names the permission file grants.
    stackId: '',
    redisDb: 14,
    s3Port: 0,
    smtpPort: 0,
    mailHttpPort: 0,
    nodeEnv: 'production',
    s3Credentials: { accessKey: secret('S3_ACCESS_KEY'), secretKey: secret('S3_SECRET_KEY') },
    processEnv: productionEnv,
    infra: {
      postgres: process.env.TEST_POSTGRES_URL ?? DEFAULT_URLS.postgres,
      redis: process.env.REDIS_URL ?? DEFAULT_URLS.redis,
      nats: nats.url,
    },
    // A process that dies is a failure here, never restarted behind the spec's back.
    supervise: false,
    healthTimeoutMs: 180_000,
    log: (line) => {
      if (/permissions? violation/i.test(line)) refusals.push(line);
      lines.push(line);
      if (lines.length > 400) lines.shift();
    },
  }).catch((error: Error) => {
    throw new Error(`the production-shape stack did not start: ${error.message}\nnats-server: ${nats?.output() ?? ''}\nlast lines:\n${lines.slice(-60).join('\n')}`);
  });
  stack.onExit(({ name, code, signal }) => exits.push(`${name} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`));
});

afterAll(async () => {
  await stack?.stop();
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser of its own: cookies kept from answers and sent back, an Origin on every request. */
function browser() {
  const cookies = new Map<string, string>();
  return async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
    const response = await fetch(`${stack!.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        origin: stack!.url,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const text = await response.text();
    let body: unknown = null;
    try { body = text ? JSON.parse(text) : null; } catch { body = text; }
    return { status: response.status, body: body as Record<string, unknown>, text, setCookies, headers: response.headers };
  };
}

interface Mail { id: string; subject: string; text: string }
/** The e-mails the SMTP catcher holds for an address, once at least one has arrived. */
async function mailsTo(address: string, subject: string): Promise<Mail[]> {
  const read = async () => (await (await fetch(`${stack!.mailUrl}/messages?to=${encodeURIComponent(address)}`)).json()) as Mail[];
  await waitFor(async () => (await read()).some((m) => m.subject.includes(subject)), 60_000, `an e-mail "${subject}" to ${address}`);
  return (await read()).filter((m) => m.subject.includes(subject));
}

describe('the production shape on this machine', () => {
  it('starts every process under its own NATS user with production settings, each ready on its ops port', async () => {
    const names = stack!.processes.map((p) => p.name);
    // Every process with a NATS user of the permission file (only the operators' CLI is not a process).
    expect(names.sort()).toEqual(NATS_USERS.map((u) => u.user).filter((u) => u !== 'ops').sort());
    for (const name of names) {
      const ready = await fetch(`http://127.0.0.1:${stack!.opsPorts[name]}/health/ready`);
      expect({ name, status: ready.status }).toEqual({ name, status: 200 });
    }
    const health = await fetch(`${stack!.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('signs up, writes a letter, takes a request, approves it, and the family member reads the letter', async () => {
    const owner = browser();
    const email = `owner-${Date.now()}@example.com`;
    const signedUp = await owner('/api/auth/sign-up', { method: 'POST', body: { email, password: 'a production-shaped vault' } });
    expect(signedUp.status).toBe(201);
    // Production's cookie: Secure (TLS ends at the proxy in front of the gateway), and HSTS sent.
    expect(signedUp.setCookies.join('\n')).toMatch(/; Secure/i);
    expect(signedUp.headers.get('strict-transport-security')).toBeTruthy();

    // The address verified from the e-mail notifications sent through SMTP, and the session renewed to say so.
    const [verifyMail] = await mailsTo(email, 'verify your e-mail address');
    const token = new URLSearchParams(/\/verify-email#(\S+)/.exec(verifyMail!.text)?.[1] ?? '').get('token');
    expect(token).toBeTruthy();
    expect((await owner('/api/auth/verify-email', { method: 'POST', body: { token } })).status).toBe(200);
    const renewed = await owner('/api/auth/refresh', { method: 'POST' });
    expect(renewed.status).toBe(200);
    const profile = renewed.body.profile as { id: string; emailVerified: boolean };
    expect(profile.emailVerified).toBe(true);
    const accessToken = renewed.body.accessToken as string;

    const words = 'Sam, the garden was always yours. Water the apple tree in August.';
    const letter = await owner('/api/letters', { method: 'POST', token: accessToken, body: { title: 'For Sam, when the tree fruits', content: words } });
    expect(letter.status).toBe(201);
    const letterId = letter.body.id as string;

    // The family member: another browser, no account, the owner's request link.
    const family = browser();
    const requester = `sam-${Date.now()}@example.com`;
    expect((await family(`/api/access/request-form/${profile.id}`)).status).toBe(200);
    const requested = await family('/api/access/requests', {
      method: 'POST',
      body: { user_id: profile.id, requester_email: requester, relationship: 'Son', message: 'I would like to read your letters.', child_name: 'Sam' },
    });
    expect({ status: requested.status, body: requested.body }).toEqual({ status: 201, body: { success: true } });

    const pending = await owner('/api/access/requests', { token: accessToken });
    expect(pending.status).toBe(200);
    const items = pending.body.items as { id: string; requester_email: string }[];
    expect(items.map((r) => r.requester_email)).toEqual([requester]);
    const approved = await owner(`/api/access/requests/${items[0]!.id}/approve`, { method: 'POST', token: accessToken, body: {} });
    expect(approved.status).toBe(200);
    const key = approved.body.access_key as string;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The key e-mail: access-keys queues it, notifications sends it after asking access-keys it is still active.
    const [keyMail] = await mailsTo(requester, `${email} shared their Legacy Vault with you`);
    expect(keyMail!.text).toContain(key);

    const consent = await family('/api/access/consent');
    expect(consent.status).toBe(200);
    const redeemed = await family('/api/view/redeem', {
      method: 'POST',
      body: { access_key: key, owner: profile.id, consent: { version: consent.body.version, text_hash: consent.body.hash } },
    });
    expect(redeemed.status).toBe(201);
    const viewerToken = redeemed.body.viewer_token as string;

    const listed = await family('/api/view/entries/letters', { token: viewerToken });
    expect(listed.status).toBe(200);
    expect((listed.body as unknown as { id: string }[]).map((e) => e.id)).toEqual([letterId]);
    const read = await family(`/api/view/letters/${letterId}`, { token: viewerToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: letterId, title: 'For Sam, when the tree fruits', content: words });
    // The owner's own token opens no viewer route.
    expect((await owner(`/api/view/letters/${letterId}`, { token: accessToken })).status).toBe(401);
  });

  it('kept every process running, and every one still ready', async () => {
    expect(exits).toEqual([]);
    for (const p of stack!.processes) {
      const ready = await fetch(`http://127.0.0.1:${stack!.opsPorts[p.name]}/health/ready`);
      expect({ name: p.name, status: ready.status }).toEqual({ name: p.name, status: 200 });
    }
    // Nothing any process asked under its user was refused by the server, nor logged as refused.
    expect(nats!.violations()).toEqual([]);
    expect(refusals).toEqual([]);
  });
});
