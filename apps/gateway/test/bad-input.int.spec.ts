// Bad input never becomes a server error (issue 9). The gateway booted in-process in front of the REAL
// identity, letters, vault-media, timeline, court-journal, access-keys and billing (child processes built from this checkout's sources) on
// the machine's PostgreSQL (a fresh database per service), NATS JetStream and Redis, and the embedded
// S3 server. Nothing stands in for a service, so a payload a service or the database cannot take shows
// up here as the 5xx it would be in production.
//
// Two parts: the five write endpoints that used to answer 500 to U+0000 or a lone surrogate, and a
// bad-input suite generated from apps/gateway/openapi.json with fast-check: for every operation, 200
// malformed requests (wrong types, missing and extra fields, 100 KB strings, control characters,
// invalid ids in paths, wrong content types, empty and non-JSON bodies, deep nesting), anonymous and
// signed in. None may answer 5xx; none that the operation reads may be accepted (2xx). The exceptions
// are listed in MAY_ACCEPT below, each with its reason.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { LETTERS_PAGE_MAX, TIMELINE_PAGE_MAX, TextMessages, type AccessTokenClaims } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { compileForChildProcess, createTestDatabase, freePort, generateTestKeys, propertySeeds, repoRoot, startChild, uniqueStackId, type ChildService, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { bridgeEsmOnlyDependencies } from './support/esm-bridge.js';

// Every body route gets 200 runs: with the plans, settings, community and milestone routes the whole fuzz
// takes about 4 minutes on two loaded cores.
jest.setTimeout(600_000);

// Subjects are fixed when the gateway's modules load: choose this spec's stack first.
const stackId = uniqueStackId('gwbadinput');
process.env.STACK_ID = stackId;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUNS_PER_OPERATION = 200;
/** Half the requests from the fixed seed, half from this run's (both printed; PROPERTY_SEED=<seed> replays a run). */
const SEEDS = propertySeeds('bad-input.int.spec');
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);

// ---- the OpenAPI document, read as data ----------------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  $ref?: string;
}
interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: Record<string, string[]>[];
}
interface OpenApiDocument { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, JsonSchema> } }

interface Operation {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: JsonSchema;
  /** Takes a raw byte stream (a recording, a court document), not JSON: the content types it takes. */
  streamed: readonly string[] | null;
  bearer: boolean;
  refreshCookie: boolean;
}

/** The byte-stream uploads, with content types they take and (as "wrong" ones) types they refuse. */
const STREAMED: Record<string, readonly string[]> = {
  '/api/media/uploads/{id}': ['video/webm', 'audio/webm'],
  '/api/court/uploads/{id}': ['application/pdf', 'image/png', 'text/plain'],
};
const WRONG_STREAM_TYPES: Record<string, readonly string[]> = {
  '/api/media/uploads/{id}': ['application/json', 'text/plain', 'image/png', 'application/x-www-form-urlencoded', 'video/mp4'],
  '/api/court/uploads/{id}': ['application/json', 'video/webm', 'text/html', 'application/x-www-form-urlencoded', 'video/mp4'],
};

function operationsOf(doc: OpenApiDocument): Operation[] {
  const resolve = (schema: JsonSchema): JsonSchema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const json = op.requestBody?.content['application/json'];
      const params = op.parameters ?? [];
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        body: json ? resolve(json.schema) : undefined,
        streamed: method === 'put' ? STREAMED[path] ?? null : null,
        bearer: schemes.includes('bearer'),
        refreshCookie: schemes.includes('refresh-cookie'),
      });
    }
  }
  return operations;
}


/** JSON types a property accepts, from its schema (zod's nullable is `nullable` or an anyOf with null). */
function acceptedTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (s: JsonSchema) => {
    for (const t of [s.type ?? []].flat()) types.add(t === 'integer' ? 'number' : t);
    if (s.nullable) types.add('null');
    for (const alt of s.anyOf ?? []) add(alt);
  };
  add(schema);
  return types;
}

// ---- what a valid request of each operation looks like ------------------------------------------

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url');
/** A WebAuthn answer's shape (navigator.credentials.get()/create() as JSON) with random bytes. */
const fakeAssertion = () => {
  const id = b64(16);
  return { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: b64(120), authenticatorData: b64(37), signature: b64(70), userHandle: b64(36) } };
};
const fakeRegistration = () => {
  const id = b64(16);
  return { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: b64(120), attestationObject: b64(200), transports: ['internal'] } };
};

interface Fixture { letterId: string; email: string; password: string; userId: string }
/**
 * A valid body per JSON operation, which the generator then breaks. A new JSON operation without one
 * fails the spec, so it cannot escape the suite.
 */
const VALID_BODIES: Record<string, (f: Fixture) => Record<string, unknown>> = {
  'POST /api/auth/sign-up': () => ({ email: `fuzz-${randomUUID()}@example.com`, password: 'a new password' }),
  'POST /api/auth/sign-in': (f) => ({ email: f.email, password: f.password }),
  'POST /api/auth/forgot-password': (f) => ({ email: f.email }),
  // A well-formed link whose token is not one identity made: the base the broken variants start from.
  'POST /api/auth/reset-password': (f) => ({ email: f.email, token: `${randomUUID()}.${'A'.repeat(43)}`, newPassword: 'a new password' }),
  'POST /api/auth/confirm-email': () => ({ token: `${randomUUID()}.${'A'.repeat(43)}` }),
  'POST /api/auth/undo-email-change': () => ({ token: `${randomUUID()}.${'A'.repeat(43)}` }),
  'POST /api/auth/not-me': () => ({ token: `${randomUUID()}.${'A'.repeat(43)}` }),
  'POST /api/auth/keep-account': () => ({ token: `${randomUUID()}.${'A'.repeat(43)}` }),
  'POST /api/auth/verify-email': () => ({ token: `${randomUUID()}.${'A'.repeat(43)}` }),
  // A well-formed challenge identity never made, and a code.
  'POST /api/auth/sign-in/two-step': () => ({ challenge: `${randomUUID()}.${'A'.repeat(43)}`, code: '123456' }),
  'POST /api/me/two-step/confirm': () => ({ code: '123456' }),
  // Passkeys: well-formed WebAuthn answers to challenges identity never issued, signed by no passkey it knows.
  'POST /api/auth/passkey': () => ({ challengeId: randomUUID(), credential: fakeAssertion() }),
  'POST /api/auth/sign-in/two-step/passkey/options': () => ({ challenge: `${randomUUID()}.${'A'.repeat(43)}` }),
  'POST /api/auth/sign-in/two-step/passkey': () => ({ challenge: `${randomUUID()}.${'A'.repeat(43)}`, challengeId: randomUUID(), credential: fakeAssertion() }),
  'POST /api/me/passkeys': () => ({ challengeId: randomUUID(), name: 'My laptop', credential: fakeRegistration() }),
  'PATCH /api/me/passkeys/{passkeyId}': () => ({ name: 'Work phone' }),
  'POST /api/me/confirm-identity/passkey': () => ({ challengeId: randomUUID(), credential: fakeAssertion() }),
  'POST /api/me/two-step/disable': (f) => ({ currentPassword: f.password, code: '123456' }),
  'POST /api/me/two-step/recovery-codes': () => ({ code: '123456' }),
  'PATCH /api/me': () => ({ full_name: 'Sam Parent' }),
  'PUT /api/me/email': (f) => ({ email: `fuzz-${randomUUID()}@example.com`, currentPassword: f.password }),
  'PUT /api/me/password': (f) => ({ currentPassword: f.password, newPassword: 'another password' }),
  'POST /api/me/confirm-identity': (f) => ({ currentPassword: f.password }),
  // A word that is not DELETE: the well-formed base is refused by identity, so the fuzz never schedules its account's deletion.
  'POST /api/me/account-deletion': () => ({ confirmation: 'not the word' }),
  'PUT /api/me/notifications': () => ({ emailNotifications: true, accessRequests: true, systemUpdates: false, marketingEmails: true }),
  'PUT /api/vault/reflection': () => ({ text: 'What I think about today.' }),
  'POST /api/if-im-not-there/contacts': () => ({ id: randomUUID(), name: 'Grace Hale', label: 'My Sibling', email: 'grace@example.com', phone: '+44 7700 900123' }),
  'PUT /api/if-im-not-there/contacts/{id}/access-key': () => ({ enabled: true }),
  'PUT /api/if-im-not-there/inactivity': () => ({ period_days: 90 }),
  // A well-formed link whose signature is wrong: the base the broken variants start from.
  'POST /api/if-im-not-there/check-in': () => ({ w: randomUUID(), u: randomUUID(), exp: String(Math.floor(Date.now() / 1000) + 3600), sig: 'not-a-signature' }),
  'POST /api/if-im-not-there/trustees': () => ({ id: randomUUID(), name: 'Ann Lee', email: `ann-${randomUUID()}@example.com`, relationship: 'My Sibling' }),
  // Well-formed trustee links whose signature is wrong: the base the broken variants start from.
  'POST /api/trustee/view': () => ({ t: randomUUID(), n: 'a-secret-of-the-link-0123', u: randomUUID(), exp: String(Math.floor(Date.now() / 1000) + 3600), sig: 'not-a-signature' }),
  'POST /api/trustee/answer': () => ({ t: randomUUID(), n: 'a-secret-of-the-link-0123', u: randomUUID(), exp: String(Math.floor(Date.now() / 1000) + 3600), sig: 'not-a-signature', answer: 'accept' }),
  'POST /api/trustee/report': () => ({ t: randomUUID(), n: 'a-secret-of-the-link-0123', u: randomUUID(), exp: String(Math.floor(Date.now() / 1000) + 3600), sig: 'not-a-signature', kind: 'died', note: 'Passed away on Sunday.' }),
  'POST /api/trustee/link': () => ({ email: `nobody-${randomUUID()}@example.com` }),
  'PUT /api/if-im-not-there/delivery-settings': () => ({
    delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: true, trustee_name: 'Ruth', trustee_email: 'ruth@example.com', final_thoughts: 'Be kind.',
  }),
  'PUT /api/who-i-am': () => ({ about_me: 'A father of two.', personality_traits: ['Kind'], favorite_music: 'Nick Drake', favorite_films: 'Paddington', core_values: ['honesty'] }),
  'POST /api/letters': () => ({ title: 'To Sam', content: 'Hello, Sam.' }),
  'PUT /api/letters/{id}': () => ({ title: 'To Sam', content: 'Hello again, Sam.', expectedVersion: 1 }),
  'PUT /api/letters/{id}/seal': () => ({
    until: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().slice(0, 10), time_zone: 'Europe/London', recipient_name: 'Sam', recipient_email: 'sam@example.com',
  }),
  'POST /api/media/uploads': () => ({ type: 'video', title: 'For your birthday', sha256: 'ab'.repeat(32), size: 20_000 }),
  'PATCH /api/media/recordings/{id}': () => ({ title: 'Beach day, 2019' }),
  'POST /api/court/uploads': () => ({ title: 'Receipts, March', category: 'Support', description: 'Paid by bank transfer.', fileName: 'receipts.pdf', size: 20_000 }),
  'PATCH /api/court/documents/{id}': () => ({ is_key_evidence: true }),
  'POST /api/court/documents/{id}/link': () => ({ disposition: 'inline' }),
  'POST /api/access/requests': (f) => ({ user_id: f.userId, requester_email: 'sam@example.com', relationship: 'Son', message: 'May I read your letters?' }),
  'POST /api/access/requests/{id}/approve': () => ({ override_email: 'sam@example.com' }),
  'PUT /api/access/request-setting': () => ({ open: true }),
  // A well-formed key with a draft that is not the server's: the base the broken variants start from.
  'POST /api/access/keys': () => ({ access_key: randomUUID(), draft: `1.${'A'.repeat(43)}`, name: 'Ellie', email: 'ellie@example.com', expires_in_days: 30 }),
  'POST /api/view/redeem': () => ({ access_key: randomUUID(), consent: { version: 'v1.0', text_hash: 'ab'.repeat(32) } }),
  'POST /api/view/token': () => ({ session: 'A'.repeat(43) }),
  'POST /api/view/key-status': () => ({ access_key: randomUUID() }),
  'POST /api/view/close': () => ({ session: 'A'.repeat(43) }),
  'POST /api/billing/checkout': () => ({ plan: 'pro' }),
  'POST /api/billing/change-plan': () => ({ plan: 'legacy' }),
  'POST /api/admin/faq': () => ({ question: 'Is there a family discount?', answer: 'Not yet.', is_active: true, display_order: 1 }),
  'PUT /api/admin/faq/{id}': () => ({ question: 'Is there a family discount?', answer: 'Not yet.', is_active: false, display_order: 1 }),
  // No delivery waits under a random owner id: the well-formed base is refused (409), its broken variants at the edge.
  'POST /api/admin/delivery-reviews/{id}/reject': () => ({ reason: 'The certificate is not legible.' }),
  'POST /api/community/posts': () => ({ id: randomUUID(), content: 'Day 40. I wrote her a letter instead.', show_name: false }),
  'PUT /api/community/posts/{id}/like': () => ({ liked: true }),
  'POST /api/community/stories': () => ({ id: randomUUID(), story: 'It got better when I started writing.', show_name: false }),
};

/**
 * Operations that read no part a malformed request can break (no body, no path id, no query) may
 * answer 2xx to junk they ignore: an unknown query parameter, a JSON body on a route that takes none,
 * a cookie they do not need. Everything else they are sent (a body that is not JSON) must still be
 * refused, and nothing may be a 5xx.
 */
const MAY_ACCEPT: Record<string, string> = {
  'GET /api/health': 'public status of the stack; it reads nothing from the request',
  'GET /api/me': 'the caller’s own profile; the token is the only input',
  'GET /api/me/notifications': 'the caller’s own notification switches; the token is the only input',
  'GET /api/me/sessions': 'the caller’s own sessions; the token is the only input',
  'GET /api/me/account-deletion': 'whether the caller’s own account is scheduled for deletion; the token is the only input',
  'DELETE /api/me/account-deletion': 'keeps the caller’s own account (a conflict when nothing is scheduled); the token is the only input',
  'POST /api/me/sessions/sign-out-others': 'signs the caller’s other sessions out, idempotent; the token is the only input',
  'GET /api/me/passkeys': 'the caller’s own passkeys; the token is the only input',
  'POST /api/me/passkeys/options': 'a registration ceremony for the caller’s own account (a challenge stored for minutes, nothing else changed); the token is the only input',
  'POST /api/auth/passkey/options': 'a public sign-in ceremony (a challenge stored for minutes, counted per address); it reads nothing from the request',
  'GET /api/me/two-step': 'whether the caller’s own two-step sign-in is on; the token is the only input',
  'POST /api/me/two-step/setup': 'a new secret for the caller’s own set-up (replacing one not confirmed, changing nothing else); the token is the only input',
  'POST /api/me/verify-email/resend': 'a new verification link to the caller’s own address (or "verified already"); the token is the only input',
  'GET /api/if-im-not-there/inactivity': 'the caller’s own inactivity watch; the token is the only input',
  'POST /api/me/export/session': 'sets the caller’s own export cookie; the token is the only input',
  'GET /api/me/export': 'the caller’s own vault as a ZIP; the token (header or export cookie) is the only input',
  'GET /api/vault/stats': 'the caller’s own counts; the token is the only input',
  'GET /api/vault/reflection': 'the caller’s own reflection; the token is the only input',
  'GET /api/who-i-am': 'the caller’s own portrait; the token is the only input',
  'GET /api/if-im-not-there/contacts': 'the caller’s own contacts; the token is the only input',
  'GET /api/if-im-not-there/delivery-settings': 'the caller’s own delivery settings; the token is the only input',
  'GET /api/if-im-not-there/trustees': 'the caller’s own trustees; the token is the only input',
  'GET /api/if-im-not-there/delivery': 'the caller’s own delivery; the token is the only input',
  'GET /api/if-im-not-there/trustee-report': 'the caller’s own open trustee report; the token is the only input',
  'POST /api/if-im-not-there/trustee-report/veto': 'vetoes the caller’s own open trustee report; the token is the only input',
  'POST /api/if-im-not-there/delivery/checks': 'reads the caller’s own delivery pipeline and writes nothing; the token is the only input',
  'POST /api/if-im-not-there/delivery/cancel': 'cancels the caller’s own delivery, idempotent; the token is the only input',
  'POST /api/if-im-not-there/inactivity/pause': 'pauses the caller’s own inactivity watch; the token is the only input',
  'POST /api/if-im-not-there/inactivity/resume': 'resumes the caller’s own inactivity watch, idempotent; the token is the only input',
  'POST /api/if-im-not-there/inactivity/test-warning': 'sends the caller a test warning (rate-limited); the token is the only input',
  'POST /api/billing/cancel': 'cancels the caller’s own subscription at the period end; the token is the only input',
  'POST /api/access/keys/draft': 'makes a key for the caller and stores nothing; the token is the only input',
  'GET /api/view/session': 'the caller’s own viewer session; the token is the only input',
  'GET /api/view/letter': 'the one letter the caller’s milestone key opens; the token is the only input',
  'GET /api/view/who-i-am': 'the Who I Am words of the vault the caller’s key opens; the token is the only input',
  'GET /api/view/if-im-not-there': 'the final words of the vault the caller’s key opens; the token is the only input',
  'POST /api/auth/session': 'the page’s session check: a junk or missing refresh cookie is answered { session: null } (and cleared), never with a session',
  'POST /api/auth/sign-out': 'signing out is idempotent: with a junk or missing refresh cookie there is nothing to revoke, and the answer clears the cookie',
  'DELETE /api/admin/queue-session': 'leaving the queue dashboard only clears its cookie, for anyone',
  'GET /api/admin/storage': 'storage per day, for admins only (the fuzz account is refused); the token is the only input',
  'GET /api/admin/backups': 'the scheduled backup’s record, for admins only (the fuzz account is refused); the token is the only input',
  'GET /api/admin/delivery-reviews': 'the deliveries waiting for legal verification, for admins; the token is the only input',
  'GET /api/court/evidence/head': 'the caller’s own signed chain head; the token is the only input',
  'GET /api/court/evidence/entries': 'the caller’s own evidence chain; the token is the only input',
  'POST /api/court/evidence/bundle-link': 'a link to the caller’s own bundle; the token is the only input',
  'GET /api/court/evidence/keys': 'the published evidence keys, for anyone; it reads nothing from the request',
  'GET /api/access/consent': 'the viewer disclaimer, for anyone; it reads nothing from the request',
  'GET /api/access/keys': 'the caller’s own keys; the token is the only input',
  'GET /api/access/request-setting': 'the caller’s own request link switch; the token is the only input',
  'GET /api/access/sessions': 'the caller’s own view sessions; the token is the only input',
  'GET /api/billing/subscription': 'the caller’s own subscription; the token is the only input',
  'GET /api/faq': 'the active FAQ entries, for anyone; it reads nothing from the request',
  'GET /api/community/music': 'the Parent Circle playlist for the caller’s plan; the token is the only input',
  'GET /api/community/posts': 'the Parent Circle discussion as the caller sees it; the token is the only input',
  'GET /api/community/stories': 'the stories kept for moderation, for admins; the token is the only input',
  'GET /api/metrics': 'the gateway’s metrics, for admins only; the token is the only input',
  'GET /api/admin/faq': 'every FAQ entry, for admins; the token is the only input',
};

/** The operations only admins pass: the fuzz sends them an admin's token. */
const ADMIN_OPERATION = /^[A-Z]+ \/api\/(admin\/|metrics$|community\/stories$)/;

// ---- the generator -------------------------------------------------------------------------------

interface BadRequest {
  operation: string;
  kind: string;
  /** False only for junk an operation of MAY_ACCEPT ignores. */
  mustRefuse: boolean;
  signedIn: boolean;
  inject: InjectOptions;
}

/** encodeURIComponent, except that a lone surrogate (which it cannot encode) becomes the bytes of one: invalid UTF-8. */
const encodePart = (text: string) => text.split(/(\p{Cs})/u).map((part) => (/\p{Cs}/u.test(part) ? '%ED%A0%80' : encodeURIComponent(part))).join('');

const HUGE = 102_400; // 100 KB, longer than any text field allows (a letter holds 100 000 characters)
const nonWhitespace = fc.constantFrom('x', 'é', '字', '😀', '0');
const hugeString = nonWhitespace.map((c) => c.repeat(Math.ceil(HUGE / c.length)));
const brokenChar = fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDE00\uD83D');
const withBrokenChar = (text: string) => fc.tuple(brokenChar, fc.nat({ max: text.length })).map(([c, at]) => text.slice(0, at) + c + text.slice(at));
const junkValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), hugeString, fc.string().chain(withBrokenChar));
const extraFields = fc.dictionary(
  fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom('id', 'owner_id', 'ownerId', 'user_id', 'subscription_tier', 'ai_admin', 'email', 'version', '__proto__', 'constructor')),
  junkValue,
  { minKeys: 1, maxKeys: 4 },
);
/** A value of a JSON type the property does not accept. */
const wrongTypeFor = (schema: JsonSchema) => {
  const accepted = acceptedTypes(schema);
  const candidates: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.string({ maxLength: 30 })],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })],
  ];
  return fc.oneof(...candidates.filter(([type]) => !accepted.has(type)).map(([, arb]) => arb));
};
const badId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 60 }),
  fc.constantFrom('0', 'null', 'undefined', '%00', '%ED%A0%80', '%', '%ZZ', '1; DROP TABLE letters', "' OR '1'='1", '00000000-0000-0000-0000-00000000000g', '{id}', '-1', 'NaN'),
  fc.uuid().map((id) => `${id}x`),
  fc.uuid().map((id) => id.replaceAll('-', '')),
  fc.uuid().chain((id) => withBrokenChar(id)),
  fc.integer({ min: 65, max: 9_000 }).map((n) => 'a'.repeat(n)),
).filter((id) => id !== '.' && id !== '..' && !/^\.\.?\//.test(id));
/** A value some operation's `limit` takes (queryInteger: up to 9 digits, 1 to its page maximum): never "bad". */
const LARGEST_PAGE = Math.max(100, LETTERS_PAGE_MAX, TIMELINE_PAGE_MAX);
const isValidLimit = (value: string) => /^\d{1,9}$/.test(value) && Number(value) >= 1 && Number(value) <= LARGEST_PAGE;
const badQueryValue = fc.oneof(
  fc.constantFrom('abc', '-1', '0', '1.5', '1e400', '1e1', '99999999999999999999', '', ' ', ' 7', '0x10', 'Infinity', '[]', '{}', 'true', 'null'),
  // A random string can be a valid limit ("7" once failed CI as "accepted"): those are left out.
  fc.string({ maxLength: 40 }).filter((value) => !isValidLimit(value)),
  fc.string().chain(withBrokenChar),
  fc.constant('x'.repeat(HUGE)),
);
const contentTypes = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream', 'video/webm', 'text/html; charset=utf-8');
const nonJsonBodies = fc.oneof(
  fc.constantFrom('{', '{"title": ', 'not json', '{"a":1}{"b":2}', "{'title': 'single quotes'}", '\u0000', '[1,2,', 'NaN', '{"title": "x" /* comment */}', '{"a": 1,}'),
  fc.string({ minLength: 1, maxLength: 50 }).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
);
const deepNesting = fc.record({ depth: fc.integer({ min: 1_000, max: 20_000 }), shape: fc.constantFrom('array', 'object') });

function requestsFor(op: Operation, fixture: Fixture, tokens: { bearer: string; throwaway: string }): fc.Arbitrary<BadRequest> {
  const mayAccept = op.key in MAY_ACCEPT;
  const validBody = VALID_BODIES[op.key];
  if (op.body && !validBody) throw new Error(`no valid body for ${op.key}: add one to VALID_BODIES`);
  const validPathId = op.key === 'PUT /api/letters/{id}' || op.key === 'PUT /api/letters/{id}/seal' ? fixture.letterId : randomUUID();
  const urlOf = (id: string | undefined, query = '') => op.path.replace('{id}', id ?? validPathId).replace('{section}', 'letters') + query;

  // Each kind: [name, arbitrary of { url, headers, payload, mustRefuse }]
  type Shape = { url: string; headers: Record<string, string>; payload?: string; mustRefuse: boolean };
  const kinds: [string, fc.Arbitrary<Shape>][] = [];
  const json = { 'content-type': 'application/json' };
  const withExtras = (body: Record<string, unknown>) =>
    fc.option(extraFields, { nil: undefined }).map((extra) => JSON.stringify(extra ? { ...extra, ...body } : body));

  if (op.body && validBody) {
    const props = Object.entries(op.body.properties ?? {});
    const stringProps = props.filter(([, s]) => acceptedTypes(s).has('string')).map(([name]) => name);
    const required = op.body.required ?? [];
    kinds.push(['wrong type', fc.constantFrom(...props).chain(([name, schema]) =>
      wrongTypeFor(schema).chain((value) => withExtras({ ...validBody(fixture), [name]: value }))).map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
    if (required.length) {
      kinds.push(['missing field', fc.subarray(required, { minLength: 1 }).chain((drop) => {
        const body = validBody(fixture);
        for (const name of drop) delete body[name];
        return withExtras(body);
      }).map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
    }
    // A body with no text field (a flag) has no string to make huge or break.
    if (stringProps.length) {
      kinds.push(['100 KB string', fc.tuple(fc.constantFrom(...stringProps), hugeString).chain(([name, huge]) => withExtras({ ...validBody(fixture), [name]: huge }))
        .map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
      kinds.push(['control character', fc.constantFrom(...stringProps).chain((name) => {
        const body = validBody(fixture);
        return withBrokenChar(String(body[name] ?? 'text')).chain((value) => withExtras({ ...body, [name]: value }));
      }).map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
    }
    kinds.push(['not an object', fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), fc.string({ maxLength: 20 }), fc.double(), fc.boolean(), fc.constant(null))
      .map((value) => ({ url: urlOf(undefined), headers: json, payload: JSON.stringify(value), mustRefuse: true }))]);
    kinds.push(['wrong content type', fc.tuple(contentTypes, withExtras(validBody(fixture)))
      .map(([type, payload]) => ({ url: urlOf(undefined), headers: { 'content-type': type }, payload, mustRefuse: true }))]);
    kinds.push(['no content type', withExtras(validBody(fixture)).map((payload) => ({ url: urlOf(undefined), headers: {}, payload, mustRefuse: true }))]);
    kinds.push(['empty body', fc.constantFrom('', ' ', '\n').map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
  }
  // GET bodies have no meaning in HTTP (the gateway never reads them), so they are sent to the other methods:
  // a body that is not JSON is refused even by a route that takes none; deeply nested JSON is still JSON,
  // which a route without a body may ignore, and a route with one must refuse.
  if (!op.streamed && op.method !== 'GET') {
    kinds.push(['non-JSON body', nonJsonBodies.map((payload) => ({ url: urlOf(undefined), headers: json, payload, mustRefuse: true }))]);
    const firstProperty = Object.keys(op.body?.properties ?? {})[0];
    kinds.push(['deep nesting', deepNesting.map(({ depth, shape }) => {
      const nested = shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      const inProperty = firstProperty && validBody;
      // Inside a property the rest of the body is valid: only the nesting is wrong.
      const payload = inProperty ? JSON.stringify({ ...validBody(fixture), [firstProperty]: '@@' }).replace('"@@"', nested) : nested;
      return { url: urlOf(undefined), headers: json, payload, mustRefuse: !!op.body };
    })]);
  }
  if (op.pathParams.includes('id')) {
    const body = validBody ? JSON.stringify(validBody(fixture)) : undefined;
    kinds.push(['invalid id in path', badId.map((id) => ({
      url: urlOf(/^%/.test(id) ? id : encodePart(id)),
      headers: op.streamed ? { 'content-type': op.streamed[0]! } : body ? json : {},
      payload: op.streamed ? randomBytes(64).toString('latin1') : body,
      mustRefuse: true,
    }))]);
  }
  if (op.pathParams.includes('section')) {
    kinds.push(['invalid section in path', badId.map((section) => ({ url: op.path.replace('{section}', /^%/.test(section) ? section : encodePart(section)), headers: {}, mustRefuse: true }))]);
  }
  if (op.streamed) {
    kinds.push(['wrong content type', fc.tuple(fc.constantFrom(...WRONG_STREAM_TYPES[op.path]!), fc.string({ maxLength: 100 }))
      .map(([type, payload]) => ({ url: urlOf(undefined), headers: { 'content-type': type }, payload, mustRefuse: true }))]);
    kinds.push(['empty body', fc.constantFrom(...op.streamed).map((type) => ({ url: urlOf(undefined), headers: { 'content-type': type }, payload: '', mustRefuse: true }))]);
    const start = op.path.startsWith('/api/court/') ? '%PDF-1.7\n' : '\u001aE\u00df\u00a3 webm';
    kinds.push(['unknown upload', fc.constantFrom(...op.streamed).map((type) => ({ url: urlOf(randomUUID()), headers: { 'content-type': type }, payload: start, mustRefuse: true }))]);
  }
  if (op.queryParams.length) {
    kinds.push(['bad query value', fc.tuple(fc.subarray(op.queryParams, { minLength: 1 }), fc.array(badQueryValue, { minLength: op.queryParams.length, maxLength: op.queryParams.length }), fc.boolean())
      .map(([names, values, repeated]) => {
        const search = new URLSearchParams();
        names.forEach((name, i) => {
          search.append(name, values[i]!);
          if (repeated) search.append(name, values[i]!); // ?limit=1&limit=1 arrives as an array
        });
        return { url: urlOf(undefined, `?${search.toString()}`), headers: {}, mustRefuse: true };
      })]);
  }
  if (mayAccept) {
    // Junk the operation never reads: accepted or refused, never a server error.
    kinds.push(['ignored junk', fc.tuple(extraFields, fc.boolean()).map(([extra, asQuery]) => {
      const search = new URLSearchParams(Object.entries(extra).map(([k, v]): [string, string] => [k, JSON.stringify(v) ?? '']));
      return asQuery
        ? { url: urlOf(undefined, `?${search.toString()}`), headers: {}, mustRefuse: false }
        : { url: urlOf(undefined), headers: json, payload: JSON.stringify(extra), mustRefuse: false };
    })]);
  }
  if (!kinds.length) throw new Error(`${op.key}: nothing to send`);

  const auth = op.bearer ? fc.constantFrom('signed-in', 'signed-in', 'signed-in', 'anonymous', 'junk-token') : fc.constantFrom('anonymous', 'signed-in');
  const refreshCookie = fc.oneof(fc.constant(undefined), badQueryValue.map((v) => `lv_refresh=${encodePart(v)}`));
  return fc.tuple(fc.oneof(...kinds.map(([name, arb]) => arb.map((shape) => ({ name, shape })))), auth, refreshCookie).map(([{ name, shape }, who, cookie]) => {
    const headers: Record<string, string> = { ...shape.headers };
    // Signing out revokes the token's session: those calls use a session of their own.
    if (who === 'signed-in') headers.authorization = `Bearer ${op.refreshCookie ? tokens.throwaway : tokens.bearer}`;
    if (who === 'junk-token') headers.authorization = `Bearer ${randomBytes(24).toString('base64url')}`;
    if (op.refreshCookie && cookie) headers.cookie = cookie;
    // A refused anonymous call of a guarded route (401) still counts: it must be no 5xx either.
    return {
      operation: op.key,
      kind: name,
      mustRefuse: shape.mustRefuse || !mayAccept,
      signedIn: who === 'signed-in',
      inject: { method: op.method, url: shape.url, headers, ...(shape.payload !== undefined ? { payload: shape.payload } : {}) },
    };
  });
}

// ---- the stack -----------------------------------------------------------------------------------

describe('bad input through the gateway, against the real services', () => {
  const databases: TestDatabase[] = [];
  const children: ChildService[] = [];
  let s3: RunningS3Server;
  let workDir: string;
  let scratchDir: string | undefined;
  let app: NestFastifyApplication | undefined;
  let http: FastifyInstance;
  let doc: OpenApiDocument;
  const password = 'correct horse battery';
  let user: { id: string; email: string; bearer: string; adminBearer: string };

  const call = (options: InjectOptions, signedIn = true) =>
    http.inject({ ...options, headers: { ...(signedIn ? { authorization: `Bearer ${user.bearer}` } : {}), ...options.headers } });
  const sendJson = (method: InjectOptions['method'], url: string, body: unknown) =>
    call({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  async function startService(name: string, env: Record<string, string>): Promise<void> {
    const script = join(scratchDir!, 'apps', name, 'main.js');
    const db = await createTestDatabase([], `gwbad${name.replace('-', '')}`);
    databases.push(db);
    // Seven services at once, each with a pool of 10 by default, took 89 of PostgreSQL's 100 connections
    // here, and the other spec file running beside this one took the rest: a pool of 3 answers the fuzz.
    const full = { DATABASE_URL: db.url, NATS_URL, REDIS_URL, STACK_ID: stackId, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'info', DATABASE_POOL_MAX: '3', ...env };
    const migrate = startChild(script, ['migrate'], full);
    const { code, signal } = await migrate.exited;
    if (code !== 0) throw new Error(`${name} migrate exited ${code ?? signal}: ${migrate.lines.slice(-5).join('\n')}`);
    const child = startChild(script, [], full);
    children.push(child);
    await child.waitForLine(new RegExp(`${name} is listening on NATS`), 60_000);
  }

  beforeAll(async () => {
    doc = JSON.parse(await readFile(join(repoRoot, 'apps', 'gateway', 'openapi.json'), 'utf8')) as OpenApiDocument;
    scratchDir = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/identity', 'apps/letters', 'apps/vault-media', 'apps/timeline', 'libs/evidence', 'apps/court-journal', 'apps/access-keys', 'apps/billing'], 'gw-bad-input');
    workDir = await mkdtemp(join(tmpdir(), 'lv-gw-bad-input-'));
    s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret', silent: true });
    const mediaPort = await freePort();
    const courtPort = await freePort();
    const evidenceKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await Promise.all([
      startService('identity', { JWT_PRIVATE_KEY: keys.privateKey, SIGNUP_MAX_PER_ADDRESS: '100000', KEY_MAIL_SECRET: randomBytes(24).toString('hex'), PASSWORD_RESETS_PER_EMAIL: '100000', PASSWORD_RESETS_PER_ADDRESS: '100000' }),
      startService('letters', {}),
      startService('vault-media', {
        S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
        MEDIA_HTTP_PORT: String(mediaPort), MEDIA_LINK_SECRET: randomBytes(24).toString('hex'), MEDIA_PART_SIZE_MB: '5',
      }),
      startService('timeline', {}),
      startService('billing', { LOCAL_WEBHOOK_SECRET: randomBytes(32).toString('hex') }),
      startService('access-keys', { VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, KEY_MAIL_SECRET: randomBytes(24).toString('hex') }),
      startService('court-journal', {
        S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
        COURT_JOURNAL_HTTP_PORT: String(courtPort), COURT_LINK_SECRET: randomBytes(24).toString('hex'), EVIDENCE_SIGNING_KEY: evidenceKey,
      }),
    ]);

    await bridgeEsmOnlyDependencies();
    const { createGatewayApp } = await import('../src/app.factory.js');
    const { gatewayConfigSchema } = await import('../src/config.js');
    await mkdir(join(workDir, 'web'), { recursive: true });
    await writeFile(join(workDir, 'web', 'index.html'), '<!doctype html><title>Legacy Vault</title>');
    const config = gatewayConfigSchema.parse({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '10000', DEVICE_COOKIE_SECRET: 'spec-device-cookie-secret-0123456789abcdef',
      WEB_DIST_DIR: join(workDir, 'web'), VAULT_MEDIA_URL: `http://127.0.0.1:${mediaPort}`, COURT_JOURNAL_URL: `http://127.0.0.1:${courtPort}`,
      HEALTH_SERVICES: 'identity,letters,vault-media,timeline,court-journal,access-keys,billing', VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey,
    });
    app = await createGatewayApp(config, { logger: pino({ level: 'silent' }) });
    await app.init();
    http = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    await http.ready();

    // A real account, signed up through the gateway. Its token is re-signed with the pro tier (same
    // key as identity's) so the timeline and audio reach their validation instead of UPGRADE_REQUIRED.
    const email = `bad-input-${randomUUID()}@example.com`;
    const signUp = await call({ method: 'POST', url: '/api/auth/sign-up', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) }, false);
    expect(signUp.statusCode).toBe(201);
    const session = signUp.json<{ accessToken: string; profile: { id: string } }>();
    const claims = JSON.parse(Buffer.from(session.accessToken.split('.')[1]!, 'base64url').toString('utf8')) as AccessTokenClaims;
    const proClaims: AccessTokenClaims = { sub: claims.sub, sid: claims.sid, email: claims.email, tier: 'pro', admin: false, emailVerified: true, kind: 'user' };
    // The same account as an admin (the claim billing's FAQ and the gateway's admin routes check), so
    // the admin routes' validation is fuzzed too, not only their 403.
    user = { id: session.profile.id, email, bearer: signer.sign(proClaims, 900).token, adminBearer: signer.sign({ ...proClaims, admin: true }, 900).token };
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all(children.map((c) => c.kill('SIGTERM')));
    const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');
    const nc = await connectNats(NATS_URL, 'cleanup');
    const jsm = await jetstreamManager(nc);
    for (const name of ['identity', 'vault-media', 'letters', 'timeline', 'court-journal', 'access-keys', 'notifications', 'billing'] as const) await jsm.streams.delete(scopedStreamName(name, stackId)).catch(() => undefined);
    await nc.close();
    await s3?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
    for (const db of databases) await db.drop();
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
  });

  const expectRefusedField = (response: LightMyRequestResponse, field: string) => {
    expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
      status: 400,
      body: expect.objectContaining({ code: 'VALIDATION_FAILED', fields: expect.objectContaining({ [field]: TextMessages.unsafe }) }),
    });
  };

  describe('U+0000 and lone surrogates are refused with 400 naming the field, and nothing is saved', () => {
    it('PATCH /api/me (full_name)', async () => {
      for (const name of ['Sam\u0000Parent', 'Sam \uD83D']) expectRefusedField(await sendJson('PATCH', '/api/me', { full_name: name }), 'full_name');
      expect((await call({ method: 'GET', url: '/api/me' })).json<{ full_name: string | null }>().full_name).toBeNull();
    });

    it('PUT /api/vault/reflection (text)', async () => {
      for (const text of ['I think\u0000', '\uDE00 half an emoji']) expectRefusedField(await sendJson('PUT', '/api/vault/reflection', { text }), 'text');
      expect((await call({ method: 'GET', url: '/api/vault/reflection' })).json()).toEqual({ text: '', updated_at: null });
    });

    it('POST /api/letters (title, content)', async () => {
      expectRefusedField(await sendJson('POST', '/api/letters', { title: 't', content: 'x\u0000y' }), 'content');
      expectRefusedField(await sendJson('POST', '/api/letters', { title: 'To \uD800Sam', content: 'Hello' }), 'title');
      expect((await call({ method: 'GET', url: '/api/letters' })).json<{ letters: unknown[] }>().letters).toEqual([]);
    });

    it('PUT /api/letters/:id (title, content)', async () => {
      const written = await sendJson('POST', '/api/letters', { title: 'To Sam', content: 'Hello, Sam.' });
      expect(written.statusCode).toBe(201);
      const { id } = written.json<{ id: string }>();
      expectRefusedField(await sendJson('PUT', `/api/letters/${id}`, { title: 'To Sam', content: 'Hello\u0000', expectedVersion: 1 }), 'content');
      expectRefusedField(await sendJson('PUT', `/api/letters/${id}`, { title: '\uDFFF', content: 'Hello', expectedVersion: 1 }), 'title');
      expect((await call({ method: 'GET', url: `/api/letters/${id}` })).json()).toMatchObject({ title: 'To Sam', content: 'Hello, Sam.', version: 1 });
      await call({ method: 'DELETE', url: `/api/letters/${id}` });
    });

    it('POST /api/admin/faq and PUT /api/admin/faq/:id (question, answer), as an admin', async () => {
      const asAdmin = { authorization: `Bearer ${user.adminBearer}`, 'content-type': 'application/json' };
      const save = (method: 'POST' | 'PUT', url: string, body: object) => call({ method, url, headers: asAdmin, payload: JSON.stringify(body) }, false);
      const entry = { question: 'Is there a family discount?', answer: 'Not yet.', is_active: true, display_order: 1 };
      const listed = async () => (await call({ method: 'GET', url: '/api/admin/faq', headers: asAdmin }, false)).json<{ id: string; answer: string }[]>();
      const seeded = await listed();
      expectRefusedField(await save('POST', '/api/admin/faq', { ...entry, question: 'Is there\u0000 a discount?' }), 'question');
      expectRefusedField(await save('POST', '/api/admin/faq', { ...entry, answer: 'Not \uD800yet.' }), 'answer');
      expect(await listed()).toEqual(seeded);
      const added = await save('POST', '/api/admin/faq', entry);
      expect(added.statusCode).toBe(201);
      const { id } = added.json<{ id: string }>();
      expectRefusedField(await save('PUT', `/api/admin/faq/${id}`, { ...entry, answer: 'Yes\u0000' }), 'answer');
      expect((await listed()).find((e) => e.id === id)).toMatchObject({ answer: 'Not yet.' });
      expect(await listed()).toHaveLength(seeded.length + 1);
    });

    it('POST /api/media/uploads (title)', async () => {
      for (const title of ['For you\u0000', '\uD83D']) {
        expectRefusedField(await sendJson('POST', '/api/media/uploads', { type: 'video', title, sha256: 'ab'.repeat(32), size: 20_000 }), 'title');
      }
      expect((await call({ method: 'GET', url: '/api/media/recordings' })).json()).toEqual([]);
    });
  });

  describe(`generated from openapi.json: ${RUNS_PER_OPERATION} malformed requests per operation (seeds ${SEEDS.all.join(' and ')})`, () => {
    it('answers none with 5xx and accepts none it reads (2xx)', async () => {
      const letter = await sendJson('POST', '/api/letters', { title: 'Kept', content: 'A letter the edits aim at.' });
      expect(letter.statusCode).toBe(201);
      const fixture: Fixture = { letterId: letter.json<{ id: string }>().id, email: user.email, password, userId: user.id };
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThanOrEqual(20);
      for (const key of Object.keys(MAY_ACCEPT)) expect(operations.map((o) => o.key)).toContain(key);

      /** Per operation, kind and status: how many, and the first request that got it. */
      const failures: Record<string, { count: number; example: string }> = {};
      let sent = 0;
      const timings: string[] = [];
      for (const [index, op] of operations.entries()) {
        const started = Date.now();
        const throwaway = signer.sign({ sub: user.id, sid: randomUUID(), email: user.email, tier: 'pro', admin: false, emailVerified: true, kind: 'user' }, 900).token;
        // Admin routes are fuzzed as an admin: past the 403, into their validation.
        const bearer = ADMIN_OPERATION.test(op.key) ? user.adminBearer : user.bearer;
        const requests = SEEDS.all.flatMap((seed) => fc.sample(requestsFor(op, fixture, { bearer, throwaway }), { numRuns: RUNS_PER_OPERATION / SEEDS.all.length, seed: seed + index }));
        // A few at a time: the services answer in parallel, the gateway is in-process.
        for (let i = 0; i < requests.length; i += 16) {
          await Promise.all(requests.slice(i, i + 16).map(async (request) => {
            const response = await http.inject(request.inject);
            sent++;
            // /api/health reports the stack: 503 with its report means a service was slow to answer
            // the probe on this busy machine, which is what the endpoint is for, not bad input.
            const healthReport = request.operation === 'GET /api/health' && response.statusCode === 503 && /^\{"status":"(down|degraded)"\}$/.test(response.body);
            const server = response.statusCode >= 500 && !healthReport;
            const accepted = request.mustRefuse && response.statusCode < 400;
            if (server || accepted) {
              const shown = JSON.stringify({ ...request.inject, payload: typeof request.inject.payload === 'string' && request.inject.payload.length > 200 ? `${request.inject.payload.slice(0, 200)}…(${request.inject.payload.length})` : request.inject.payload, url: String(request.inject.url).slice(0, 200) });
              const key = `${request.operation} [${request.kind}] -> ${response.statusCode}`;
              failures[key] ??= { count: 0, example: `${request.signedIn ? 'signed in: ' : ''}${shown} => ${response.body.slice(0, 300)}` };
              failures[key].count++;
            }
          }));
        }
        timings.push(`${op.key} ${Date.now() - started} ms`);
      }
      if (process.env.FUZZ_TIMINGS) console.log(timings.join('\n'));
      expect(sent).toBeGreaterThanOrEqual(operations.length * RUNS_PER_OPERATION);
      // The letter the edits aimed at is unchanged: no malformed edit got through.
      expect((await call({ method: 'GET', url: `/api/letters/${fixture.letterId}` })).json()).toMatchObject({ title: 'Kept', version: 1 });
      expect(failures).toEqual({});
    });
  });
});
