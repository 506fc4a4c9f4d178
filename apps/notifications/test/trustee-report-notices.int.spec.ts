import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { AccessKeysRpc, IdentityEvents, IdentityRpc, type DeliveryView, type RpcDeclaration, type Trustee, type TrusteeReport, type TrusteeReportHistoryEntry } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { compileForChildProcess, createTestDatabase, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, startMigratedService, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { startSmtpCatcher, type RunningSmtpCatcher } from '../../../tools/dev/smtp-catcher.mjs';
import { notificationsMigrations } from '../src/migrations.js';

// A trustee's report, end to end on the real services: access-keys as a child process (this checkout
// compiled to a scratch directory: apps never import each other), notifications in-process with its
// BullMQ workers, real PostgreSQL, Redis, NATS/JetStream, and the dev SMTP catcher counting what
// arrives. identity is a stand-in answering the owner's name and address, and publishing sign-ins
// on JetStream as its outbox relay does. The veto window is 8 seconds here (a test minimum;
// production boot refuses below 72 hours), so the halfway reminder comes 4 seconds after the report.

jest.setTimeout(240_000);

const STACK_ID = uniqueStackId('reportmail');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { RpcClient, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');
const { scopedSubject } = await import('@lv/platform/messaging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const KEY_MAIL_SECRET = 'report-notice-spec-key-mail-secret-'.padEnd(48, 'r');
const VETO_SECONDS = 8;
const PUBLIC_URL = 'http://127.0.0.1:3998';
const signer = new AccessTokenSigner(keys.privateKey);

interface Owner { id: string; token: string; email: string }
const newOwner = (): Owner => {
  const id = randomUUID();
  const email = `owner-${id.slice(0, 8)}@example.com`;
  return { id, email, token: signer.sign({ sub: id, sid: randomUUID(), email, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 900).token };
};

describe('trustee reports: the e-mails at the SMTP catcher', () => {
  let accessDb: TestDatabase;
  let notificationsDb: TestDatabase;
  let scratch: string;
  let mailDir: string;
  let access: ChildService;
  let notifications: Awaited<ReturnType<typeof startService>>;
  let catcher: RunningSmtpCatcher;
  let identity: NatsConnection;
  let rpc: InstanceType<typeof RpcClient>;
  const owners = new Map<string, Owner>();

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'report-notice-spec', ip: '192.0.2.81', userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const mailsTo = (address: string) => catcher.messages.filter((m) => m.envelope.to.includes(address));
  const subjectsTo = (address: string) => mailsTo(address).map((m) => m.subject);
  const noticeRows = (reportId: string) =>
    notifications.core.orm.em.fork().execute<{ notice_id: string; state: string; last_error: string | null }[]>(
      `select notice_id, state, last_error from trustee_report_notices where notice_id like ? order by notice_id`, [`${reportId}-%`],
    );
  const linkIn = (text: string) => Object.fromEntries(new URL(/(http\S+\/trustee\?\S+)/.exec(text)![1]!).searchParams);

  /** An accepted trustee of a new owner, and the trustee's current link (from the e-mails). */
  const ownerWithTrustee = async (name: string) => {
    const owner = newOwner();
    owners.set(owner.id, owner);
    const email = `${name.toLowerCase()}-${owner.id.slice(0, 8)}@example.com`;
    await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name, email, relationship: 'My Sibling' }, owner.token) as Trustee;
    await waitFor(() => mailsTo(email).length === 1, 30_000, 'the invitation at the catcher');
    await call(AccessKeysRpc.answerTrustee, { ...linkIn(mailsTo(email)[0]!.text), answer: 'accept' });
    await call(AccessKeysRpc.requestTrusteeLink, { email });
    await waitFor(() => mailsTo(email).length === 2, 30_000, 'the trustee link at the catcher');
    return { owner, trustee: { email, link: linkIn(mailsTo(email)[1]!.text) } };
  };
  const report = async (link: Record<string, string>) => {
    await call(AccessKeysRpc.reportOwner, { ...link, kind: 'incapacitated', note: 'Taken to hospital on Monday' });
  };
  const openReport = (owner: Owner) => call(AccessKeysRpc.openTrusteeReport, {}, owner.token) as Promise<{ report: TrusteeReport | null; history: TrusteeReportHistoryEntry[] }>;

  /** identity's UserSignedIn, as its outbox relay publishes it (Nats-Msg-Id: the event id). */
  const publishSignIn = async (userId: string, signedInAt: string) => {
    const eventId = randomUUID();
    const h = natsHeaders();
    h.set('Nats-Msg-Id', eventId);
    const body = { eventId, type: 'UserSignedIn', streamId: `user-activity-${userId}`, version: 1, occurredAt: signedInAt, data: { userId, sessionId: randomUUID(), signedInAt }, metadata: {} };
    await jetstream(identity).publish(scopedSubject(IdentityEvents.UserSignedIn, STACK_ID), JSON.stringify(body), { headers: h });
  };

  beforeAll(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'lv-report-mail-'));
    catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0, directory: mailDir });
    notificationsDb = await createTestDatabase(notificationsMigrations.slice(1), 'reportmail');
    // access-keys migrates its own database.
    accessDb = await createTestDatabase([], 'reportmailak');
    identity = await connect({ servers: NATS_URL, name: 'identity-stand-in' });
    const answer = <D extends RpcDeclaration>(declaration: D, reply: (userId: string) => unknown) =>
      identity.subscribe(scopedSubject(declaration, STACK_ID), {
        callback: (_err, msg) => {
          const request = msg.json<{ id: string; data: { payload: { user_id: string } } }>();
          msg.respond(JSON.stringify({ id: request.id, isDisposed: true, response: reply(request.data.payload.user_id) }));
        },
      });
    answer(IdentityRpc.ownerDisplayName, () => ({ full_name: 'Sam Taylor' }));
    answer(IdentityRpc.ownerMailTo, (userId) => ({ email: owners.get(userId)?.email ?? null, full_name: 'Sam Taylor' }));
    await identity.flush();

    scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/access-keys'], 'reportmail');
    const common = { NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, KEY_MAIL_SECRET, STACK_ID };
    const accessEnv = {
      ...common, DATABASE_URL: accessDb.url, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, LOG_LEVEL: 'info',
      TRUSTEE_REPORT_VETO_HOURS: String(VETO_SECONDS / 3600),
    };
    // identity is a stand-in here: its stream is made as identity would (access-keys only waits for it).
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    access = await startMigratedService(scratch, 'access-keys', accessEnv);
    notifications = await startService(notificationsService, {
      ...common, DATABASE_URL: notificationsDb.url, LOG_LEVEL: 'silent', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.smtpPort), SMTP_IGNORE_TLS: 'true', PUBLIC_URL,
    }, { logger: createLogger('report-notice-spec', 'silent') });
    rpc = new RpcClient(NATS_URL, 10_000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await deleteStackStreams(NATS_URL, ['access-keys', 'notifications', 'identity'], STACK_ID);
    await access?.kill('SIGTERM');
    await notifications?.close();
    await identity?.close();
    await catcher?.close();
    await accessDb?.drop();
    await notificationsDb?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    if (mailDir) await rm(mailDir, { recursive: true, force: true });
  });

  it('tells the owner at once and at half-time; his sign-in closes the report, stops the delivery, and the reporter is told it was withdrawn, once each', async () => {
    const { owner, trustee } = await ownerWithTrustee('Ann');
    await report(trustee.link);
    const { report: open } = await openReport(owner);
    expect(open).toMatchObject({ trusteeName: 'Ann', kind: 'incapacitated' });

    await waitFor(() => mailsTo(owner.email).length === 1, 30_000, "the owner's report e-mail");
    const [told] = mailsTo(owner.email);
    expect(told!.subject).toBe('Legacy Vault: Ann reported that you are incapacitated (e.g. in hospital)');
    expect(told!.text).toContain('Their note: Taken to hospital on Monday');
    expect(told!.text).toContain(`${PUBLIC_URL}/if-im-not-there`);
    // The halfway reminder, 4 seconds in (24 h before the end comes before halfway in an 8-second window: no second one).
    await waitFor(() => mailsTo(owner.email).length === 2, 30_000, "the owner's reminder");
    expect(mailsTo(owner.email)[1]!.subject).toMatch(/^Reminder: your Legacy Vault will be delivered on /);
    expect(((await call(AccessKeysRpc.delivery, {}, owner.token)) as DeliveryView).status).toBe('waiting');

    // A sign-in from before the report, delivered late, closes nothing; the one after it does.
    await publishSignIn(owner.id, new Date(Date.parse(open!.reportedAt) - 60_000).toISOString());
    await publishSignIn(owner.id, new Date().toISOString());
    await waitFor(() => mailsTo(trustee.email).length === 3, 30_000, 'the withdrawn notice to the reporter');
    const withdrawn = mailsTo(trustee.email)[2]!;
    expect(withdrawn.subject).toBe('Your report about Sam Taylor has been withdrawn');
    expect(withdrawn.text).toContain('nothing will be released');
    for (const secret of [owner.email, 'hospital on Monday', 'signed in', 'if-im-not-there']) expect(withdrawn.text + withdrawn.html).not.toContain(secret);

    const after = await openReport(owner);
    expect(after.report).toBeNull();
    expect(after.history).toEqual([expect.objectContaining({ trusteeName: 'Ann', kind: 'incapacitated', closedBy: 'sign-in', closedAt: expect.any(String) })]);
    expect(((await call(AccessKeysRpc.delivery, {}, owner.token)) as DeliveryView).status).toBe('cancelled');
    const reportId = after.history[0]!.reportId;
    await waitFor(async () => (await noticeRows(reportId)).every((r) => r.state === 'sent') && (await noticeRows(reportId)).length === 3, 10_000, 'three notices recorded sent');
    // Past the window's end: no further e-mail, and no key e-mail (nothing was released).
    await waitFor(() => Date.now() > Date.parse(open!.vetoEndsAt) + 2000, 20_000, 'the window over');
    expect(subjectsTo(owner.email)).toHaveLength(2);
    expect(subjectsTo(trustee.email)).toHaveLength(3);
    expect(((await call(AccessKeysRpc.delivery, {}, owner.token)) as DeliveryView).status).toBe('cancelled');
  });

  it('"I\'m still here" before half-time: the reminder is cancelled (recorded, never sent), the reporter told once; a check-in closes the next report too', async () => {
    const { owner, trustee } = await ownerWithTrustee('Bo');
    await report(trustee.link);
    await waitFor(() => mailsTo(owner.email).length === 1, 30_000, "the owner's report e-mail");
    await call(AccessKeysRpc.vetoTrusteeReport, {}, owner.token);
    await waitFor(() => mailsTo(trustee.email).length === 3, 30_000, 'the withdrawn notice');
    const [first] = (await openReport(owner)).history;
    expect(first).toMatchObject({ closedBy: 'veto' });
    await waitFor(async () => (await noticeRows(first!.reportId)).length === 3, 30_000, 'the reminder job done');
    expect(await noticeRows(first!.reportId)).toEqual([
      { notice_id: `${first!.reportId}-reminder-1`, state: 'failed', last_error: 'the owner answered before it went' },
      { notice_id: `${first!.reportId}-reported`, state: 'sent', last_error: null },
      { notice_id: `${first!.reportId}-withdrawn`, state: 'sent', last_error: null },
    ]);
    expect(mailsTo(owner.email)).toHaveLength(1);

    // A second trustee reports; the owner's "I'm still here" on the delivery (a check-in) closes it.
    const bea = `bea-${owner.id.slice(0, 8)}@example.com`;
    await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: 'Bea', email: bea, relationship: 'My Friend' }, owner.token);
    await waitFor(() => mailsTo(bea).length === 1, 30_000, "Bea's invitation");
    await call(AccessKeysRpc.answerTrustee, { ...linkIn(mailsTo(bea)[0]!.text), answer: 'accept' });
    await call(AccessKeysRpc.requestTrusteeLink, { email: bea });
    await waitFor(() => mailsTo(bea).length === 2, 30_000, "Bea's link");
    await report(linkIn(mailsTo(bea)[1]!.text));
    await waitFor(() => mailsTo(owner.email).length === 2, 30_000, "the owner's second report e-mail");
    await call(AccessKeysRpc.cancelDelivery, {}, owner.token);
    await waitFor(() => mailsTo(bea).length === 3, 30_000, "Bea's withdrawn notice");
    const history = (await openReport(owner)).history;
    expect(history.map((h) => [h.trusteeName, h.closedBy])).toEqual([['Bea', 'check-in'], ['Bo', 'veto']]);
    expect(mailsTo(trustee.email)).toHaveLength(3);
  });
});
