import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessKeysRpc, Queues, type AccessKeySummary, type IssuedAccessKey, type KeyDraft, type SendKeyEmailJob } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { publishedEventIds, runWritesThroughKill, streamsWithVersionGaps } from '@lv/testing';
import { keyStreamId } from '../src/keys/key.decider.js';
import { AccessKeysProcess } from './support/access-keys-process.js';

// The kill test of access-keys' key writes: three owners issue keys ("Generate Keys" and Save) and
// revoke keys they issued before (two writers racing on each revoke), 8 at a time, while the
// access-keys process (a real child, this checkout compiled to a scratch directory, its outbox relay
// inside it) is SIGKILLed with writes in flight and started again on the same database.
//
// The client does what the SPA does: a write that got no answer is sent again until it is answered.
// A Save is sent again with the same key, draft and form, and must be answered with the key as issued,
// whether or not the killed process had issued it (issue 30: no KEY_TAKEN for a Save that worked). A
// revoke is sent again as it was, and must be answered "revoked" (revoking twice changes nothing).
// Afterwards every key must be issued exactly once with its e-mail job, every revoked key revoked
// exactly once and still revoked, and the outbox drained to JetStream, each event published once.

jest.setTimeout(300_000);

const OWNERS = 3;
/** Keys each owner issued before the writes under test: all revoked during them. */
const ISSUED_BEFORE = 8;
/** Keys each owner issues during them. */
const ISSUED_DURING = 12;
/** Writers sent for each revoke, racing on the same key. */
const REVOKERS = 2;
const KILL_AFTER_ACKS = 30;
/** The kill waits for at least this many writes sent and not yet answered. */
const MIN_IN_FLIGHT = 3;
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 2000;
const DAY_MS = 24 * 3600 * 1000;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const accessKeys = new AccessKeysProcess('keykill', RPC_TIMEOUT_MS);
const owners = Array.from({ length: OWNERS }, (_, o) => {
  const id = randomUUID();
  return { id, token: accessKeys.signer.sign({ sub: id, sid: randomUUID(), email: `owner${o}-${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 3600).token };
});
type Owner = (typeof owners)[number];
const call = accessKeys.call.bind(accessKeys);
const sql = <T>(text: string, params: unknown[] = []) => accessKeys.db.orm.em.fork().execute<T[]>(text, params);

beforeAll(() => accessKeys.setUp());
afterAll(() => accessKeys.tearDown());

type Write =
  | { kind: 'issue'; owner: Owner; draft: KeyDraft; email: string }
  | { kind: 'revoke'; owner: Owner; keyId: string };

/** "Generate Access Key", then Save with the key and its draft. */
const issueBody = (draft: KeyDraft, email: string) => ({ access_key: draft.access_key, draft: draft.draft, name: `Family ${email.slice(0, 8)}`, email, expires_in_days: 30 });

it('issued and revoked keys survive a SIGKILL of access-keys: each issued once with its e-mail job, revoked once and still revoked, published once', async () => {
  const before: { owner: Owner; key: IssuedAccessKey }[] = [];
  for (const owner of owners) {
    for (let i = 0; i < ISSUED_BEFORE; i++) {
      const draft: KeyDraft = await call(AccessKeysRpc.draftKey, {}, owner.token);
      before.push({ owner, key: await call(AccessKeysRpc.createKey, issueBody(draft, `before${i}-${owner.id}@example.com`), owner.token) });
    }
  }
  // The drafts "Generate Access Key" made before the run: a Save sends its draft again on every retry.
  const issues: Write[] = [];
  for (const owner of owners) {
    for (let i = 0; i < ISSUED_DURING; i++) {
      issues.push({ kind: 'issue', owner, draft: await call(AccessKeysRpc.draftKey, {}, owner.token), email: `during${i}-${owner.id}@example.com` });
    }
  }
  // Each revoke sent by REVOKERS writers side by side, so they race on the key; issues mixed in between.
  const writes: Write[] = [];
  for (const { owner, key } of before) {
    for (let r = 0; r < REVOKERS; r++) writes.push({ kind: 'revoke', owner, keyId: key.key_id });
    writes.push(...issues.splice(0, Math.ceil((OWNERS * ISSUED_DURING) / before.length)));
  }
  writes.push(...issues);

  /** The key id each Save was answered with (a retry's answer included): the key as listed. */
  const answeredKeyIds = new Map<Write, string>();
  const run = await runWritesThroughKill<Write>({
    writes, concurrency: CONCURRENCY, killAfterAcks: KILL_AFTER_ACKS, minInFlight: MIN_IN_FLIGHT,
    async killAndRestart() {
      await accessKeys.kill();
      await accessKeys.start();
    },
    async send(write) {
      if (write.kind === 'issue') {
        const issued: IssuedAccessKey = await call(AccessKeysRpc.createKey, issueBody(write.draft, write.email), write.owner.token);
        if (issued.access_key !== write.draft.access_key || issued.recipient_email !== write.email || !issued.emailed) throw new Error(`answered ${JSON.stringify({ ...issued, access_key: '…' })}`);
        answeredKeyIds.set(write, issued.key_id);
        // Issued at its expiry less its days: when the attempt that issued it committed.
        return Date.parse(issued.expires_at) - issueBody(write.draft, write.email).expires_in_days * DAY_MS;
      }
      const revoked: AccessKeySummary = await call(AccessKeysRpc.revokeKey, { key_id: write.keyId }, write.owner.token);
      if (revoked.id !== write.keyId || revoked.status !== 'revoked') throw new Error(`answered ${JSON.stringify(revoked)}`);
      return Date.parse(revoked.revoked_at!);
    },
    unanswered: (error) => error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE',
    describe: (write) => (write.kind === 'issue' ? `issue for ${write.email}` : `revoke ${write.keyId}`),
  });
  expect(run.unexpected).toEqual([]);
  // The kill landed on writes in flight: sent before it, not answered when it came.
  expect(run.acksAtKill).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(run.inFlightAtKill).toBeGreaterThanOrEqual(MIN_IN_FLIGHT);
  expect(run.acknowledged).toBe(writes.length);

  // The read model: each owner's keys are the ones issued before (all revoked) and during (all active), each once.
  const issuedDuring = writes.filter((w): w is Extract<Write, { kind: 'issue' }> => w.kind === 'issue');
  const revokedIds = new Set(before.map((b) => b.key.key_id));
  const listedKeys: AccessKeySummary[] = [];
  for (const owner of owners) {
    const listed: AccessKeySummary[] = await call(AccessKeysRpc.listKeys, {}, owner.token);
    expect(listed).toHaveLength(ISSUED_BEFORE + ISSUED_DURING);
    expect(listed.filter((k) => revokedIds.has(k.id)).map((k) => k.status)).toEqual(Array.from({ length: ISSUED_BEFORE }, () => 'revoked'));
    expect(new Set(listed.filter((k) => !revokedIds.has(k.id)).map((k) => `${k.recipient_email} ${k.status}`)))
      .toEqual(new Set(issuedDuring.filter((w) => w.owner === owner).map((w) => `${w.email} active`)));
    listedKeys.push(...listed);
  }
  // Every Save was answered with the key as listed, a retried one too (the key the killed process issued, if it had).
  const listedIdByEmail = new Map(listedKeys.map((k) => [k.recipient_email, k.id]));
  expect(issuedDuring.filter((w) => answeredKeyIds.get(w) !== listedIdByEmail.get(w.email)).map((w) => w.email)).toEqual([]);
  const perRecipient = await sql<{ recipient_email: string; n: number }>('select recipient_email, count(*)::int as n from access_keys group by recipient_email');
  expect(perRecipient).toHaveLength(OWNERS * (ISSUED_BEFORE + ISSUED_DURING));
  expect(perRecipient.filter((row) => row.n !== 1)).toEqual([]);

  // The store: one AccessKeyIssued per key, one AccessKeyRevoked per revoked key (however many writers raced), every stream's versions 1..n.
  const issuedEvents = await sql<{ stream_id: string; n: number }>(`select stream_id, count(*)::int as n from events where type = 'AccessKeyIssued' group by stream_id`);
  expect(new Set(issuedEvents.map((row) => row.stream_id))).toEqual(new Set(listedKeys.map((k) => keyStreamId(k.id))));
  expect(issuedEvents.filter((row) => row.n !== 1)).toEqual([]);
  const revokedEvents = await sql<{ stream_id: string; n: number }>(`select stream_id, count(*)::int as n from events where type = 'AccessKeyRevoked' group by stream_id`);
  expect(new Set(revokedEvents.map((row) => row.stream_id))).toEqual(new Set([...revokedIds].map(keyStreamId)));
  expect(revokedEvents.filter((row) => row.n !== 1)).toEqual([]);
  expect(await streamsWithVersionGaps(accessKeys.db)).toEqual([]);

  // Revoked keys stay revoked, issued keys are live, for the notifications worker's check before it e-mails a key.
  const mailStates = new Map<string, number>();
  for (const key of listedKeys) {
    const { state } = await call(AccessKeysRpc.keyMailState, { key_id: key.id });
    expect(`${key.id} ${state}`).toBe(`${key.id} ${revokedIds.has(key.id) ? 'revoked' : 'active'}`);
    mailStates.set(state, (mailStates.get(state) ?? 0) + 1);
  }

  // Every issued key has its e-mail job (queued in its transaction); a job whose key never committed
  // (the kill came between the enqueue and the commit) finds it 'unknown' and is never sent.
  const queue = accessKeys.queue<SendKeyEmailJob>(Queues.KeyEmails.name);
  const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
  await queue.close();
  const jobKeyIds = new Set(jobs.map((job) => job.data.keyId));
  expect(listedKeys.filter((k) => !jobKeyIds.has(k.id)).map((k) => k.id)).toEqual([]);
  const orphanJobs = jobs.filter((job) => !listedKeys.some((k) => k.id === job.data.keyId));
  for (const job of orphanJobs) expect(await call(AccessKeysRpc.keyMailState, { key_id: job.data.keyId })).toEqual({ state: 'unknown' });

  // JetStream: once the relay has drained the outbox, each published event once, by its id.
  const publishedIds = (await sql<{ event_id: string }>(`select event_id from events where type in ('AccessKeyIssued', 'AccessKeyRevoked')`)).map((row) => row.event_id);
  expect(publishedIds).toHaveLength(OWNERS * (ISSUED_BEFORE * 2 + ISSUED_DURING));
  const eventIds = await publishedEventIds(accessKeys.db, NATS_URL, 'access-keys', accessKeys.stackId);
  expect(eventIds).toHaveLength(publishedIds.length);
  expect(new Set(eventIds)).toEqual(new Set(publishedIds));

  console.log(`[access-keys kill test] ${issuedDuring.length} keys issued, ${before.length} keys revoked by ${REVOKERS} racing writers each: ${run.summary}; `
    + `${listedKeys.length} keys listed (${JSON.stringify(Object.fromEntries(mailStates))}), ${issuedEvents.length} AccessKeyIssued / ${revokedEvents.length} AccessKeyRevoked, `
    + `${jobs.length} e-mail jobs (${orphanJobs.length} for keys that never committed); JetStream ${eventIds.length} messages / ${new Set(eventIds).size} distinct events`);
});
