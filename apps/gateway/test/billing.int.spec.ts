// The gateway's billing routes booted in-process against the machine's real NATS and Redis; billing is
// a stand-in speaking Nest's NATS wire format, which records what reached it. Denials happen at the
// gateway (no token, a bad body, a malformed id) before anything is forwarded; the provider's webhook
// reaches billing byte for byte.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { BillingRpc, type AccessTokenClaims, type FaqEntry } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { createSpecGateway, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwbill${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new AccessTokenSigner(keys.privateKey);
const USER_ID = '11111111-1111-4111-8111-111111111111';
const tokenFor = (overrides: Partial<AccessTokenClaims> = {}) => signer.sign({ sub: USER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'none', admin: false, kind: 'user', ...overrides }, 600).token;
const FAQ: FaqEntry[] = [{ id: '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a01', question: 'What does each plan include?', answer: 'Essentials…', is_active: true, display_order: 1 }];
const SESSION = 'cs_local_0123456789abcdef0123456789abcdef';
/** A well-formed token signed by a key the gateway does not trust (an admin's claims, even). */
const strangerToken = new AccessTokenSigner(generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey)
  .sign({ sub: USER_ID, sid: randomUUID(), email: 'x@example.com', tier: 'pro', admin: true, kind: 'user' }, 600).token;

describe('gateway: billing routes', () => {
  let app: NestFastifyApplication;
  let http: FastifyInstance;
  let billing: NestNatsResponder;
  let workDir: string;

  const call = (options: InjectOptions) => http.inject(options);
  const forwarded = (subject: { subject: string }) => billing.received.filter((r) => r.subject === subject.subject);

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('billing'));

    billing = await NestNatsResponder.start(NATS_URL, STACK_ID);
    billing
      .handle(BillingRpc.faq, () => FAQ)
      .handle(BillingRpc.subscription, () => ({ status: 'none', tier: 'none', current_period_end: null, cancel_at_period_end: false, provider: 'local' }))
      .handle(BillingRpc.startCheckout, ({ payload }) => ({ session_id: SESSION, url: `http://127.0.0.1/checkout/local?session=${SESSION}&plan=${(payload as { plan: string }).plan}` }))
      .handle(BillingRpc.changePlan, ({ payload }) => ({ status: 'active', tier: (payload as { plan: string }).plan, current_period_end: null, cancel_at_period_end: false, provider: 'local' }))
      .handle(BillingRpc.webhook, ({ payload }) => {
        if ((payload as { signature: string }).signature !== 't=1,v1=good') throw new DomainError('VALIDATION_FAILED', 'The webhook signature is not valid.');
        return { received: true, outcome: 'applied' };
      })
      .handle(BillingRpc.localSession, () => ({ session_id: SESSION, tier: 'pro', status: 'open', promo_code: null, success_url: 'http://x/s', cancel_url: 'http://x/c' }));
    await billing.listen(['rpc.billing.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '2000',
      WEB_DIST_DIR: join(workDir, 'web'), HEALTH_SERVICES: 'billing',
    });
    http = app.getHttpAdapter().getInstance();
  });

  afterAll(async () => {
    await app?.close();
    await billing?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('refuses every owner route without a valid access token, before billing hears of it', async () => {
    const routes: (InjectOptions & { method: string; url: string })[] = [
      { method: 'GET', url: '/api/billing/subscription' },
      { method: 'POST', url: '/api/billing/checkout', payload: { plan: 'pro' } },
      { method: 'POST', url: '/api/billing/cancel' },
      { method: 'POST', url: '/api/billing/change-plan', payload: { plan: 'legacy' } },
      { method: 'GET', url: `/api/billing/local/sessions/${SESSION}` },
      { method: 'POST', url: `/api/billing/local/sessions/${SESSION}/pay` },
      { method: 'POST', url: `/api/billing/local/sessions/${SESSION}/cancel` },
      { method: 'GET', url: '/api/admin/faq' },
      { method: 'POST', url: '/api/admin/faq', payload: { question: 'Q?', answer: 'A.', is_active: true, display_order: 1 } },
      { method: 'PUT', url: `/api/admin/faq/${FAQ[0]!.id}`, payload: { question: 'Q?', answer: 'A.', is_active: true, display_order: 1 } },
    ];
    for (const route of routes) {
      for (const authorization of [undefined, 'Bearer garbage', `Bearer ${strangerToken}`]) {
        const response = await call({ ...route, headers: authorization ? { authorization } : {} });
        expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({ route: `${route.method} ${route.url}`, status: 401 });
      }
    }
    expect(billing.received).toEqual([]);
  });

  it('shows the FAQ to anyone', async () => {
    const response = await call({ method: 'GET', url: '/api/faq' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(FAQ);
  });

  it('checks the plan and the session id at the edge, and forwards the caller’s token with a good request', async () => {
    const token = tokenFor();
    const bad = await call({ method: 'POST', url: '/api/billing/checkout', headers: { authorization: `Bearer ${token}` }, payload: { plan: 'gold' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { plan: expect.any(String) } });
    const malformed = await call({ method: 'GET', url: '/api/billing/local/sessions/cs_local_../../etc', headers: { authorization: `Bearer ${token}` } });
    expect(malformed.statusCode).toBe(404);
    expect(forwarded(BillingRpc.startCheckout)).toEqual([]);
    expect(forwarded(BillingRpc.localSession)).toEqual([]);

    const good = await call({ method: 'POST', url: '/api/billing/checkout', headers: { authorization: `Bearer ${token}` }, payload: { plan: 'pro' } });
    expect(good.statusCode).toBe(201);
    expect(good.json()).toMatchObject({ session_id: SESSION });
    expect(forwarded(BillingRpc.startCheckout).map((r) => ({ payload: r.request.payload as unknown, token: r.request.auth.accessToken }))).toEqual([{ payload: { plan: 'pro' }, token }]);
  });

  it('forwards a pricing link’s promo code with the plan, and refuses one no provider issues at the edge', async () => {
    const token = tokenFor();
    const before = forwarded(BillingRpc.startCheckout).length;
    const bad = await call({ method: 'POST', url: '/api/billing/checkout', headers: { authorization: `Bearer ${token}` }, payload: { plan: 'pro', promo_code: 'spring 26' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { promo_code: expect.any(String) } });
    expect(forwarded(BillingRpc.startCheckout)).toHaveLength(before);

    const good = await call({ method: 'POST', url: '/api/billing/checkout', headers: { authorization: `Bearer ${token}` }, payload: { plan: 'legacy', promo_code: 'SPRING-26' } });
    expect(good.statusCode).toBe(201);
    expect(forwarded(BillingRpc.startCheckout).slice(before).map((r) => r.request.payload as unknown)).toEqual([{ plan: 'legacy', promo_code: 'SPRING-26' }]);
  });

  it('checks the plan of a change at the edge, and forwards the owner’s token with a good one', async () => {
    const token = tokenFor();
    for (const payload of [{ plan: 'gold' }, {}, { plan: 'none' }]) {
      const bad = await call({ method: 'POST', url: '/api/billing/change-plan', headers: { authorization: `Bearer ${token}` }, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(forwarded(BillingRpc.changePlan)).toEqual([]);
    const good = await call({ method: 'POST', url: '/api/billing/change-plan', headers: { authorization: `Bearer ${token}` }, payload: { plan: 'legacy' } });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ status: 'active', tier: 'legacy' });
    expect(forwarded(BillingRpc.changePlan).map((r) => ({ payload: r.request.payload as unknown, token: r.request.auth.accessToken }))).toEqual([{ payload: { plan: 'legacy' }, token }]);
  });

  describe('the provider’s webhook (public on purpose)', () => {
    // Spacing and key order a parser would not keep: the signature covers these exact bytes.
    const body = '{"id": "evt_1",  "type":"checkout.session.completed",\n "data": {"object": {"metadata": {"tier": "pro"}}}, "created": 1}';

    it('forwards the exact body and the signature header, with no token', async () => {
      const response = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': 't=1,v1=good' }, payload: body });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'applied' });
      const [received] = forwarded(BillingRpc.webhook).slice(-1);
      expect(received!.request.payload).toEqual({ body, signature: 't=1,v1=good' });
      expect(received!.request.auth.accessToken).toBeUndefined();
    });

    it('answers 400 for a signature billing refuses, and for none at all (not forwarded)', async () => {
      const before = forwarded(BillingRpc.webhook).length;
      const forged = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' }, payload: body });
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The webhook signature is not valid.' });
      const unsigned = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json' }, payload: body });
      expect(unsigned.statusCode).toBe(400);
      expect(forwarded(BillingRpc.webhook).length).toBe(before + 1);
    });

    it('refuses a body over 256 KiB, a non-JSON body and a browser’s cross-site post', async () => {
      const before = forwarded(BillingRpc.webhook).length;
      const huge = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=good' }, payload: `{"pad":"${'x'.repeat(300 * 1024)}"}` });
      expect(huge.statusCode).toBe(413);
      const form = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/x-www-form-urlencoded', 'stripe-signature': 't=1,v1=good' }, payload: 'a=1' });
      expect(form.statusCode).toBe(415);
      const crossSite = await call({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=good', origin: 'https://evil.example' }, payload: body });
      expect(crossSite.statusCode).toBe(403);
      expect(forwarded(BillingRpc.webhook).length).toBe(before);
    });

    it('still parses JSON everywhere else', async () => {
      const response = await call({ method: 'POST', url: '/api/billing/checkout', headers: { authorization: `Bearer ${tokenFor()}`, 'content-type': 'application/json' }, payload: '{"plan":"legacy"}' });
      expect(response.statusCode).toBe(201);
    });
  });
});
