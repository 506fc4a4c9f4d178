import { createHash, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import jwt from 'jsonwebtoken';
import { expect, test, type APIRequestContext } from './support/test.js';
import { signUpWithToken, writeLetterViaApi, type SignedUp } from './support/letters.js';

// Issue 12, "Proof": every family-access endpoint against every kind of caller, over HTTP against
// the whole stack (gateway, identity, access-keys, notifications, letters, timeline, court-journal),
// and 1,000 random keys against redemption. Callers: anonymous, the owner, another owner, a
// requester (no login), an admin, and viewers holding a valid session, one limited to letters, an
// expired one, a revoked one and one of another owner's vault.
//
// The stack trusts 127.0.0.1 as its proxy (test stacks only), so each caller here comes from an
// address of its own (X-Forwarded-For) and the per-address limits of one never touch another.

const CONSENT_VERSION = 'v1.0';
const SECTIONS = ['timeline', 'letters', 'court-journal', 'who-i-am', 'if-im-not-there'] as const;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const stackDataDir = process.env.STACK_DATA_DIR ?? join(repoRoot, '.data');
const run = promisify(execFile);

let addressCounter = 0;
/** A client address no other caller in this run uses (TEST-NET-3 and 10/8 space). */
const freshAddress = () => {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};
const runTag = randomUUID().slice(0, 8);

interface Caller {
  name: string;
  token?: string;
  address: string;
}

async function call(request: APIRequestContext, caller: Caller, method: 'GET' | 'POST', path: string, body?: unknown) {
  const headers: Record<string, string> = { 'x-forwarded-for': caller.address };
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  const response = await request.fetch(path, { method, headers, ...(body !== undefined ? { data: body } : method === 'POST' ? { data: {} } : {}) });
  return { status: response.status(), body: await response.json().catch(() => null) };
}

async function consentBody(request: APIRequestContext) {
  const response = await request.get('/api/access/consent');
  expect(response.status()).toBe(200);
  const consent = (await response.json()) as { version: string; text: string; hash: string };
  expect(consent.version).toBe(CONSENT_VERSION);
  const hash = createHash('sha256').update(consent.text, 'utf8').digest('hex');
  expect(consent.hash).toBe(hash);
  return { version: consent.version, text_hash: hash };
}

async function ownerWithLetter(request: APIRequestContext, tag: string) {
  const signedUp = await signUpWithToken(request, tag);
  const me = await request.get('/api/me', { headers: { authorization: `Bearer ${signedUp.accessToken}` } });
  const { id } = (await me.json()) as { id: string };
  const letter = await writeLetterViaApi(request, signedUp.accessToken, { title: `${tag} letter ${runTag}`, content: 'Words for the children.' });
  return { ...signedUp, id, letter, caller: { name: tag, token: signedUp.accessToken, address: freshAddress() } satisfies Caller };
}

async function submitRequest(request: APIRequestContext, ownerId: string, email: string) {
  const response = await call(request, { name: 'requester', address: freshAddress() }, 'POST', '/api/access/requests', {
    user_id: ownerId, requester_email: email, relationship: 'My Child', message: 'I would like to read the letters.',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

async function pendingIds(request: APIRequestContext, owner: Caller): Promise<string[]> {
  const response = await call(request, owner, 'GET', '/api/access/requests?status=pending&limit=50');
  expect(response.status).toBe(200);
  return (response.body as { items: Array<{ id: string }> }).items.map((r) => r.id);
}

async function createKey(request: APIRequestContext, owner: Caller, scopes?: string[]) {
  const response = await call(request, owner, 'POST', '/api/access/keys', {
    access_key: randomUUID(), name: 'Family member', email: `kid-${randomUUID().slice(0, 8)}@example.com`, expires_in_days: 30, ...(scopes && { scopes }),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { key_id: string; access_key: string };
}

async function redeem(request: APIRequestContext, key: string, consent: { version: string; text_hash: string }, name: string): Promise<Caller & { session: string; sessionId: string }> {
  const address = freshAddress();
  const response = await call(request, { name, address }, 'POST', '/api/view/redeem', { access_key: key, consent });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const opened = response.body as { session: string; session_id: string; viewer_token: string };
  return { name, address, token: opened.viewer_token, session: opened.session, sessionId: opened.session_id };
}

/** Makes the account an admin with the operators' CLI, then signs in again for a token that says so. */
async function adminCaller(request: APIRequestContext, admin: SignedUp): Promise<Caller> {
  await run(process.execPath, [join(repoRoot, 'tools', 'cli', 'dist', 'main.js'), 'user:admin', admin.credentials.email], {
    cwd: repoRoot,
    env: { ...process.env, JWT_PRIVATE_KEY: join(stackDataDir, 'keys', 'jwt-private.pem'), STACK_ID: process.env.STACK_ID ?? '' },
  });
  const signIn = await request.post('/api/auth/sign-in', { data: admin.credentials });
  expect(signIn.status()).toBe(200);
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const me = await request.get('/api/me', { headers: { authorization: `Bearer ${accessToken}` } });
  expect(((await me.json()) as { ai_admin: boolean }).ai_admin).toBe(true);
  return { name: 'admin', token: accessToken, address: freshAddress() };
}

/** A viewer token of the stack's own key whose time ran out a minute ago. */
function expiredViewerToken(ownerId: string, sessionId: string): string {
  const privateKey = readFileSync(join(stackDataDir, 'keys', 'viewer-jwt-private.pem'), 'utf8');
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign({ kind: 'viewer', sub: ownerId, sid: sessionId, scopes: [...SECTIONS], iat: now - 3600, exp: now - 60 }, privateKey, {
    algorithm: 'RS256', issuer: 'legacy-vault-access-keys', audience: 'legacy-vault-viewer',
  });
}

test.describe('family access: who may call what', () => {
  test('every access endpoint x every caller: 0 unexpected allows, 0 unexpected refusals', async ({ request }) => {
    test.setTimeout(180_000);
    const consent = await consentBody(request);
    const ownerA = await ownerWithLetter(request, 'matrix-owner-a');
    const ownerB = await ownerWithLetter(request, 'matrix-owner-b');
    const admin = await adminCaller(request, await signUpWithToken(request, 'matrix-admin'));

    // A has three pending requests (one approved below, one for the matrix's approve, one for its decline); B one.
    for (const n of [1, 2, 3]) await submitRequest(request, ownerA.id, `child-${n}-${runTag}@example.com`);
    await submitRequest(request, ownerB.id, `child-b-${runTag}@example.com`);
    const [approveTarget, declineTarget, firstRequest] = await pendingIds(request, ownerA.caller);
    const [requestOfB] = await pendingIds(request, ownerB.caller);

    const approved = await call(request, ownerA.caller, 'POST', `/api/access/requests/${firstRequest}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBeLessThan(300);
    const keyA = approved.body as { key_id: string; access_key: string };
    const limitedKey = await createKey(request, ownerA.caller, ['letters']);
    const keyToRevoke = await createKey(request, ownerA.caller);
    const keyForMatrixRevoke = await createKey(request, ownerA.caller);
    const approvedB = await call(request, ownerB.caller, 'POST', `/api/access/requests/${requestOfB}/approve`, {});
    const keyB = approvedB.body as { access_key: string };

    const viewer = await redeem(request, keyA.access_key, consent, 'viewer');
    const sessionForMatrixRevoke = await redeem(request, keyA.access_key, consent, 'viewer-2');
    const limited = await redeem(request, limitedKey.access_key, consent, 'viewer-letters-only');
    const revoked = await redeem(request, keyToRevoke.access_key, consent, 'viewer-revoked');
    const otherVault = await redeem(request, keyB.access_key, consent, 'viewer-of-b');
    expect((await call(request, ownerA.caller, 'POST', `/api/access/keys/${keyToRevoke.key_id}/revoke`)).status).toBeLessThan(300);
    const expired: Caller = { name: 'viewer-expired', token: expiredViewerToken(ownerA.id, viewer.sessionId), address: freshAddress() };
    const forged: Caller = { name: 'viewer-forged', token: jwt.sign({ kind: 'viewer', sub: ownerA.id, sid: viewer.sessionId, scopes: [...SECTIONS] }, 'not-the-key'), address: freshAddress() };
    const anonymous: Caller = { name: 'anonymous', address: freshAddress() };
    const requester: Caller = { name: 'requester', address: freshAddress() };

    const owners = [ownerB.caller, admin];
    const viewers = [viewer, limited, revoked, otherVault, expired, forged];
    const everyone = [anonymous, requester, ...viewers, ...owners, ownerA.caller];

    type Row = { route: string; method: 'GET' | 'POST'; path: string; body?: unknown; allowed: Caller[]; check?: (caller: Caller, body: unknown) => void };
    const ids = (body: unknown, key = 'id') => (Array.isArray(body) ? body : (body as { items: unknown[] }).items).map((r) => (r as Record<string, string>)[key]);
    const rows: Row[] = [
      // Public on purpose.
      { route: 'consent', method: 'GET', path: '/api/access/consent', allowed: everyone },
      // Owner-side reads: every signed-in account reads its own (B and the admin see none of A's).
      {
        route: 'list requests', method: 'GET', path: '/api/access/requests?status=pending', allowed: [...owners, ownerA.caller],
        check: (caller, body) => {
          const listed = ids(body);
          if (caller === ownerA.caller) expect(listed).toEqual(expect.arrayContaining([approveTarget, declineTarget]));
          else expect(listed).not.toEqual(expect.arrayContaining([approveTarget]));
          if (caller === admin) expect(listed).toEqual([]);
        },
      },
      {
        route: 'list keys', method: 'GET', path: '/api/access/keys', allowed: [...owners, ownerA.caller],
        check: (caller, body) => {
          if (caller === ownerA.caller) expect(ids(body)).toContain(keyA.key_id);
          else expect(ids(body)).not.toContain(keyA.key_id);
        },
      },
      {
        route: 'list sessions', method: 'GET', path: '/api/access/sessions', allowed: [...owners, ownerA.caller],
        check: (caller, body) => {
          if (caller === ownerA.caller) expect(ids(body)).toContain(viewer.sessionId);
          else expect(ids(body)).not.toContain(viewer.sessionId);
        },
      },
      // Owner-side writes on A's things: only A (A goes last in `everyone`, after every refusal).
      { route: 'approve', method: 'POST', path: `/api/access/requests/${approveTarget}/approve`, body: {}, allowed: [ownerA.caller] },
      { route: 'decline', method: 'POST', path: `/api/access/requests/${declineTarget}/decline`, allowed: [ownerA.caller] },
      { route: 'revoke key', method: 'POST', path: `/api/access/keys/${keyForMatrixRevoke.key_id}/revoke`, allowed: [ownerA.caller] },
      { route: 'revoke session', method: 'POST', path: `/api/access/sessions/${sessionForMatrixRevoke.sessionId}/revoke`, allowed: [ownerA.caller] },
      // The viewer's side: a live session of the vault, and only the parts its key opens.
      {
        route: 'view session', method: 'GET', path: '/api/view/session', allowed: [viewer, limited, otherVault],
        check: (caller, body) => expect((body as { vaultOwnerId: string }).vaultOwnerId).toBe(caller === otherVault ? ownerB.id : ownerA.id),
      },
      ...SECTIONS.map(
        (section): Row => ({
          route: `view ${section}`, method: 'GET', path: `/api/view/entries/${section}`,
          allowed: section === 'letters' ? [viewer, limited, otherVault] : [viewer, otherVault],
          check: (caller, body) => {
            const headlines = (body as Array<{ headline: string }>).map((e) => e.headline);
            if (section !== 'letters' && section !== 'timeline') return;
            // A viewer of B's vault never reads A's vault, and the reverse.
            if (caller === otherVault) {
              expect(headlines).not.toContain(ownerA.letter.title);
              expect(headlines).toContain(ownerB.letter.title);
            } else expect(headlines).toContain(ownerA.letter.title);
          },
        }),
      ),
      // Owner routes of the rest of the vault refuse every viewer token.
      { route: 'owner letters', method: 'GET', path: '/api/letters', allowed: [...owners, ownerA.caller] },
      { route: 'owner court documents', method: 'GET', path: '/api/court/documents', allowed: [...owners, ownerA.caller] },
      { route: 'owner me', method: 'GET', path: '/api/me', allowed: [...owners, ownerA.caller] },
    ];

    const unexpectedAllows: string[] = [];
    const unexpectedRefusals: string[] = [];
    let cells = 0;
    for (const row of rows) {
      for (const caller of everyone) {
        cells++;
        const { status, body } = await call(request, caller, row.method, row.path, row.body);
        const allowed = row.allowed.includes(caller);
        const ok = status >= 200 && status < 300;
        if (ok && !allowed) unexpectedAllows.push(`${row.route} x ${caller.name}: ${status}`);
        if (!ok && allowed) unexpectedRefusals.push(`${row.route} x ${caller.name}: ${status} ${JSON.stringify(body)}`);
        // A refusal is a refusal, never a server error.
        if (!ok) expect([401, 403, 404], `${row.route} x ${caller.name}`).toContain(status);
        if (ok && allowed) row.check?.(caller, body);
      }
    }
    console.log(`[matrix] ${rows.length} routes x ${everyone.length} callers = ${cells} cells; unexpected allows ${unexpectedAllows.length}, unexpected refusals ${unexpectedRefusals.length}`);
    expect(unexpectedAllows).toEqual([]);
    expect(unexpectedRefusals).toEqual([]);

    // What the matrix's writes did, as their owner sees it.
    const keys = (await call(request, ownerA.caller, 'GET', '/api/access/keys')).body as Array<{ id: string; status: string }>;
    expect(keys.find((k) => k.id === keyForMatrixRevoke.key_id)?.status).toBe('revoked');
    expect(await pendingIds(request, ownerA.caller)).not.toEqual(expect.arrayContaining([approveTarget, declineTarget]));
    // A decided request cannot be decided again, even by its owner.
    expect((await call(request, ownerA.caller, 'POST', `/api/access/requests/${approveTarget}/decline`)).status).toBe(409);
    // The revoked session cannot be renewed; the live one can.
    expect((await call(request, anonymous, 'POST', '/api/view/token', { session: sessionForMatrixRevoke.session })).status).toBe(401);
    expect((await call(request, anonymous, 'POST', '/api/view/token', { session: viewer.session })).status).toBe(200);
    // Another vault's key, named with A's owner id, is refused like an unknown key.
    const wrongVault = await call(request, { name: 'x', address: freshAddress() }, 'POST', '/api/view/redeem', { access_key: keyB.access_key, owner: ownerA.id, consent });
    expect(wrongVault.status).toBe(401);
    expect((wrongVault.body as { code: string }).code).toBe('INVALID_OR_EXPIRED_KEY');
  });

  test('1,000 random keys: all refused, no key found, and the per-address limit engages', async ({ request }) => {
    test.setTimeout(240_000);
    const consent = await consentBody(request);
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

    // 1,000 guesses, each from an address of its own (no limit helps the guesser here): all unknown.
    const guesses = Array.from({ length: 1000 }, () => randomUUID());
    for (let i = 0; i < guesses.length; i += 20) {
      const batch = guesses.slice(i, i + 20);
      const answers = await Promise.all(batch.map((key) => call(request, { name: 'guesser', address: freshAddress() }, 'POST', '/api/view/redeem', { access_key: key, consent })));
      for (const answer of answers) {
        count(answer.status);
        expect(answer.status).toBe(401);
        expect((answer.body as { code: string; message: string }).code).toBe('INVALID_OR_EXPIRED_KEY');
        expect((answer.body as { message: string }).message).toBe('That access key is invalid, expired, or already used.');
      }
    }
    // From one address: a handful of refusals, then 429 for the rest of the minute, before any lookup.
    const one: Caller = { name: 'one-address', address: freshAddress() };
    const fromOne: number[] = [];
    for (let i = 0; i < 50; i++) fromOne.push((await call(request, one, 'POST', '/api/view/redeem', { access_key: randomUUID(), consent })).status);
    const refusedByKey = fromOne.filter((s) => s === 401).length;
    const limited = fromOne.filter((s) => s === 429).length;
    console.log(`[brute force] 1000 addresses: ${JSON.stringify(Object.fromEntries(statuses))}; one address, 50 tries: ${refusedByKey} x 401 then ${limited} x 429`);
    expect(refusedByKey).toBeLessThanOrEqual(5);
    expect(limited).toBe(50 - refusedByKey);
    expect(fromOne.indexOf(429)).toBe(refusedByKey);
    // A valid key from that address is refused too while the limit holds (it is not even looked up).
    const owner = await signUpWithToken(request, 'brute-owner');
    const key = await createKey(request, { name: 'owner', token: owner.accessToken, address: freshAddress() });
    expect((await call(request, one, 'POST', '/api/view/redeem', { access_key: key.access_key, consent })).status).toBe(429);
    // ...and works from anywhere else.
    expect((await call(request, { name: 'family', address: freshAddress() }, 'POST', '/api/view/redeem', { access_key: key.access_key, consent })).status).toBe(201);
  });
});
