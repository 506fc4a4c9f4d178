import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessKeysRpc, Queues, type AccessRequest, type AccessRequestNoticeJob, type AccessRequestPage, type IssuedAccessKey, type SendKeyEmailJob } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { publishedEventIds, runWritesThroughKill, streamsWithVersionGaps } from '@lv/testing';
import { keyStreamId } from '../src/keys/key.decider.js';
import { requestIdOf } from '../src/requests/request-id.js';
import { requestStreamId } from '../src/requests/request.decider.js';
import { requestNoticeJobId } from '../src/requests/submit-request.js';
import { AccessKeysProcess } from './support/access-keys-process.js';

// The kill test of access-keys' request writes: family members submit access requests to three
// owners from their request links, and the owners approve some of the requests submitted before
// and decline the others (two writers racing on each decision), 8 at a time, while the access-keys
// process (a real child, this checkout compiled to a scratch directory, its outbox relay inside it)
// is SIGKILLed with writes in flight and started again on the same database.
//
// The client does what the SPA does: a write that got no answer is sent again, as it was, until it
// is answered; a submission carries the submission id its form drew, the same on every attempt.
// Every attempt carries a request id of its own (the events' correlation id), so the store tells
// which attempt committed. What a retry of a write whose first attempt committed answers:
// - a decision (approve or decline) answers 409 ALREADY_DECIDED, the same refusal as the racing
//   writer that lost (the same write sent twice: seen on every decision); the owner is not shown the
//   key of an approval the killed process committed (it is e-mailed to the requester all the same);
// - a submission answers { success: true } and records nothing: the request's id is derived from the
//   owner and the submission id, so the retry names the request its first attempt saved, and the
//   decider answers the same form again with no event (and so no second notice job).
// Afterwards every request is recorded exactly once (by its answered attempt, or by an earlier one
// the kill cut off after its commit), every decision once and final (an approved request is never
// declined), every approval issued exactly one key with exactly one e-mail job, every request has
// exactly one notice job of the attempt that committed it, no stream has a version gap, and the outbox drained to JetStream, each event
// published once.

jest.setTimeout(300_000);

const OWNERS = 3;
/** Requests each owner had before the writes under test: half approved during them, half declined. */
const REQUESTS_BEFORE = 8;
/** Requests submitted to each owner during them. */
const SUBMITTED_DURING = 10;
/** Writers sent for each decision, racing on the same request. */
const DECIDERS = 2;
const KILL_AFTER_ACKS = 30;
/** The kill waits for at least this many writes sent and not yet answered. */
const MIN_IN_FLIGHT = 3;
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 2000;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** The request events and the key events an approval appends (all of them published), as an SQL list. */
const REQUEST_EVENTS = `'AccessRequestSubmitted', 'AccessRequestApproved', 'AccessRequestDeclined'`;
const accessKeys = new AccessKeysProcess('reqkill', RPC_TIMEOUT_MS);
const call = accessKeys.call.bind(accessKeys);
const sql = <T>(text: string, params: unknown[] = []) => accessKeys.db.orm.em.fork().execute<T[]>(text, params);

beforeAll(() => accessKeys.setUp());
afterAll(() => accessKeys.tearDown());

/** Signed in the test, not at load: approving needs a recent sign-in (the sudo window), and the set-up compiles first. */
function newOwner(o: number) {
  const id = randomUUID();
  return { id, token: accessKeys.signer.sign({ sub: id, sid: randomUUID(), email: `owner${o}-${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 3600).token };
}
type Owner = ReturnType<typeof newOwner>;

/** Each family member sends from an address of their own (the form is limited per address). */
const familyAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
const requestForm = (owner: Owner, email: string, submissionId: string) => ({
  user_id: owner.id, requester_email: email, requester_name: `Member ${email.slice(0, 9)}`, relationship: 'Daughter', message: 'I would like to read the letters.',
  submission_id: submissionId,
});

type Write =
  | { kind: 'submit'; tag: string; owner: Owner; email: string; ip: string; submissionId: string }
  | { kind: 'approve' | 'decline'; tag: string; owner: Owner; request: AccessRequest };
type Decision = Extract<Write, { kind: 'approve' | 'decline' }>;

it('requests submitted, approved and declined survive a SIGKILL of access-keys: each recorded once, each decision once and final with one key and one e-mail job per approval, published once', async () => {
  const owners = Array.from({ length: OWNERS }, (_, o) => newOwner(o));
  const before: { owner: Owner; request: AccessRequest }[] = [];
  for (const [o, owner] of owners.entries()) {
    for (let i = 0; i < REQUESTS_BEFORE; i++) {
      await call(AccessKeysRpc.submitRequest, requestForm(owner, `before${i}-${owner.id}@example.com`, randomUUID()), undefined, { requestId: `reqkill-before-${o}-${i}`, ip: familyAddress() });
    }
    const { items }: AccessRequestPage = await call(AccessKeysRpc.listRequests, {}, owner.token);
    expect(items).toHaveLength(REQUESTS_BEFORE);
    before.push(...items.map((request) => ({ owner, request })));
  }
  const decisionOf = (request: AccessRequest): Decision['kind'] => (before.findIndex((b) => b.request.id === request.id) % 2 === 0 ? 'approve' : 'decline');

  let tags = 0;
  const submits: Write[] = owners.flatMap((owner) => Array.from({ length: SUBMITTED_DURING }, (_, i) => ({
    kind: 'submit' as const, tag: `reqkill-w${tags++}`, owner, email: `during${i}-${owner.id}@example.com`, ip: familyAddress(), submissionId: randomUUID(),
  })));
  // Each decision sent by DECIDERS writers side by side, so they race on the request; submissions mixed in between.
  const writes: Write[] = [];
  for (const { owner, request } of before) {
    for (let d = 0; d < DECIDERS; d++) writes.push({ kind: decisionOf(request), tag: `reqkill-w${tags++}`, owner, request });
    writes.push(...submits.splice(0, Math.ceil((OWNERS * SUBMITTED_DURING) / before.length)));
  }
  writes.push(...submits);

  // Every attempt's request id, and the ones that got no answer (cut off by the kill, or sent while the process was down).
  const attemptsOf = new Map<Write, string[]>(writes.map((write) => [write, []]));
  const unansweredAttempts = new Set<string>();
  const answeredKeys = new Map<string, IssuedAccessKey[]>();
  let refusedAsDecided = 0;
  const unanswered = (error: unknown) => error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE';

  const sendOnce = async (write: Write, requestId: string) => {
    if (write.kind === 'submit') {
      const answer: unknown = await call(AccessKeysRpc.submitRequest, requestForm(write.owner, write.email, write.submissionId), undefined, { requestId, ip: write.ip });
      expect(answer).toEqual({ success: true });
      return;
    }
    try {
      if (write.kind === 'approve') {
        const issued: IssuedAccessKey = await call(AccessKeysRpc.approveRequest, { request_id: write.request.id }, write.owner.token, { requestId });
        if (issued.recipient_email !== write.request.requester_email || !issued.emailed) throw new Error(`answered ${JSON.stringify({ ...issued, access_key: '…' })}`);
        answeredKeys.set(write.request.id, [...(answeredKeys.get(write.request.id) ?? []), issued]);
        return;
      }
      const declined: AccessRequest = await call(AccessKeysRpc.declineRequest, { request_id: write.request.id }, write.owner.token, { requestId });
      if (declined.id !== write.request.id || declined.status !== 'declined') throw new Error(`answered ${JSON.stringify(declined)}`);
    } catch (error) {
      // The racing writer decided first, or (on a retry) this writer's attempt the kill cut off: the store says which.
      if (!(error instanceof DomainError && error.code === 'ALREADY_DECIDED')) throw error;
      refusedAsDecided++;
    }
  };

  const run = await runWritesThroughKill<Write>({
    writes, concurrency: CONCURRENCY, killAfterAcks: KILL_AFTER_ACKS, minInFlight: MIN_IN_FLIGHT,
    async killAndRestart() {
      await accessKeys.kill();
      await accessKeys.start();
    },
    async send(write) {
      const attempts = attemptsOf.get(write)!;
      const requestId = `${write.tag}-a${attempts.length + 1}`;
      attempts.push(requestId);
      await sendOnce(write, requestId).catch((error: unknown) => {
        if (unanswered(error)) unansweredAttempts.add(requestId);
        throw error;
      });
    },
    // Retries are told apart by the store below, not by their answer (a retried submission is answered as its first attempt was).
    unanswered,
    describe: (write) => (write.kind === 'submit' ? `submit for ${write.email}` : `${write.kind} ${write.request.id}`),
  });
  expect(run.unexpected).toEqual([]);
  // The kill landed on writes in flight: sent before it, not answered when it came.
  expect(run.acksAtKill).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(run.inFlightAtKill).toBeGreaterThanOrEqual(MIN_IN_FLIGHT);
  expect(run.acknowledged).toBe(writes.length);

  // Final: the other decision, sent now, is refused for every decided request (and records nothing: counted below).
  for (const { owner, request } of before) {
    const other = decisionOf(request) === 'approve' ? AccessKeysRpc.declineRequest : AccessKeysRpc.approveRequest;
    const refusal = await call(other, { request_id: request.id }, owner.token).then(() => 'answered', (error: DomainError) => error.code);
    expect(`${request.id} ${refusal}`).toBe(`${request.id} ALREADY_DECIDED`);
  }

  // The store's request events, by the attempt (request id) that committed each.
  const requestEvents = await sql<{ event_id: string; stream_id: string; type: string; correlation_id: string | null }>(
    `select event_id, stream_id, type, metadata->>'correlationId' as correlation_id from events where type in (${REQUEST_EVENTS}) order by global_position`,
  );
  const writeOfAttempt = new Map([...attemptsOf].flatMap(([write, attempts]) => attempts.map((id) => [id, write] as const)));
  /** Attempts the kill cut off that had committed: their retry found the write done. */
  const committedUnanswered = requestEvents.filter((e) => e.correlation_id !== null && unansweredAttempts.has(e.correlation_id));

  // Submissions: each recorded exactly once, under the id its owner and submission id name, by its answered attempt or by an
  // earlier one the kill cut off after its commit (its retry then found it saved and recorded nothing).
  const submitted = requestEvents.filter((e) => e.type === 'AccessRequestSubmitted');
  const requestRows = await sql<{ id: string; owner_id: string; requester_email: string; status: string; key_id: string | null; decided_at: Date | null }>('select * from access_requests');
  const rowOfStream = new Map(requestRows.map((row) => [requestStreamId(row.id), row]));
  expect(submitted.map((e) => e.stream_id).sort()).toEqual([...rowOfStream.keys()].sort());
  expect(new Set(submitted.map((e) => e.correlation_id)).size).toBe(submitted.length);
  const duringSubmits = writes.filter((w): w is Extract<Write, { kind: 'submit' }> => w.kind === 'submit');
  let savedBeforeRetry = 0;
  for (const write of duringSubmits) {
    const records = submitted.filter((e) => e.correlation_id !== null && writeOfAttempt.get(e.correlation_id) === write);
    const answeredAttempt = attemptsOf.get(write)!.at(-1)!;
    const recordedBy = records.map((e) => (e.correlation_id === answeredAttempt ? 'answered' : unansweredAttempts.has(e.correlation_id!) ? 'cut off' : 'other'));
    expect({ email: write.email, recordedBy }).toEqual({ email: write.email, recordedBy: [expect.stringMatching(/^(answered|cut off)$/)] });
    if (recordedBy[0] === 'cut off') savedBeforeRetry++;
    const row = rowOfStream.get(records[0]!.stream_id);
    expect(`${records[0]!.stream_id} ${row?.owner_id} ${row?.requester_email} ${row?.status}`)
      .toBe(`${requestStreamId(requestIdOf(write.owner.id, write.submissionId))} ${write.owner.id} ${write.email} pending`);
  }
  expect(submitted).toHaveLength(before.length + duringSubmits.length);
  expect(savedBeforeRetry).toBe(committedUnanswered.filter((e) => e.type === 'AccessRequestSubmitted').length);
  for (const owner of owners) {
    const { items }: AccessRequestPage = await call(AccessKeysRpc.listRequests, {}, owner.token);
    expect(items.map((r) => r.requester_email).sort()).toEqual(submitted.map((e) => rowOfStream.get(e.stream_id)!).filter((row) => row.owner_id === owner.id && row.status === 'pending').map((row) => row.requester_email).sort());
    expect(items.map((r) => r.requester_email).sort()).toEqual(duringSubmits.filter((w) => w.owner === owner).map((w) => w.email).sort());
  }

  // Decisions: one per request, of the kind its writers sent, by one of their attempts; final in the read model.
  const decisions = requestEvents.filter((e) => e.type !== 'AccessRequestSubmitted');
  expect(decisions.map((e) => e.stream_id).sort()).toEqual(before.map((b) => requestStreamId(b.request.id)).sort());
  const keyRows = await sql<{ id: string; request_id: string | null; source: string; recipient_email: string }>('select id, request_id, source, recipient_email from access_keys');
  for (const { request } of before) {
    const kind = decisionOf(request);
    const decision = decisions.find((e) => e.stream_id === requestStreamId(request.id))!;
    const decidedBy = decision.correlation_id === null ? undefined : writeOfAttempt.get(decision.correlation_id);
    expect(`${request.id} ${decision.type} by ${decidedBy?.kind === kind && decidedBy.request.id === request.id}`)
      .toBe(`${request.id} ${kind === 'approve' ? 'AccessRequestApproved' : 'AccessRequestDeclined'} by true`);
    const row = rowOfStream.get(requestStreamId(request.id))!;
    expect(row.status).toBe(kind === 'approve' ? 'approved' : 'declined');
    expect(row.decided_at).not.toBeNull();
    const keys = keyRows.filter((k) => k.request_id === request.id);
    if (kind === 'decline') {
      expect(`${request.id} ${row.key_id} ${keys.length}`).toBe(`${request.id} null 0`);
      continue;
    }
    expect(keys.map((k) => `${k.id} ${k.source} ${k.recipient_email}`)).toEqual([`${row.key_id} request ${request.requester_email}`]);
    // A key an owner was shown is the one in force: at most one per request (the racing writer was refused).
    expect((answeredKeys.get(request.id) ?? []).map((k) => k.key_id)).toEqual(answeredKeys.has(request.id) ? [row.key_id] : []);
  }
  const approvedKeyIds = keyRows.map((k) => k.id);
  expect(approvedKeyIds).toHaveLength(OWNERS * REQUESTS_BEFORE / 2);
  const issuedEvents = await sql<{ stream_id: string; n: number }>(`select stream_id, count(*)::int as n from events where type = 'AccessKeyIssued' group by stream_id`);
  expect(new Set(issuedEvents.map((row) => row.stream_id))).toEqual(new Set(approvedKeyIds.map(keyStreamId)));
  expect(issuedEvents.filter((row) => row.n !== 1)).toEqual([]);
  expect(await streamsWithVersionGaps(accessKeys.db)).toEqual([]);

  // Every approval's key has exactly one e-mail job (queued in its transaction) and is live; a job whose
  // key never committed (the kill came between the enqueue and the commit) finds it 'unknown'.
  const keyQueue = accessKeys.queue<SendKeyEmailJob>(Queues.KeyEmails.name);
  const keyJobs = await keyQueue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
  await keyQueue.close();
  expect(approvedKeyIds.map((id) => `${id} ${keyJobs.filter((job) => job.data.keyId === id).length}`)).toEqual(approvedKeyIds.map((id) => `${id} 1`));
  for (const id of approvedKeyIds) expect(`${id} ${(await call(AccessKeysRpc.keyMailState, { key_id: id })).state}`).toBe(`${id} active`);
  const orphanKeyJobs = keyJobs.filter((job) => !approvedKeyIds.includes(job.data.keyId));
  for (const job of orphanKeyJobs) expect(await call(AccessKeysRpc.keyMailState, { key_id: job.data.keyId })).toEqual({ state: 'unknown' });

  // Every recorded request has exactly one notice job of the attempt that committed it: the job named by the request and its
  // AccessRequestSubmitted event (requestNoticeJobId). A job of an attempt the kill cut off between its enqueue and its commit
  // has another id (its own event's, never stored), so it did not stand in for the committing attempt's job; for a request
  // a retry then committed it is a second job for the request (notifications sends once per request). Decided requests no
  // longer ask for their e-mail; a job whose request never committed finds it 'unknown'.
  const noticeQueue = accessKeys.queue<AccessRequestNoticeJob>(Queues.AccessRequestNotices.name);
  const noticeJobs = await noticeQueue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
  await noticeQueue.close();
  const submittedEventOf = new Map(submitted.map((e) => [e.stream_id, e.event_id]));
  const committingJobIds = new Set(requestRows.map((row) => requestNoticeJobId(row.id, submittedEventOf.get(requestStreamId(row.id))!)));
  for (const row of requestRows) {
    const jobs = noticeJobs.filter((job) => job.id === requestNoticeJobId(row.id, submittedEventOf.get(requestStreamId(row.id))!));
    expect(`${row.id} ${jobs.length} ${jobs.every((job) => job.data.requestId === row.id && job.data.ownerId === row.owner_id)}`).toBe(`${row.id} 1 true`);
  }
  const lostAttemptJobs = noticeJobs.filter((job) => !committingJobIds.has(job.id!) && requestRows.some((row) => row.id === job.data.requestId));
  for (const row of requestRows) {
    const { state } = await call(AccessKeysRpc.requestNoticeState, { owner_id: row.owner_id, request_id: row.id });
    expect(`${row.id} ${state}`).toBe(`${row.id} ${row.status === 'pending' ? 'pending' : 'decided'}`);
  }
  const orphanNotices = noticeJobs.filter((job) => !committingJobIds.has(job.id!) && !requestRows.some((row) => row.id === job.data.requestId));
  expect(noticeJobs).toHaveLength(committingJobIds.size + lostAttemptJobs.length + orphanNotices.length);
  for (const job of orphanNotices) expect((await call(AccessKeysRpc.requestNoticeState, { owner_id: job.data.ownerId, request_id: job.data.requestId })).state).toBe('unknown');

  // JetStream: once the relay has drained the outbox, each published event once, by its id.
  const storedIds = (await sql<{ event_id: string }>(`select event_id from events where type in (${REQUEST_EVENTS}, 'AccessKeyIssued')`)).map((row) => row.event_id);
  expect(storedIds).toHaveLength(submitted.length + decisions.length + approvedKeyIds.length);
  const eventIds = await publishedEventIds(accessKeys.db, NATS_URL, 'access-keys', accessKeys.stackId);
  expect(eventIds).toHaveLength(storedIds.length);
  expect(new Set(eventIds)).toEqual(new Set(storedIds));

  console.log(`[access-keys request kill test] ${duringSubmits.length} requests submitted, ${before.length} decided (${approvedKeyIds.length} approved, ${before.length - approvedKeyIds.length} declined) by ${DECIDERS} racing writers each: `
    + `${run.acknowledged} writes acknowledged in ${run.seconds.toFixed(1)} s; SIGKILL after ${run.acksAtKill} acknowledgements with ${run.inFlightAtKill} in flight (${run.cutOff} attempts cut off); `
    + `${run.retried} writes retried (${run.attempts} attempts in all); committed by the killed process and unanswered: ${committedUnanswered.length - savedBeforeRetry} decisions, ${savedBeforeRetry} submissions (each found saved by its retry, recorded once); `
    + `${refusedAsDecided} decisions answered ALREADY_DECIDED; ${submitted.length} requests recorded, ${decisions.length} decisions, ${issuedEvents.length} keys with ${keyJobs.length} e-mail jobs (${orphanKeyJobs.length} for keys that never committed), `
    + `${noticeJobs.length} notice jobs (${lostAttemptJobs.length} of attempts cut off before their commit whose request a retry committed, ${orphanNotices.length} for requests that never committed); JetStream ${eventIds.length} messages / ${new Set(eventIds).size} distinct events`);
});
