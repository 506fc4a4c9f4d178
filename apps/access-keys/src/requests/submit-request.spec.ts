import { randomUUID } from 'node:crypto';
import type { AccessRequestNoticeJob } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { NotificationStates } from '../notification-states.js';
import { accessFixture, fromAddress, ownerCaller } from '../test-support/access-fixture.js';
import { OwnerRequests } from './owner-requests.js';
import { requestIdOf } from './request-id.js';
import { RequestLinkSetting } from './request-link-setting.js';
import { SubmitRequest } from './submit-request.js';

const form = (ownerId: string, accessKey: string | null = null, submissionId: string | null = null) => ({
  user_id: ownerId, requester_email: 'sam@example.com', requester_name: 'Sam', relationship: 'Son', message: 'Please let me in', child_name: null, child_dob: null,
  access_key: accessKey, submission_id: submissionId,
});

/** failNotice: Redis refuses every notice; dieAfterFirstNotice: the first attempt's job is queued, then its transaction is lost (a kill before the commit). */
function requestLink(options: { requestsPerHour?: number; failNotice?: boolean; dieAfterFirstNotice?: boolean } = {}) {
  const world = accessFixture();
  const { access, counters, now } = world;
  const notices: { job: AccessRequestNoticeJob; jobId: string }[] = [];
  const submit = new SubmitRequest({
    keys: access.keys, requests: access.requests, commands: access, limits: counters, now,
    limitValues: { requestsPerHour: options.requestsPerHour ?? 10, requestFormLookupsPerMinute: 10 },
    ownerName: async (ownerId) => (ownerId === 'unnamed' ? null : 'Alex Owner'),
    queueNotice: async (job, jobId) => {
      if (options.failNotice) throw new Error('redis is away');
      notices.push({ job, jobId });
      if (options.dieAfterFirstNotice && notices.length === 1) throw new Error('killed before the commit');
    },
  });
  const setting = new RequestLinkSetting({ requests: access.requests, commands: access, now });
  const states = new NotificationStates({ keys: access.keys, requests: access.requests, commands: access, now });
  const ownerRequests = new OwnerRequests({ keys: access.keys, requests: access.requests, commands: access, now });
  return { ...world, submit, setting, states, ownerRequests, notices };
}

/** `request-notice-<requestId>-<the id of the event its attempt appended>`. */
const attemptJobId = (requestId: string) => new RegExp(`^request-notice-${requestId}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`);

describe('submitting an access request', () => {
  it("records the request for the link's owner, with its notice job named after it and this attempt's event", async () => {
    const { submit, ownerRequests, notices, states } = requestLink();
    const owner = ownerCaller();
    await submit.submit(form(owner.userId), fromAddress('203.0.113.20'));
    const { items } = await ownerRequests.pending(owner.userId);
    expect(items).toMatchObject([{ requester_email: 'sam@example.com', relationship: 'Son', status: 'pending', held_key: null }]);
    expect(notices).toEqual([{ job: { requestId: items[0]!.id, ownerId: owner.userId }, jobId: expect.stringMatching(attemptJobId(items[0]!.id)) }]);
    expect(await states.requestNoticeState(owner.userId, items[0]!.id)).toEqual({ state: 'pending', requester_name: 'Sam', relationship: 'Son' });
    expect((await states.requestNoticeState(ownerCaller().userId, items[0]!.id)).state).toBe('unknown');
  });

  it('saves a submission sent again (its answer lost) once, with one notice; another form under its id is refused', async () => {
    const { submit, ownerRequests, notices } = requestLink();
    const owner = ownerCaller();
    const submissionId = randomUUID();
    const meta = fromAddress('203.0.113.27');
    expect(await submit.submit(form(owner.userId, null, submissionId), meta)).toEqual({ success: true });
    expect(await submit.submit(form(owner.userId, null, submissionId), meta)).toEqual({ success: true });
    const { items } = await ownerRequests.pending(owner.userId);
    expect(items.map((r) => r.id)).toEqual([requestIdOf(owner.userId, submissionId)]);
    expect(notices.map((n) => n.jobId)).toEqual([expect.stringMatching(attemptJobId(items[0]!.id))]);
    const other = await submit.submit({ ...form(owner.userId, null, submissionId), message: 'Something else' }, meta).catch((error: unknown) => error);
    expect(other instanceof DomainError && other.code).toBe('CONFLICT');
    // The same submission id sent to another owner is another request.
    const second = ownerCaller();
    await submit.submit(form(second.userId, null, submissionId), meta);
    expect((await ownerRequests.pending(second.userId)).items.map((r) => r.id)).toEqual([requestIdOf(second.userId, submissionId)]);
    expect((await ownerRequests.pending(owner.userId)).items).toHaveLength(1);
  });

  it('names the notice job of each attempt apart: the retry of a submission whose attempt died before its commit queues a job of its own', async () => {
    const { submit, ownerRequests, notices } = requestLink({ dieAfterFirstNotice: true });
    const owner = ownerCaller();
    const submissionId = randomUUID();
    const meta = fromAddress('203.0.113.28');
    await expect(submit.submit(form(owner.userId, null, submissionId), meta)).rejects.toThrow('killed before the commit');
    expect((await ownerRequests.pending(owner.userId)).items).toEqual([]);
    expect(await submit.submit(form(owner.userId, null, submissionId), meta)).toEqual({ success: true });
    const requestId = requestIdOf(owner.userId, submissionId);
    expect((await ownerRequests.pending(owner.userId)).items.map((r) => r.id)).toEqual([requestId]);
    // The same request, two jobs under two ids: BullMQ does not take the committing attempt's job for the lost one's.
    expect(notices.map((n) => n.job)).toEqual([{ requestId, ownerId: owner.userId }, { requestId, ownerId: owner.userId }]);
    expect(notices.map((n) => n.jobId)).toEqual([expect.stringMatching(attemptJobId(requestId)), expect.stringMatching(attemptJobId(requestId))]);
    expect(notices[0]!.jobId).not.toBe(notices[1]!.jobId);
  });

  it('names a request by a UUID version 5 of the submission id in the owner id', () => {
    // RFC 9562's example: "www.example.com" in the DNS namespace.
    expect(requestIdOf('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(requestIdOf('6BA7B810-9DAD-11D1-80B4-00C04FD430C8', 'WWW.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(requestIdOf(randomUUID(), null)).not.toBe(requestIdOf(randomUUID(), null));
  });

  it('keeps no request whose notice could not be queued', async () => {
    const { submit, ownerRequests } = requestLink({ failNotice: true });
    const owner = ownerCaller();
    await expect(submit.submit(form(owner.userId), fromAddress('203.0.113.21'))).rejects.toThrow('redis is away');
    expect((await ownerRequests.pending(owner.userId)).items).toEqual([]);
  });

  it('shows the owner a key the requester holds only when it is one of his own keys', async () => {
    const { submit, ownerRequests, issueKey } = requestLink();
    const owner = ownerCaller();
    const other = ownerCaller();
    const own = await issueKey(owner);
    const foreign = await issueKey(other);
    await submit.submit(form(owner.userId, own.key), fromAddress('203.0.113.22'));
    await submit.submit(form(owner.userId, foreign.key), fromAddress('203.0.113.22'));
    const held = (await ownerRequests.pending(owner.userId)).items.map((r) => r.held_key?.key_id ?? null).sort();
    expect(held).toEqual([own.keyId, null].sort());
  });

  it('is refused while the owner has closed his link, and taken again once he reopens it', async () => {
    const { submit, setting, ownerRequests } = requestLink();
    const owner = ownerCaller();
    const meta = fromAddress('203.0.113.23');
    expect(await setting.save(owner, { open: false }, meta)).toEqual({ open: false });
    const closed = await submit.submit(form(owner.userId), meta).catch((error: unknown) => error);
    expect(closed instanceof DomainError && closed.code).toBe('REQUESTS_CLOSED');
    expect(await submit.form({ user_id: owner.userId.toUpperCase() }, meta)).toEqual({ open: false, owner_name: 'Alex Owner' });
    await setting.save(owner, { open: true }, meta);
    await submit.submit(form(owner.userId), meta);
    expect((await ownerRequests.pending(owner.userId)).items).toHaveLength(1);
  });

  it('limits requests per client address an hour', async () => {
    const { submit } = requestLink({ requestsPerHour: 2 });
    const owner = ownerCaller();
    const meta = fromAddress('203.0.113.24');
    await submit.submit(form(owner.userId), meta);
    await submit.submit(form(owner.userId), meta);
    const third = await submit.submit(form(owner.userId), meta).catch((error: unknown) => error);
    expect(third instanceof DomainError && third.code).toBe('RATE_LIMITED');
    await expect(submit.submit(form(owner.userId), fromAddress('203.0.113.25'))).resolves.toEqual({ success: true });
  });

  it('lets only the owner decline, once; a decided request no longer asks for its notice', async () => {
    const { submit, ownerRequests, states } = requestLink();
    const owner = ownerCaller();
    const meta = fromAddress('203.0.113.26');
    await submit.submit(form(owner.userId), meta);
    const [request] = (await ownerRequests.pending(owner.userId)).items;
    const stranger = await ownerRequests.decline(ownerCaller(), request!.id, meta).catch((error: unknown) => error);
    expect(stranger instanceof DomainError && stranger.code).toBe('NOT_FOUND');
    expect(await ownerRequests.decline(owner, request!.id, meta)).toMatchObject({ id: request!.id, status: 'declined' });
    expect((await states.requestNoticeState(owner.userId, request!.id)).state).toBe('decided');
    expect((await ownerRequests.pending(owner.userId)).items).toEqual([]);
  });
});
