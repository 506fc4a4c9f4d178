import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { accountEmailSealContext, Queues, type AccountEmailJob } from '@lv/contracts';
import type { RunningService } from '@lv/platform/nest';
import { queuePrefix, sealForJob } from '@lv/platform/queues';
import { uniqueStackId, waitFor } from '@lv/testing';
import { startKeyEmailStack, type KeyEmailStack } from './test-support/key-email-stack.js';
import type { NotificationsConfig } from '../src/config.js';

// Issue 32: the e-mails about an owner's own account (the reset link, "your password was changed"),
// sent by notifications' worker from the `account-emails` queue through the dev SMTP catcher, once each.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('acctmail');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { startService } = await import('@lv/platform/nest');
const SECRET = 'account-mail-spec-secret-of-32-characters!';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('notifications: account e-mails', () => {
  let stack: KeyEmailStack;
  let running: RunningService<NotificationsConfig>;
  let redis: Redis;
  let queue: Queue<AccountEmailJob>;
  const mailsTo = (address: string) => stack.catcher.messages.filter((m) => m.envelope.to.includes(address));

  beforeAll(async () => {
    stack = await startKeyEmailStack(STACK_ID, 'acct-mail', SECRET);
    running = await startService(notificationsService, stack.env());
    redis = new Redis(REDIS_URL);
    queue = new Queue<AccountEmailJob>(Queues.AccountEmails.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
  });

  afterAll(async () => {
    await running?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    redis?.disconnect();
    await stack?.close();
  });

  it('sends the reset link once, opened from its seal, with when it stops working', async () => {
    const emailId = randomUUID();
    const to = `dad-${emailId.slice(0, 8)}@example.com`;
    const path = `/reset-password#${new URLSearchParams({ email: to, token: `${emailId}.${'T'.repeat(43)}` }).toString()}`;
    const job: AccountEmailJob = {
      emailId, userId: randomUUID(), kind: 'password-reset', to, at: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-06T10:30:00.000Z',
      sealedLink: sealForJob(SECRET, accountEmailSealContext(emailId), path),
    };
    // Added twice under one id, as a retried producer would: one e-mail.
    await queue.add(Queues.AccountEmails.name, job, { jobId: `account-email-${emailId}` });
    await queue.add(Queues.AccountEmails.name, job, { jobId: `account-email-${emailId}` });
    await waitFor(() => mailsTo(to).length === 1, 30_000, 'the reset e-mail at the catcher');
    const [mail] = mailsTo(to);
    expect(mail!.subject).toBe('Legacy Vault: choose a new password');
    expect(mail!.text).toContain(`http://127.0.0.1:3999${path}`);
    expect(mail!.text).toContain('It works once, until 6 December 2026 at 10:30 UTC');
    expect(mail!.text).toContain('If you did not ask, you can ignore this e-mail');
    await waitFor(async () => (await running.core.orm.em.fork().execute<{ state: string }[]>('select state from account_emails where email_id = ?', [emailId]))[0]?.state === 'sent', 10_000, 'the e-mail recorded sent');
    expect(mailsTo(to)).toHaveLength(1);
  });

  it('tells the owner that his password was changed, with what to do if it was not him', async () => {
    const emailId = randomUUID();
    const to = `dad-${emailId.slice(0, 8)}@example.com`;
    await queue.add(Queues.AccountEmails.name, { emailId, userId: randomUUID(), kind: 'password-changed', to, at: '2026-12-06T11:00:00.000Z' }, { jobId: `account-email-${emailId}` });
    await waitFor(() => mailsTo(to).length === 1, 30_000, 'the notice at the catcher');
    const [mail] = mailsTo(to);
    expect(mail!.subject).toBe('Legacy Vault: your password was changed');
    expect(mail!.text).toContain('was changed on 6 December 2026 at 11:00 UTC');
    expect(mail!.text).toContain('"Forgot password?" at http://127.0.0.1:3999/auth');
  });
});
