import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { AccountEmailJob } from '@lv/contracts';
import { deleteStackStreams, makeStreamsAsOwners, publishAccountErased, tablesHolding, uniqueStackId, waitForIdentityConsumer } from '@lv/testing';
import { startKeyEmailStack, type KeyEmailStack } from './test-support/key-email-stack.js';

// Issue 32, "Delete my account", notifications' part: it keeps ids, states and times of the e-mails it
// sent, and a failure's reason (the SMTP server's words, which can name an address). identity's
// AccountErased, consumed from JetStream, replaces the reasons of the owner's e-mails; another owner's stay.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('notifacct');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { AccountEmailsService } = await import('../src/account-emails/account-emails.service.js');
const { ERASED_REASON } = await import('../src/account-erasure/account-erasure.js');
const { startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const KEY_MAIL_SECRET = 'notifications-erasure-spec-secret-'.padEnd(48, 'q');
const hex = () => randomBytes(4).toString('hex');

describe('notifications: an erased account', () => {
  let stack: KeyEmailStack;
  let service: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    stack = await startKeyEmailStack(STACK_ID, 'notif-acct', KEY_MAIL_SECRET);
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    service = await startService(notificationsService, stack.env(), { logger: createLogger('notifications-erasure-spec', 'silent') });
  });

  afterAll(async () => {
    await service?.close();
    await deleteStackStreams(NATS_URL, ['identity'], STACK_ID);
    await stack?.close();
  });

  it('replaces the SMTP servers\' words about the owner\'s e-mails, once, and not another owner\'s', async () => {
    const dad = randomUUID();
    const mum = randomUUID();
    const his = `his-${hex()}@example.com`;
    const hers = `hers-${hex()}@example.com`;
    const job = (userId: string, to: string): AccountEmailJob => ({ emailId: randomUUID(), userId, kind: 'password-changed', to, at: new Date().toISOString() });
    // Their e-mails ran out of attempts: the dead-letter path records the server's last refusal.
    const accountEmails = service.app.get(AccountEmailsService);
    await accountEmails.recordFailed(job(dad, his), 5, `550 5.1.1 <${his}>: mailbox unavailable`);
    await accountEmails.recordFailed(job(mum, hers), 5, `550 5.1.1 <${hers}>: mailbox unavailable`);
    expect(await tablesHolding(stack.db.name, his)).toEqual(['account_emails', 'events']);

    const nats = service.core.nats;
    const eventId = await publishAccountErased(nats, dad, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(nats, dad, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(nats, 'notifications-account-erasures', STACK_ID, 2);

    expect(await tablesHolding(stack.db.name, his)).toEqual([]);
    expect(await tablesHolding(stack.db.name, ERASED_REASON)).toEqual(['account_emails', 'events']);
    const inbox = await stack.db.orm.em.fork().execute('select consumer from inbox where event_id = ?', [eventId]);
    expect(inbox).toEqual([{ consumer: 'notifications-account-erasures' }]);
    // Hers is untouched.
    expect(await tablesHolding(stack.db.name, hers)).toEqual(['account_emails', 'events']);
  });
});
