// The gateway's family-access routes (/api/access/*, /api/view/*) booted in-process (createGatewayApp)
// against the machine's real NATS and Redis. access-keys, the timeline, letters and court-journal are
// stand-ins speaking Nest's NATS wire format, so this spec is about the HTTP edge: which caller reaches
// which route, what is refused before anything is forwarded, what travels to the services (payload,
// token, client address, origin, user agent), and the viewer's read rules (section scope, the view
// recorded before any read). The real access-keys service is covered by its own specs.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import {
  AccessKeysRpc, AccessMessages, CONSENT_VERSION, CourtJournalRpc, ErrorCodes, LettersRpc, RequestLinkMessages, TimelineRpc, TrusteeMessages, VaultMediaRpc, VIEWER_CONSENT_TEXT, type AccessKeySummary,
  type AccessRequest, type CourtDocument, type IssuedAccessKey, type LetterSummary, type OpenedViewSession, type TimelineEntry, type ViewSection, type ViewSessionSummary,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { generateTestKeys, propertySeeds, TestViewerIssuer } from '@lv/testing';
import { bridgeEsmOnlyDependencies } from './support/esm-bridge.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwa${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APP_ORIGIN = 'https://vault.example.com';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const OWNER_ID = randomUUID();
const SUBMISSION_ID = randomUUID();
const ownerToken = signer.sign({ sub: OWNER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, emailVerified: true, kind: 'user' }, 600).token;

const REQUEST_ID = randomUUID();
const KEY_ID = randomUUID();
const SESSION_ID = randomUUID();
const ACCESS_KEY = randomUUID();
const SESSION_SECRET = 'A'.repeat(43);
const CONSENT = { version: CONSENT_VERSION, text_hash: createHash('sha256').update(VIEWER_CONSENT_TEXT).digest('hex') };
const AT = '2026-11-24T10:00:00.000Z';

const accessRequest = (over: Partial<AccessRequest> = {}): AccessRequest => ({
  id: REQUEST_ID, owner_id: OWNER_ID, requester_email: 'sam@example.com', requester_name: 'Sam', relationship: 'Son', message: 'Please.', child_name: null, child_dob: null,
  created_at: AT, status: 'pending', decided_at: null, key_id: null, held_key: null, ...over,
});
const DRAFT = `1799999999999.${'s'.repeat(43)}`;
const issuedKey: IssuedAccessKey = { key_id: KEY_ID, access_key: ACCESS_KEY, recipient_email: 'sam@example.com', expires_at: AT, scopes: ['letters'], emailed: true };
const keySummary: AccessKeySummary = {
  id: KEY_ID, name: 'Sam', recipient_email: 'sam@example.com', source: 'owner', request_id: null, scopes: ['letters'], created_at: AT, expires_at: AT, status: 'revoked',
  revoked_at: AT, email_status: 'sent', email_sent_at: AT, email_failure: null, sessions: 0, last_viewed_at: null, allow_download: false,
};
const sessionSummary: ViewSessionSummary = {
  id: SESSION_ID, key_id: KEY_ID, key_name: 'Sam', recipient_email: 'sam@example.com', scopes: ['letters'], opened_at: AT, expires_at: AT, status: 'revoked', ended_at: AT,
  consent: { consent_version: CONSENT_VERSION, consent_text: VIEWER_CONSENT_TEXT, consent_hash: CONSENT.text_hash, user_agent: null, origin: null, accepted_at: AT }, views: [],
};
const grant = { session_id: SESSION_ID, owner_id: OWNER_ID, scopes: ['letters' as const], viewer_token: 'vt', viewer_token_expires_at: 1, session_expires_at: AT, may_download: false };
const opened: OpenedViewSession = { ...grant, session: SESSION_SECRET };

const timelineEntry = (id: string, title: string, createdAt: string): TimelineEntry => ({
  id, source: 'letters', type: 'letter', entry_type: 'message', title, file_path: null, blob_hash: null, size: null, integrity: null, word_count: 3, metadata: {},
  timestamp: createdAt, created_at: createdAt,
});
const letterSummary = (id: string, title: string, createdAt: string): LetterSummary => ({
  id, title, preview: 'The words of a letter.', word_count: 5, created_at: createdAt, updated_at: createdAt, version: 1,
});
const courtDocument = (id: string, fileName: string, createdAt: string): CourtDocument => ({
  id, title: 'Secret title of the hearing', description: 'Private description of the hearing', category: 'Legal Notices or Orders', variant: 'documents', file_name: fileName,
  file_kind: 'pdf', file_type: 'application/pdf', file_path: `owner/${id}.pdf`, size: 10, sha256: 'a'.repeat(64), previewable: true, is_key_evidence: false,
  upload_date: createdAt, created_at: createdAt,
});

const OWNER_ROUTES: readonly [InjectOptions['method'], string][] = [
  ['GET', '/api/access/requests'],
  ['POST', `/api/access/requests/${REQUEST_ID}/approve`],
  ['POST', `/api/access/requests/${REQUEST_ID}/decline`],
  ['GET', '/api/access/keys'],
  ['POST', '/api/access/keys'],
  ['POST', `/api/access/keys/${KEY_ID}/revoke`],
  ['GET', '/api/access/sessions'],
  ['POST', `/api/access/sessions/${SESSION_ID}/revoke`],
  ['GET', '/api/access/request-setting'],
  ['PUT', '/api/access/request-setting'],
  ['GET', '/api/if-im-not-there/contacts'],
  ['POST', '/api/if-im-not-there/contacts'],
  ['DELETE', `/api/if-im-not-there/contacts/${REQUEST_ID}`],
  ['PUT', `/api/if-im-not-there/contacts/${REQUEST_ID}/access-key`],
  ['GET', '/api/if-im-not-there/trustees'],
  ['POST', '/api/if-im-not-there/trustees'],
  ['POST', `/api/if-im-not-there/trustees/${REQUEST_ID}/invitation`],
  ['DELETE', `/api/if-im-not-there/trustees/${REQUEST_ID}`],
  ['GET', '/api/if-im-not-there/trustee-report'],
  ['POST', '/api/if-im-not-there/trustee-report/veto'],
  ['GET', '/api/if-im-not-there/delivery-settings'],
  ['PUT', '/api/if-im-not-there/delivery-settings'],
  ['GET', '/api/if-im-not-there/delivery'],
  ['POST', '/api/if-im-not-there/delivery/cancel'],
  ['POST', '/api/if-im-not-there/delivery/checks'],
  ['GET', '/api/if-im-not-there/inactivity'],
  ['PUT', '/api/if-im-not-there/inactivity'],
  ['POST', '/api/if-im-not-there/inactivity/pause'],
  ['POST', '/api/if-im-not-there/inactivity/resume'],
  ['POST', '/api/if-im-not-there/inactivity/test-warning'],
];
const VIEWER_ROUTES = ['/api/view/session', '/api/view/entries/letters', '/api/view/letter'];

describe('gateway family access (/api/access, /api/view)', () => {
  let app: NestFastifyApplication;
  let http: FastifyInstance;
  let services: NestNatsResponder;
  let redis: Redis;
  let viewers: TestViewerIssuer;
  let workDir: string;

  const send = (options: InjectOptions, token?: string) =>
    http.inject({ ...options, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers } });
  const bodyOf = (method: InjectOptions['method']) => (method === 'POST' ? {} : undefined);
  const readCalls = () => [...services.callsTo(TimelineRpc.list), ...services.callsTo(LettersRpc.list), ...services.callsTo(CourtJournalRpc.list), ...services.callsTo(VaultMediaRpc.finalMessageTitles)];

  /** The access-keys stand-in's answers. */
  function answerAccessKeys(): void {
    services
      .handle(AccessKeysRpc.submitRequest, () => ({ success: true }))
      .handle(AccessKeysRpc.consent, () => ({ version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT.text_hash }))
      .handle(AccessKeysRpc.redeem, () => opened)
      .handle(AccessKeysRpc.keyStatus, () => ({ status: 'active' as const, owner_name: 'Sam Taylor' }))
      .handle(AccessKeysRpc.viewToken, () => grant)
      .handle(AccessKeysRpc.closeSession, () => ({ closed: true }))
      .handle(AccessKeysRpc.listRequests, () => ({ items: [accessRequest()] }))
      .handle(AccessKeysRpc.approveRequest, () => issuedKey)
      .handle(AccessKeysRpc.declineRequest, () => accessRequest({ status: 'declined', decided_at: AT }))
      .handle(AccessKeysRpc.listKeys, () => [keySummary])
      .handle(AccessKeysRpc.draftKey, () => ({ access_key: ACCESS_KEY, draft: DRAFT }))
      .handle(AccessKeysRpc.createKey, () => issuedKey)
      .handle(AccessKeysRpc.revokeKey, () => keySummary)
      .handle(AccessKeysRpc.listSessions, () => [sessionSummary])
      .handle(AccessKeysRpc.revokeSession, () => sessionSummary)
      .handle(AccessKeysRpc.recordView, () => ({ recorded: true }))
      .handle(AccessKeysRpc.requestSetting, () => ({ open: true }))
      .handle(AccessKeysRpc.saveRequestSetting, ({ payload }) => ({ open: payload.open }))
      .handle(AccessKeysRpc.requestForm, () => ({ open: true, owner_name: 'Sam Taylor' }));
  }

  /** Every stand-in's answers (each test may replace one; beforeEach puts them back). */
  function answerAllServices(): void {
    answerAccessKeys();
    // Two pages of letters, so the viewer's list is seen to follow the cursor.
    services
      .handle(TimelineRpc.list, () => ({ entries: [timelineEntry('a0000000-0000-4000-8000-000000000001', 'First steps', '2026-01-02T00:00:00.000Z'), timelineEntry('a0000000-0000-4000-8000-000000000002', 'Birthday', '2026-03-04T00:00:00.000Z')], nextCursor: null }))
      .handle(LettersRpc.list, ({ payload }) =>
        payload.cursor === 'page-2'
          ? { letters: [letterSummary('b0000000-0000-4000-8000-000000000003', 'Newest letter', '2026-05-01T00:00:00.000Z')], nextCursor: null }
          : { letters: [letterSummary('b0000000-0000-4000-8000-000000000001', 'Oldest letter', '2025-01-01T00:00:00.000Z'), letterSummary('b0000000-0000-4000-8000-000000000002', 'Middle letter', '2025-06-01T00:00:00.000Z')], nextCursor: 'page-2' })
      .handle(CourtJournalRpc.list, () => [courtDocument('c0000000-0000-4000-8000-000000000001', 'order.pdf', '2026-02-01T00:00:00.000Z')])
      .handle(AccessKeysRpc.finalEntries, () => [{ id: `${OWNER_ID}:final-thoughts`, title: 'Final Thoughts', created_at: '2026-11-25T11:00:00.000Z' }])
      .handle(VaultMediaRpc.portraitMediaTitles, () => [{ id: 'e0000000-0000-4000-8000-000000000001', title: 'Profile photo', created_at: '2026-11-25T09:00:00.000Z' }])
      .handle(VaultMediaRpc.finalMessageTitles, () => [{ id: 'd0000000-0000-4000-8000-000000000001', title: 'For when you are grown', created_at: '2026-11-25T12:00:00.000Z' }])
      .handle(LettersRpc.portraitSections, () => [
        { id: `${OWNER_ID}:aboutMe`, section: 'About Me', created_at: '2026-11-25T10:00:00.000Z' },
        { id: `${OWNER_ID}:coreValues`, section: 'Core Values', created_at: '2026-11-25T10:00:00.000Z' },
      ]);
  }

  beforeAll(async () => {
    await bridgeEsmOnlyDependencies();
    const { createGatewayApp } = await import('../src/app.factory.js');
    const { gatewayConfigSchema } = await import('../src/config.js');
    workDir = await mkdtemp(join(tmpdir(), 'lv-gateway-access-'));
    const web = join(workDir, 'web');
    await mkdir(web, { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Legacy Vault</title>');
    redis = new Redis(REDIS_URL);
    viewers = new TestViewerIssuer(redis);

    services = await NestNatsResponder.start(NATS_URL, STACK_ID);
    answerAllServices();
    await services.listen(['rpc.access-keys.>', 'rpc.timeline.>', 'rpc.letters.>', 'rpc.court-journal.>', 'rpc.vault-media.>']);

    const config = gatewayConfigSchema.parse({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewers.publicKey, RPC_TIMEOUT_MS: '1500', WEB_DIST_DIR: web, HEALTH_SERVICES: 'access-keys',
      DEVICE_COOKIE_SECRET: 'access-spec-device-cookie-secret-0123456789', APP_ORIGINS: APP_ORIGIN,
      // Inject's connections come from 127.0.0.1: trusting it as the proxy makes X-Forwarded-For the client.
      TRUST_PROXY: '127.0.0.1',
    });
    app = await createGatewayApp(config, { logger: pino({ level: 'silent' }), statsProviders: [] });
    http = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  });

  beforeEach(() => {
    services.received.length = 0;
    answerAllServices();
  });

  afterAll(async () => {
    await app?.close();
    await services?.close();
    redis?.disconnect();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  describe('who reaches which route', () => {
    it('refuses anonymous callers on every owner and viewer route, forwarding nothing', async () => {
      for (const [method, url] of OWNER_ROUTES) {
        const response = await send({ method, url, payload: bodyOf(method) });
        expect({ method, url, status: response.statusCode, code: response.json<{ code: string }>().code }).toEqual({ method, url, status: 401, code: 'UNAUTHENTICATED' });
      }
      for (const url of VIEWER_ROUTES) {
        const response = await send({ method: 'GET', url });
        expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
      }
      expect(services.received).toEqual([]);
    });

    it('refuses a viewer token on owner routes and an owner token on viewer routes', async () => {
      const viewer = viewers.issue(OWNER_ID);
      for (const [method, url] of OWNER_ROUTES) {
        const response = await send({ method, url, payload: bodyOf(method) }, viewer.token);
        expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 401 });
      }
      for (const url of VIEWER_ROUTES) {
        const response = await send({ method: 'GET', url }, ownerToken);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
      }
      expect(services.received).toEqual([]);
    });

    it('refuses an expired or revoked viewer token before recording or reading anything', async () => {
      for (const token of [viewers.expired(OWNER_ID).token, (await viewers.revoked(OWNER_ID)).token]) {
        const response = await send({ method: 'GET', url: '/api/view/entries/letters' }, token);
        expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([401, 'SESSION_EXPIRED']);
      }
      expect(services.received).toEqual([]);
    });

    it('opens the public routes to anyone, and never forwards a token from them', async () => {
      const cases: [InjectOptions, number][] = [
        [{ method: 'POST', url: '/api/access/requests', payload: { user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Please.' } }, 201],
        [{ method: 'GET', url: '/api/access/consent' }, 200],
        [{ method: 'GET', url: `/api/access/request-form/${OWNER_ID}` }, 200],
        [{ method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY, consent: CONSENT } }, 201],
        [{ method: 'POST', url: '/api/view/key-status', payload: { access_key: ACCESS_KEY } }, 200],
        [{ method: 'POST', url: '/api/view/token', payload: { session: SESSION_SECRET } }, 200],
        [{ method: 'POST', url: '/api/view/close', payload: { session: SESSION_SECRET } }, 204],
      ];
      for (const [options, status] of cases) {
        expect({ url: options.url, status: (await send(options)).statusCode }).toEqual({ url: options.url, status });
        // An owner's token sent along changes nothing: a public route acts for no one.
        expect({ url: options.url, status: (await send(options, ownerToken)).statusCode }).toEqual({ url: options.url, status });
      }
      expect(services.received).toHaveLength(cases.length * 2);
      for (const { request } of services.received) expect(request.auth.accessToken).toBeUndefined();
    });
  });

  describe('the public routes', () => {
    it('submits a request (201), normalised, and answers the form’s words for what is missing without forwarding it', async () => {
      const response = await send({
        method: 'POST', url: '/api/access/requests',
        payload: { user_id: OWNER_ID, requester_email: '  Sam@Example.COM ', requester_name: '', relationship: ' Son ', message: ' Please let me see. ', child_dob: '2015-04-01', submission_id: SUBMISSION_ID.toUpperCase() },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ success: true });
      expect(services.callsTo(AccessKeysRpc.submitRequest)[0]!.payload).toEqual({
        user_id: OWNER_ID, requester_email: 'sam@example.com', requester_name: null, relationship: 'Son', message: 'Please let me see.', child_name: null,
        child_dob: '2015-04-01', access_key: null, submission_id: SUBMISSION_ID,
      });

      services.received.length = 0;
      const refusals: [Record<string, unknown>, string, string][] = [
        [{ requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi' }, 'user_id', AccessMessages.missingOwner],
        [{ user_id: OWNER_ID, relationship: 'Son', message: 'Hi' }, 'requester_email', AccessMessages.emailRequired],
        [{ user_id: OWNER_ID, requester_email: 'not-an-email', relationship: 'Son', message: 'Hi' }, 'requester_email', AccessMessages.emailInvalid],
        [{ user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: '  ', message: 'Hi' }, 'relationship', AccessMessages.relationshipRequired],
        [{ user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: '' }, 'message', AccessMessages.reasonRequired],
        [{ user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi', child_dob: '2999-01-01' }, 'child_dob', AccessMessages.childDobInvalid],
        [{ user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'x'.repeat(2001) }, 'message', AccessMessages.fieldTooLong],
        [{ user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi', submission_id: 'retry-1' }, 'submission_id', expect.any(String)],
      ];
      for (const [payload, field, message] of refusals) {
        const refused = await send({ method: 'POST', url: '/api/access/requests', payload });
        expect({ field, status: refused.statusCode, body: refused.json() }).toEqual({ field, status: 400, body: { code: 'VALIDATION_FAILED', message, fields: expect.objectContaining({ [field]: message }) } });
      }
      expect(services.received).toEqual([]);
    });

    it('passes the service’s refusals through (429 with retryAfter, 409 for a submission id reused)', async () => {
      services.handle(AccessKeysRpc.submitRequest, () => {
        throw new DomainError('RATE_LIMITED', AccessMessages.tooManyRequests, { retryAfter: 3600 });
      });
      const response = await send({ method: 'POST', url: '/api/access/requests', payload: { user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi' } });
      expect(response.statusCode).toBe(429);
      expect(response.json()).toEqual({ code: 'RATE_LIMITED', message: AccessMessages.tooManyRequests, retryAfter: 3600 });
      expect(response.headers['retry-after']).toBe('3600');

      services.handle(AccessKeysRpc.submitRequest, () => {
        throw new DomainError('CONFLICT', AccessMessages.submissionReused);
      });
      const reused = await send({ method: 'POST', url: '/api/access/requests', payload: { user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi', submission_id: SUBMISSION_ID } });
      expect([reused.statusCode, reused.json()]).toEqual([409, { code: 'CONFLICT', message: AccessMessages.submissionReused }]);
    });

    it('a request link: looks up whose vault it is with the client address, refuses an id that is not one without forwarding it, and passes REQUESTS_CLOSED and RATE_LIMITED through', async () => {
      const found = await send({ method: 'GET', url: `/api/access/request-form/${OWNER_ID.toUpperCase()}`, headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect([found.statusCode, found.json()]).toEqual([200, { open: true, owner_name: 'Sam Taylor' }]);
      expect(services.callsTo(AccessKeysRpc.requestForm)[0]!.payload).toEqual({ user_id: OWNER_ID });
      expect(services.callsTo(AccessKeysRpc.requestForm)[0]!.meta).toMatchObject({ ip: '203.0.113.9' });

      services.received.length = 0;
      for (const id of ['not-a-uuid', '123', `${OWNER_ID}x`]) {
        const refused = await send({ method: 'GET', url: `/api/access/request-form/${id}` });
        expect({ id, status: refused.statusCode, code: refused.json<{ code: string }>().code }).toEqual({ id, status: 400, code: 'VALIDATION_FAILED' });
      }
      expect(services.received).toEqual([]);

      services.handle(AccessKeysRpc.requestForm, () => {
        throw new DomainError('RATE_LIMITED', AccessMessages.tooManyKeyAttempts);
      });
      const limited = await send({ method: 'GET', url: `/api/access/request-form/${OWNER_ID}` });
      expect([limited.statusCode, limited.json()]).toEqual([429, { code: 'RATE_LIMITED', message: AccessMessages.tooManyKeyAttempts }]);

      services.handle(AccessKeysRpc.submitRequest, () => {
        throw new DomainError('REQUESTS_CLOSED', RequestLinkMessages.requestsClosed);
      });
      const closed = await send({ method: 'POST', url: '/api/access/requests', payload: { user_id: OWNER_ID, requester_email: 'sam@example.com', relationship: 'Son', message: 'Hi' } });
      expect([closed.statusCode, closed.json()]).toEqual([403, { code: 'REQUESTS_CLOSED', message: RequestLinkMessages.requestsClosed }]);
    });

    it('gives the consent text to accept', async () => {
      const response = await send({ method: 'GET', url: '/api/access/consent' });
      expect(response.json()).toEqual({ version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT.text_hash });
    });

    it('redeems a key (201) with the consent, and refuses a missing consent or a malformed key without forwarding it', async () => {
      const response = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: ` ${ACCESS_KEY.toUpperCase()} `, owner: OWNER_ID, consent: CONSENT } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual(opened);
      expect(services.callsTo(AccessKeysRpc.redeem)[0]!.payload).toEqual({ access_key: ACCESS_KEY, owner: OWNER_ID, consent: CONSENT });

      services.received.length = 0;
      const noConsent = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY } });
      expect(noConsent.statusCode).toBe(400);
      expect(noConsent.json()).toMatchObject({ code: 'CONSENT_REQUIRED', message: AccessMessages.consentRequired });
      const wrongVersion = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY, consent: { ...CONSENT, version: 'v0.9' } } });
      expect(wrongVersion.json()).toMatchObject({ code: 'CONSENT_REQUIRED' });
      for (const [accessKey, message] of [['', AccessMessages.keyEmpty], ['not-a-key', AccessMessages.keyMalformed]] as const) {
        const refused = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: accessKey, consent: CONSENT } });
        expect({ accessKey, status: refused.statusCode, body: refused.json() }).toEqual({ accessKey, status: 400, body: { code: 'VALIDATION_FAILED', message, fields: { access_key: message } } });
      }
      expect(services.received).toEqual([]);
    });

    it('answers the service’s INVALID_OR_EXPIRED_KEY with its words', async () => {
      services.handle(AccessKeysRpc.redeem, () => {
        throw new DomainError('INVALID_OR_EXPIRED_KEY');
      });
      const response = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY, consent: CONSENT } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid });
    });

    it('exchanges and closes a session by its secret, refusing a malformed secret without forwarding it', async () => {
      expect((await send({ method: 'POST', url: '/api/view/token', payload: { session: SESSION_SECRET } })).json()).toEqual(grant);
      expect(services.callsTo(AccessKeysRpc.viewToken)[0]!.payload).toEqual({ session: SESSION_SECRET });
      const closed = await send({ method: 'POST', url: '/api/view/close', payload: { session: SESSION_SECRET } });
      expect([closed.statusCode, closed.body]).toEqual([204, '']);

      services.received.length = 0;
      for (const url of ['/api/view/token', '/api/view/close']) {
        const malformed = await send({ method: 'POST', url, payload: { session: 'short' } });
        expect({ url, status: malformed.statusCode, body: malformed.json() }).toEqual({ url, status: 400, body: { code: 'VALIDATION_FAILED', message: AccessMessages.viewExpired, fields: { session: AccessMessages.viewExpired } } });
        const missing = await send({ method: 'POST', url, payload: {} });
        expect(missing.json()).toMatchObject({ message: AccessMessages.noViewSession });
      }
      expect(services.received).toEqual([]);

      services.handle(AccessKeysRpc.viewToken, () => {
        throw new DomainError('VIEW_SESSION_ENDED');
      });
      const ended = await send({ method: 'POST', url: '/api/view/token', payload: { session: SESSION_SECRET } });
      expect([ended.statusCode, ended.json<{ message: string }>().message]).toEqual([401, AccessMessages.viewExpired]);
    });

    it('sends the client address (through the trusted proxy), the origin and the user agent in the RPC meta', async () => {
      await send({
        method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY, consent: CONSENT },
        headers: { origin: APP_ORIGIN, 'user-agent': 'Spec Browser/1.0', 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'spec-redeem-1' },
      });
      expect(services.callsTo(AccessKeysRpc.redeem)[0]!.meta).toEqual({ requestId: 'spec-redeem-1', correlationId: 'spec-redeem-1', ip: '203.0.113.7', origin: APP_ORIGIN, userAgent: 'Spec Browser/1.0' });

      // No Origin header (a script, or a browser's same-origin GET): the gateway's own origin.
      await send({ method: 'GET', url: '/api/access/consent', headers: { 'user-agent': 'Spec Browser/2.0' } });
      expect(services.callsTo(AccessKeysRpc.consent)[0]!.meta).toMatchObject({ ip: '127.0.0.1', origin: 'http://localhost', userAgent: 'Spec Browser/2.0' });

      // A state-changing request from another site never reaches the service at all.
      const crossSite = await send({ method: 'POST', url: '/api/view/redeem', payload: { access_key: ACCESS_KEY, consent: CONSENT }, headers: { origin: 'https://evil.example' } });
      expect(crossSite.statusCode).toBe(403);
      expect(services.callsTo(AccessKeysRpc.redeem)).toHaveLength(1);
    });
  });

  describe('the owner routes', () => {
    it('forward the owner’s token with the payloads the service expects', async () => {
      const list = await send({ method: 'GET', url: '/api/access/requests?status=pending&limit=10' }, ownerToken);
      expect(list.json()).toEqual({ items: [accessRequest()] });
      expect(services.callsTo(AccessKeysRpc.listRequests)[0]!.payload).toEqual({ status: 'pending', limit: 10 });

      // Approving as asked needs no body.
      const approved = await send({ method: 'POST', url: `/api/access/requests/${REQUEST_ID.toUpperCase()}/approve` }, ownerToken);
      expect([approved.statusCode, approved.json()]).toEqual([200, issuedKey]);
      expect(services.callsTo(AccessKeysRpc.approveRequest)[0]!.payload).toEqual({ request_id: REQUEST_ID, override_email: null, allow_download: false });
      await send({ method: 'POST', url: `/api/access/requests/${REQUEST_ID}/approve`, payload: { override_email: ' Other@Example.com', scopes: ['letters', 'timeline', 'letters'] } }, ownerToken);
      expect(services.callsTo(AccessKeysRpc.approveRequest)[1]!.payload).toEqual({ request_id: REQUEST_ID, override_email: 'other@example.com', scopes: ['letters', 'timeline'], allow_download: false });

      const declined = await send({ method: 'POST', url: `/api/access/requests/${REQUEST_ID}/decline` }, ownerToken);
      expect([declined.statusCode, declined.json<AccessRequest>().status]).toEqual([200, 'declined']);
      expect(services.callsTo(AccessKeysRpc.declineRequest)[0]!.payload).toEqual({ request_id: REQUEST_ID });

      const drafted = await send({ method: 'POST', url: '/api/access/keys/draft' }, ownerToken);
      expect([drafted.statusCode, drafted.json()]).toEqual([201, { access_key: ACCESS_KEY, draft: DRAFT }]);
      const created = await send({ method: 'POST', url: '/api/access/keys', payload: { access_key: ACCESS_KEY, draft: DRAFT, name: ' Sam ', email: 'Sam@example.com' } }, ownerToken);
      expect([created.statusCode, created.json()]).toEqual([201, issuedKey]);
      expect(services.callsTo(AccessKeysRpc.createKey)[0]!.payload).toEqual({ access_key: ACCESS_KEY, draft: DRAFT, name: 'Sam', email: 'sam@example.com', expires_in_days: 30, allow_download: false });

      expect((await send({ method: 'GET', url: '/api/access/keys' }, ownerToken)).json()).toEqual([keySummary]);
      expect((await send({ method: 'POST', url: `/api/access/keys/${KEY_ID}/revoke` }, ownerToken)).json()).toEqual(keySummary);
      expect(services.callsTo(AccessKeysRpc.revokeKey)[0]!.payload).toEqual({ key_id: KEY_ID });
      expect((await send({ method: 'GET', url: '/api/access/sessions' }, ownerToken)).json()).toEqual([sessionSummary]);
      expect((await send({ method: 'POST', url: `/api/access/sessions/${SESSION_ID}/revoke` }, ownerToken)).json()).toEqual(sessionSummary);
      expect(services.callsTo(AccessKeysRpc.revokeSession)[0]!.payload).toEqual({ session_id: SESSION_ID });

      expect(services.received).toHaveLength(10);
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(ownerToken);
    });

    it('show and save the owner’s request link switch with the owner’s token; a body that is not true or false is refused here', async () => {
      expect((await send({ method: 'GET', url: '/api/access/request-setting' }, ownerToken)).json()).toEqual({ open: true });
      const saved = await send({ method: 'PUT', url: '/api/access/request-setting', payload: { open: false } }, ownerToken);
      expect([saved.statusCode, saved.json()]).toEqual([200, { open: false }]);
      expect(services.callsTo(AccessKeysRpc.saveRequestSetting)[0]!.payload).toEqual({ open: false });
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(ownerToken);

      services.received.length = 0;
      for (const payload of [{}, { open: 'no' }, { open: null }, { open: 1 }]) {
        const refused = await send({ method: 'PUT', url: '/api/access/request-setting', payload }, ownerToken);
        expect({ payload, status: refused.statusCode }).toEqual({ payload, status: 400 });
      }
      expect(services.received).toEqual([]);
    });

    it('refuse bad bodies and ids with the spec’s words, forwarding nothing', async () => {
      const key = { access_key: ACCESS_KEY, draft: DRAFT, name: 'Sam', email: 'sam@example.com' };
      const refusals: [string, Record<string, unknown>, string, string][] = [
        ['/api/access/keys', { ...key, access_key: '' }, 'access_key', AccessMessages.noKeyGenerated],
        ['/api/access/keys', { ...key, draft: '' }, 'draft', AccessMessages.noKeyGenerated],
        ['/api/access/keys', { ...key, draft: 'x'.repeat(201) }, 'draft', AccessMessages.keyDraftInvalid],
        // Only random (version 4) keys are accepted from the Generate Keys tab.
        ['/api/access/keys', { ...key, access_key: '6ba7b810-9dad-11d1-80b4-00c04fd430c8' }, 'access_key', AccessMessages.keyMalformed],
        ['/api/access/keys', { ...key, name: '  ' }, 'name', AccessMessages.missingName],
        ['/api/access/keys', { ...key, email: '' }, 'email', AccessMessages.missingEmail],
        ['/api/access/keys', { ...key, email: 'sam@' }, 'email', AccessMessages.emailInvalid],
        ['/api/access/keys', { ...key, expires_in_days: 0 }, 'expires_in_days', AccessMessages.keyExpiryInvalid],
        ['/api/access/keys', { ...key, expires_in_days: 1.5 }, 'expires_in_days', AccessMessages.keyExpiryInvalid],
        ['/api/access/keys', { ...key, scopes: [] }, 'scopes', AccessMessages.scopesRequired],
        [`/api/access/requests/${REQUEST_ID}/approve`, { scopes: [] }, 'scopes', AccessMessages.scopesRequired],
        [`/api/access/requests/${REQUEST_ID}/approve`, { override_email: 'nope' }, 'override_email', AccessMessages.emailInvalid],
      ];
      for (const [url, payload, field, message] of refusals) {
        const refused = await send({ method: 'POST', url, payload }, ownerToken);
        expect({ url, field, status: refused.statusCode, body: refused.json() }).toEqual({ url, field, status: 400, body: { code: 'VALIDATION_FAILED', message, fields: expect.objectContaining({ [field]: message }) } });
      }
      const notAnObject = await send({ method: 'POST', url: '/api/access/keys', payload: ['x'] }, ownerToken);
      expect(notAnObject.statusCode).toBe(400);
      for (const query of ['limit=500', 'limit=0', 'status=approved']) {
        expect({ query, status: (await send({ method: 'GET', url: `/api/access/requests?${query}` }, ownerToken)).statusCode }).toEqual({ query, status: 400 });
      }
      for (const url of ['/api/access/requests/42/approve', '/api/access/requests/x/decline', "/api/access/keys/1'%20or%201=1/revoke", '/api/access/sessions/..%2Fadmin/revoke']) {
        expect({ url, status: (await send({ method: 'POST', url }, ownerToken)).statusCode }).toEqual({ url, status: 404 });
      }
      expect(services.received).toEqual([]);
    });

    it('refuse any one field made wrong (type, 100 KB, a control character) on every body route, forwarding nothing', async () => {
      const validBodies: [string, Record<string, unknown>, string | undefined][] = [
        ['/api/access/requests', { user_id: OWNER_ID, requester_email: 'sam@example.com', requester_name: 'Sam', relationship: 'Son', message: 'Hi', child_name: 'Alex', child_dob: '2015-04-01', access_key: ACCESS_KEY }, undefined],
        [`/api/access/requests/${REQUEST_ID}/approve`, { override_email: 'other@example.com', scopes: ['letters'] }, ownerToken],
        ['/api/access/keys', { access_key: ACCESS_KEY, draft: DRAFT, name: 'Sam', email: 'sam@example.com', expires_in_days: 30, scopes: ['letters'] }, ownerToken],
        ['/api/view/redeem', { access_key: ACCESS_KEY, owner: OWNER_ID, consent: CONSENT }, undefined],
        ['/api/view/token', { session: SESSION_SECRET }, undefined],
        ['/api/view/close', { session: SESSION_SECRET }, undefined],
      ];
      // Each route at the fixed seed and at this run's (fast-check names the seed of a failure).
      const seeds = propertySeeds('access.int.spec');
      // No value here is valid for any of these fields (numbers: a key lasts a whole number of days from 1).
      const junk = fc.oneof(fc.constantFrom(-1, 0.5), fc.boolean(), fc.constant({}), fc.constant(['x']), fc.constant('x'.repeat(102_400)), fc.constantFrom('\u0000', 'a\uD800b', 'ok\u0000'));
      for (const [url, valid, token] of validBodies) {
        for (const seed of seeds.all) {
          await fc.assert(fc.asyncProperty(fc.constantFrom(...Object.keys(valid)), junk, async (field, value) => {
            const response = await send({ method: 'POST', url, payload: { ...valid, [field]: value } }, token);
            return response.statusCode === 400;
          }), { numRuns: 60, seed });
        }
      }
      expect(services.received).toEqual([]);
    });

    it('pass the service’s ALREADY_DECIDED and KEY_TAKEN through with their words', async () => {
      services
        .handle(AccessKeysRpc.approveRequest, () => {
          throw new DomainError('ALREADY_DECIDED');
        })
        .handle(AccessKeysRpc.createKey, () => {
          throw new DomainError('KEY_TAKEN');
        });
      const again = await send({ method: 'POST', url: `/api/access/requests/${REQUEST_ID}/approve`, payload: {} }, ownerToken);
      expect([again.statusCode, again.json()]).toEqual([409, { code: 'ALREADY_DECIDED', message: AccessMessages.alreadyDecided }]);
      const taken = await send({ method: 'POST', url: '/api/access/keys', payload: { access_key: ACCESS_KEY, draft: DRAFT, name: 'Sam', email: 'sam@example.com' } }, ownerToken);
      expect([taken.statusCode, taken.json()]).toEqual([409, { code: 'KEY_TAKEN', message: ErrorCodes.KEY_TAKEN.message }]);
    });

    it('If I’m Not There: forwards the owner’s token and the checked bodies; refuses bad ones with the page’s words, forwarding nothing', async () => {
      const contact = {
        id: REQUEST_ID, name: 'Grace', label: 'My Sibling', email: 'grace@example.com', phone: null, has_access_key: false, access_key_expires_at: null, access_key_email: null, created_at: AT,
      };
      const settings = {
        delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: true, trustee_name: '', trustee_email: '', final_thoughts: '', updated_at: null,
      };
      services
        .handle(AccessKeysRpc.listContacts, () => [contact])
        .handle(AccessKeysRpc.addContact, () => contact)
        .handle(AccessKeysRpc.removeContact, ({ payload }) => ({ id: payload.id, removed: true }))
        .handle(AccessKeysRpc.setContactKey, () => ({ contact: { ...contact, has_access_key: true }, access_key: ACCESS_KEY }))
        .handle(AccessKeysRpc.deliverySettings, () => settings)
        .handle(AccessKeysRpc.saveDeliverySettings, ({ payload }) => ({ ...payload, updated_at: AT }));
      expect((await send({ method: 'GET', url: '/api/if-im-not-there/contacts' }, ownerToken)).json()).toEqual([contact]);
      const added = await send({ method: 'POST', url: '/api/if-im-not-there/contacts', payload: { id: REQUEST_ID, name: ' Grace ', label: 'My Sibling', email: 'Grace@Example.com', phone: '' } }, ownerToken);
      expect(added.statusCode).toBe(201);
      expect(services.callsTo(AccessKeysRpc.addContact)[0]!.payload).toEqual({ id: REQUEST_ID, name: 'Grace', label: 'My Sibling', email: 'grace@example.com', phone: null });
      const refused = await send({ method: 'POST', url: '/api/if-im-not-there/contacts', payload: { id: REQUEST_ID, name: 'Grace', label: 'My Sibling', email: ' ' } }, ownerToken);
      expect([refused.statusCode, refused.json<{ message: string }>().message]).toEqual([400, 'Please provide name and email.']);
      expect(services.callsTo(AccessKeysRpc.addContact)).toHaveLength(1);

      const on = await send({ method: 'PUT', url: `/api/if-im-not-there/contacts/${REQUEST_ID.toUpperCase()}/access-key`, payload: { enabled: true } }, ownerToken);
      expect(on.json()).toMatchObject({ access_key: ACCESS_KEY });
      expect(services.callsTo(AccessKeysRpc.setContactKey)[0]!.payload).toEqual({ id: REQUEST_ID, enabled: true });
      expect((await send({ method: 'PUT', url: `/api/if-im-not-there/contacts/${REQUEST_ID}/access-key`, payload: { enabled: 'yes' } }, ownerToken)).statusCode).toBe(400);
      expect((await send({ method: 'PUT', url: '/api/if-im-not-there/contacts/not-an-id/access-key', payload: { enabled: true } }, ownerToken)).statusCode).toBe(404);
      expect((await send({ method: 'DELETE', url: `/api/if-im-not-there/contacts/${REQUEST_ID}` }, ownerToken)).json()).toEqual({ id: REQUEST_ID, removed: true });

      expect((await send({ method: 'GET', url: '/api/if-im-not-there/delivery-settings' }, ownerToken)).json()).toEqual(settings);
      const { updated_at: _none, ...body } = settings;
      const saved = await send({ method: 'PUT', url: '/api/if-im-not-there/delivery-settings', payload: { ...body, trustee_email: ' Ruth@Example.com ' } }, ownerToken);
      expect(saved.json()).toMatchObject({ trustee_email: 'ruth@example.com', updated_at: AT });
      expect((await send({ method: 'PUT', url: '/api/if-im-not-there/delivery-settings', payload: { ...body, delivery_timing: 'whenever' } }, ownerToken)).statusCode).toBe(400);
      expect(services.callsTo(AccessKeysRpc.saveDeliverySettings)).toHaveLength(1);
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(ownerToken);
    });
  });

  describe('the inactivity watch and its check-in link', () => {
    const CHECK_IN_LINK = { w: REQUEST_ID, u: OWNER_ID, exp: '1900000000', sig: 'c2lnbmF0dXJlLW9mLXRoZS1saW5r' };
    const watchOf = (period_days: number | null, paused = false) => ({
      period_days, paused, last_seen_at: AT, warnings_at: period_days && !paused ? [AT, AT] : [], lapse_at: period_days && !paused ? AT : null, lapsed_at: null,
    });

    it('shows, saves, pauses and resumes the owner’s watch with the owner’s token; a period not offered is refused here', async () => {
      services
        .handle(AccessKeysRpc.inactivity, () => watchOf(null))
        .handle(AccessKeysRpc.saveInactivity, ({ payload }) => watchOf(payload.period_days))
        .handle(AccessKeysRpc.pauseInactivity, () => watchOf(90, true))
        .handle(AccessKeysRpc.resumeInactivity, () => watchOf(90))
        .handle(AccessKeysRpc.testInactivityWarning, () => watchOf(90));
      expect((await send({ method: 'GET', url: '/api/if-im-not-there/inactivity' }, ownerToken)).json()).toEqual(watchOf(null));
      expect((await send({ method: 'PUT', url: '/api/if-im-not-there/inactivity', payload: { period_days: 90 } }, ownerToken)).json()).toEqual(watchOf(90));
      for (const period_days of [45, '90', 0, undefined]) {
        const refused = await send({ method: 'PUT', url: '/api/if-im-not-there/inactivity', payload: { period_days } }, ownerToken);
        expect({ period_days, status: refused.statusCode }).toEqual({ period_days, status: 400 });
      }
      expect(services.callsTo(AccessKeysRpc.saveInactivity).map((c) => c.payload)).toEqual([{ period_days: 90 }]);
      expect((await send({ method: 'POST', url: '/api/if-im-not-there/inactivity/pause' }, ownerToken)).json()).toMatchObject({ paused: true });
      expect((await send({ method: 'POST', url: '/api/if-im-not-there/inactivity/resume' }, ownerToken)).json()).toMatchObject({ paused: false });
      expect((await send({ method: 'POST', url: '/api/if-im-not-there/inactivity/test-warning' }, ownerToken)).statusCode).toBe(200);
      expect(services.callsTo(AccessKeysRpc.testInactivityWarning)).toHaveLength(1);
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(ownerToken);
    });

    it('the check-in link is public: anyone may present it, no token is forwarded, and a malformed one is refused like a forged one without forwarding it', async () => {
      services.handle(AccessKeysRpc.checkInByLink, () => ({ checked_in_at: AT, delivery_cancelled: false }));
      for (const token of [undefined, ownerToken, viewers.issue(OWNER_ID).token]) {
        const response = await send({ method: 'POST', url: '/api/if-im-not-there/check-in', payload: CHECK_IN_LINK }, token);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ checked_in_at: AT, delivery_cancelled: false });
      }
      expect(services.callsTo(AccessKeysRpc.checkInByLink).map((c) => [c.payload, c.auth.accessToken])).toEqual(Array.from({ length: 3 }, () => [CHECK_IN_LINK, undefined]));
      services.received.length = 0;
      for (const payload of [{}, { ...CHECK_IN_LINK, w: 'not-a-warning' }, { ...CHECK_IN_LINK, exp: 'soon' }, { ...CHECK_IN_LINK, sig: 'x'.repeat(101) }, [CHECK_IN_LINK]]) {
        const refused = await send({ method: 'POST', url: '/api/if-im-not-there/check-in', payload });
        expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([400, 'CHECK_IN_LINK_INVALID']);
      }
      expect(services.received).toEqual([]);
    });

    it('a forged, expired or used link: the service’s refusal, in its words', async () => {
      services.handle(AccessKeysRpc.checkInByLink, () => {
        throw new DomainError('CHECK_IN_LINK_INVALID');
      });
      const response = await send({ method: 'POST', url: '/api/if-im-not-there/check-in', payload: CHECK_IN_LINK });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'CHECK_IN_LINK_INVALID', message: ErrorCodes.CHECK_IN_LINK_INVALID.message });
    });
  });

  describe('trustees and their page', () => {
    const LINK = { t: REQUEST_ID, n: 'a-secret-of-the-link-0123', u: OWNER_ID, exp: '1900000000', sig: 'c2lnbmF0dXJlLW9mLXRoZS1saW5r' };
    const trustee = { id: REQUEST_ID, name: 'Ann', email: 'ann@example.com', relationship: 'My Sibling', status: 'invited', invitedAt: AT, invitationExpiresAt: AT, answeredAt: null, removedAt: null };

    it('lists, adds, re-invites and removes the owner’s trustees with the owner’s token; a bad body is refused here', async () => {
      services
        .handle(AccessKeysRpc.listTrustees, () => [trustee])
        .handle(AccessKeysRpc.addTrustee, () => trustee)
        .handle(AccessKeysRpc.resendTrusteeInvitation, () => trustee)
        .handle(AccessKeysRpc.removeTrustee, () => ({ ...trustee, status: 'removed', removedAt: AT }));
      expect((await send({ method: 'GET', url: '/api/if-im-not-there/trustees' }, ownerToken)).json()).toEqual([trustee]);
      const added = await send({ method: 'POST', url: '/api/if-im-not-there/trustees', payload: { id: REQUEST_ID, name: 'Ann', email: 'Ann@Example.com', relationship: 'My Sibling' } }, ownerToken);
      expect(added.statusCode).toBe(201);
      expect(services.callsTo(AccessKeysRpc.addTrustee).map((c) => c.payload)).toEqual([{ id: REQUEST_ID, name: 'Ann', email: 'ann@example.com', relationship: 'My Sibling' }]);
      for (const payload of [{ id: REQUEST_ID, name: '', email: 'ann@example.com', relationship: 'My Sibling' }, { id: REQUEST_ID, name: 'Ann', email: 'not-an-email', relationship: 'My Sibling' }]) {
        expect((await send({ method: 'POST', url: '/api/if-im-not-there/trustees', payload }, ownerToken)).statusCode).toBe(400);
      }
      expect((await send({ method: 'POST', url: `/api/if-im-not-there/trustees/${REQUEST_ID}/invitation` }, ownerToken)).statusCode).toBe(200);
      expect((await send({ method: 'DELETE', url: `/api/if-im-not-there/trustees/${REQUEST_ID}` }, ownerToken)).json()).toMatchObject({ status: 'removed' });
      expect((await send({ method: 'DELETE', url: '/api/if-im-not-there/trustees/not-an-id' }, ownerToken)).statusCode).toBe(404);
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(ownerToken);
    });

    it('the trustee’s page is public: no token is forwarded, and a malformed link is refused like a forged one without forwarding it', async () => {
      const view = { ownerName: 'Sam Taylor', trusteeName: 'Ann', relationship: 'My Sibling', status: 'invited', report: null, blockedUntil: null };
      services.handle(AccessKeysRpc.trusteeView, () => view).handle(AccessKeysRpc.answerTrustee, () => ({ ...view, status: 'accepted' }));
      for (const token of [undefined, ownerToken, viewers.issue(OWNER_ID).token]) {
        const response = await send({ method: 'POST', url: '/api/trustee/view', payload: LINK }, token);
        expect([response.statusCode, response.json()]).toEqual([200, view]);
      }
      expect((await send({ method: 'POST', url: '/api/trustee/answer', payload: { ...LINK, answer: 'accept' } })).json()).toMatchObject({ status: 'accepted' });
      expect(services.received.map((r) => r.request.auth.accessToken)).toEqual([undefined, undefined, undefined, undefined]);
      services.received.length = 0;
      for (const payload of [{}, { ...LINK, t: 'not-a-trustee' }, { ...LINK, n: 'short' }, { ...LINK, exp: 'soon' }, [LINK]]) {
        for (const url of ['/api/trustee/view', '/api/trustee/answer']) {
          const refused = await send({ method: 'POST', url, payload: url.endsWith('answer') && !Array.isArray(payload) ? { ...payload, answer: 'accept' } : payload });
          expect([url, refused.statusCode, refused.json<{ code: string }>().code]).toEqual([url, 400, 'TRUSTEE_LINK_INVALID']);
        }
      }
      expect((await send({ method: 'POST', url: '/api/trustee/answer', payload: { ...LINK, answer: 'maybe' } })).json<{ code: string }>().code).toBe('TRUSTEE_LINK_INVALID');
      // A report: a malformed link is a bad link; a bad kind or a long note gets its own words.
      expect((await send({ method: 'POST', url: '/api/trustee/report', payload: { ...LINK, n: 'short', kind: 'died' } })).json<{ code: string }>().code).toBe('TRUSTEE_LINK_INVALID');
      const badKind = await send({ method: 'POST', url: '/api/trustee/report', payload: { ...LINK, kind: 'missing' } });
      expect([badKind.statusCode, badKind.json<{ message: string }>().message]).toEqual([400, TrusteeMessages.reportInvalid]);
      const longNote = await send({ method: 'POST', url: '/api/trustee/report', payload: { ...LINK, kind: 'died', note: 'x'.repeat(1001) } });
      expect([longNote.statusCode, longNote.json<{ message: string }>().message]).toEqual([400, TrusteeMessages.noteTooLong]);
      expect(services.received).toEqual([]);
      services.handle(AccessKeysRpc.reportOwner, () => ({ ...view, status: 'accepted' }));
      expect((await send({ method: 'POST', url: '/api/trustee/report', payload: { ...LINK, kind: 'died' } })).statusCode).toBe(200);
      expect(services.callsTo(AccessKeysRpc.reportOwner).map((c) => c.payload)).toEqual([{ ...LINK, kind: 'died', note: '' }]);
      expect(services.received.map((r) => r.request.auth.accessToken)).toEqual([undefined]);
    });

    it('"send me my trustee link" is public and answers as the service does; a malformed address is refused here', async () => {
      services.handle(AccessKeysRpc.requestTrusteeLink, () => ({ message: TrusteeMessages.linkRequested }));
      const response = await send({ method: 'POST', url: '/api/trustee/link', payload: { email: 'Ann@Example.com' } });
      expect([response.statusCode, response.json()]).toEqual([200, { message: TrusteeMessages.linkRequested }]);
      expect(services.callsTo(AccessKeysRpc.requestTrusteeLink).map((c) => c.payload)).toEqual([{ email: 'ann@example.com' }]);
      const refused = await send({ method: 'POST', url: '/api/trustee/link', payload: { email: 'nope' } });
      expect([refused.statusCode, refused.json<{ message: string }>().message]).toEqual([400, TrusteeMessages.emailInvalid]);
    });
  });

  describe('the viewer’s entries', () => {
    it('records the view, then reads each section with the viewer’s own token: headline fields only, newest first', async () => {
      const viewer = viewers.issue(OWNER_ID);
      const timeline = await send({ method: 'GET', url: '/api/view/entries/timeline' }, viewer.token);
      expect(timeline.statusCode).toBe(200);
      expect(timeline.json()).toEqual([
        { id: 'a0000000-0000-4000-8000-000000000002', created_at: '2026-03-04T00:00:00.000Z', headline: 'Birthday', kind: 'letter', media: null },
        { id: 'a0000000-0000-4000-8000-000000000001', created_at: '2026-01-02T00:00:00.000Z', headline: 'First steps', kind: 'letter', media: null },
      ]);

      const letters = await send({ method: 'GET', url: '/api/view/entries/letters' }, viewer.token);
      expect(letters.json<{ headline: string }[]>().map((e) => e.headline)).toEqual(['Newest letter', 'Middle letter', 'Oldest letter']);
      expect(services.callsTo(LettersRpc.list).map((c) => c.payload)).toEqual([{ limit: 200 }, { limit: 200, cursor: 'page-2' }]);
      expect(letters.body).not.toContain('The words of a letter');

      const court = await send({ method: 'GET', url: '/api/view/entries/court-journal' }, viewer.token);
      expect(court.json()).toEqual([{ id: 'c0000000-0000-4000-8000-000000000001', created_at: '2026-02-01T00:00:00.000Z', headline: 'order.pdf', kind: 'document' }]);
      expect(court.body).not.toMatch(/Secret title|Private description|owner\//);

      const whoIAm = await send({ method: 'GET', url: '/api/view/entries/who-i-am' }, viewer.token);
      expect(whoIAm.json<{ headline: string }[]>().map((e) => e.headline)).toEqual(['About Me', 'Core Values', 'Profile photo']);

      const final = await send({ method: 'GET', url: '/api/view/entries/if-im-not-there' }, viewer.token);
      // The final thoughts (access-keys) and the final messages' titles (vault-media), newest first.
      expect(final.json()).toEqual([
        { id: 'd0000000-0000-4000-8000-000000000001', created_at: '2026-11-25T12:00:00.000Z', headline: 'For when you are grown', kind: 'final-message' },
        { id: `${OWNER_ID}:final-thoughts`, created_at: '2026-11-25T11:00:00.000Z', headline: 'Final Thoughts', kind: 'final-thoughts' },
      ]);

      expect(services.callsTo(AccessKeysRpc.recordView).map((c) => c.payload.section)).toEqual(['timeline', 'letters', 'court-journal', 'who-i-am', 'if-im-not-there']);
      // Each read came after its section's view was recorded, and everything travelled with the viewer's token.
      const order = services.received.map((r) => (r.subject === AccessKeysRpc.recordView.subject ? `record:${r.request.payload.section}` : r.subject));
      // The last two sections' reads go out in pairs: their order within a pair is not fixed.
      const pairsSorted = [...order.slice(0, -6), order[order.length - 6], ...order.slice(-5, -3).sort(), order[order.length - 3], ...order.slice(-2).sort()];
      expect(pairsSorted).toEqual([
        'record:timeline', TimelineRpc.list.subject,
        'record:letters', LettersRpc.list.subject, LettersRpc.list.subject,
        'record:court-journal', CourtJournalRpc.list.subject,
        'record:who-i-am', ...[LettersRpc.portraitSections.subject, VaultMediaRpc.portraitMediaTitles.subject].sort(),
        'record:if-im-not-there', ...[AccessKeysRpc.finalEntries.subject, VaultMediaRpc.finalMessageTitles.subject].sort(),
      ]);
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(viewer.token);
    });

    it('shows a key of the timeline alone its recordings only: no letter, no court document, even when the timeline answers them', async () => {
      const recording: TimelineEntry = {
        ...timelineEntry('a0000000-0000-4000-8000-000000000003', 'Bath time', '2026-04-01T00:00:00.000Z'), source: 'vault-media', type: 'video', entry_type: 'media', poster: true, duration_seconds: 65,
      };
      const document: TimelineEntry = {
        ...timelineEntry('c0000000-0000-4000-8000-000000000002', 'Secret title of the hearing', '2026-04-02T00:00:00.000Z'), source: 'court-journal', type: 'document', entry_type: 'media',
      };
      // A timeline that answers every source (as if it checked nothing): the gateway still leaves out what the key does not open.
      services.handle(TimelineRpc.list, () => ({ entries: [document, recording, timelineEntry('a0000000-0000-4000-8000-000000000001', 'First steps', '2026-01-02T00:00:00.000Z')], nextCursor: null }));
      const bySections = async (scopes: ViewSection[]) => {
        const response = await send({ method: 'GET', url: '/api/view/entries/timeline' }, viewers.issue(OWNER_ID, scopes).token);
        expect(response.statusCode).toBe(200);
        return response.json<{ id: string; headline: string; kind: string }[]>().map((e) => `${e.kind} ${e.headline}`);
      };
      const timelineOnly = await send({ method: 'GET', url: '/api/view/entries/timeline' }, viewers.issue(OWNER_ID, ['timeline', 'who-i-am', 'if-im-not-there']).token);
      expect(timelineOnly.json()).toEqual([{ id: recording.id, created_at: recording.created_at, headline: 'Bath time', kind: 'recording', media: 'video', poster: true, duration_seconds: 65 }]);
      expect(timelineOnly.body).not.toMatch(/Secret title|First steps/);
      expect(await bySections(['timeline', 'letters'])).toEqual(['recording Bath time', 'letter First steps']);
      expect(await bySections(['timeline', 'court-journal'])).toEqual(['document Secret title of the hearing', 'recording Bath time']);
    });

    it('opens a milestone key’s one letter whole, after recording the view, with the viewer’s token; any other key has none', async () => {
      const LETTER_ID = 'e0000000-0000-4000-8000-000000000001';
      services.handle(LettersRpc.get, ({ payload }) => ({
        id: payload.id, title: 'For Ellie at 18', content: 'Happy birthday, my girl.', preview: 'Happy birthday, my girl.', word_count: 4, created_at: AT, updated_at: AT, version: 3, milestone: null,
      }));
      const ordinary = await send({ method: 'GET', url: '/api/view/letter' }, viewers.issue(OWNER_ID, ['letters']).token);
      expect(ordinary.statusCode).toBe(404);
      expect(services.received).toEqual([]);

      const recipient = viewers.issue(OWNER_ID, ['letters'], undefined, LETTER_ID);
      const opened = await send({ method: 'GET', url: '/api/view/letter' }, recipient.token);
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toMatchObject({ id: LETTER_ID, title: 'For Ellie at 18', content: 'Happy birthday, my girl.' });
      expect(services.received.map((r) => r.subject)).toEqual([AccessKeysRpc.recordView.subject, LettersRpc.get.subject]);
      expect(services.callsTo(LettersRpc.get)[0]!.payload).toEqual({ id: LETTER_ID });
      for (const { request } of services.received) expect(request.auth.accessToken).toBe(recipient.token);
      // A key limited to a letter but without the letters section reads nothing.
      const noSection = await send({ method: 'GET', url: '/api/view/letter' }, viewers.issue(OWNER_ID, ['timeline'], undefined, LETTER_ID).token);
      expect(noSection.statusCode).toBe(403);
    });

    it('answers an unknown section 404 and a section not shared 403, recording and reading nothing', async () => {
      const viewer = viewers.issue(OWNER_ID, ['letters']);
      const unknown = await send({ method: 'GET', url: '/api/view/entries/diary' }, viewer.token);
      expect(unknown.statusCode).toBe(404);
      for (const section of ['timeline', 'court-journal', 'who-i-am', 'if-im-not-there']) {
        const refused = await send({ method: 'GET', url: `/api/view/entries/${section}` }, viewer.token);
        expect({ section, status: refused.statusCode, body: refused.json() }).toEqual({ section, status: 403, body: { code: 'FORBIDDEN', message: AccessMessages.sectionNotShared } });
      }
      expect(services.received).toEqual([]);
      expect((await send({ method: 'GET', url: '/api/view/entries/letters' }, viewer.token)).statusCode).toBe(200);
    });

    it('never shows data without recording the view: a failing or silent access-keys is a 503 and nothing is read', async () => {
      const viewer = viewers.issue(OWNER_ID);
      services.handle(AccessKeysRpc.recordView, () => {
        throw new DomainError('INTERNAL');
      });
      const failed = await send({ method: 'GET', url: '/api/view/entries/letters' }, viewer.token);
      expect([failed.statusCode, failed.json<{ code: string }>().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);

      services.hang(AccessKeysRpc.recordView);
      const silent = await send({ method: 'GET', url: '/api/view/entries/court-journal' }, viewer.token);
      expect([silent.statusCode, silent.json<{ code: string }>().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);

      expect(services.callsTo(AccessKeysRpc.recordView)).toHaveLength(2);
      expect(readCalls()).toEqual([]);
    });

    it('passes on a session that ended meanwhile as the viewer’s refusal, reading nothing', async () => {
      services.handle(AccessKeysRpc.recordView, () => {
        throw new DomainError('VIEW_SESSION_ENDED');
      });
      const ended = await send({ method: 'GET', url: '/api/view/entries/timeline' }, viewers.issue(OWNER_ID).token);
      expect([ended.statusCode, ended.json()]).toEqual([401, { code: 'VIEW_SESSION_ENDED', message: AccessMessages.viewExpired }]);
      expect(readCalls()).toEqual([]);
    });

    it('fails with 503 when a section’s service is down after the view was recorded', async () => {
      services.handle(LettersRpc.list, () => {
        throw new Error('letters crashed');
      });
      const response = await send({ method: 'GET', url: '/api/view/entries/letters' }, viewers.issue(OWNER_ID).token);
      expect(response.statusCode).toBe(503);
    });
  });
});
