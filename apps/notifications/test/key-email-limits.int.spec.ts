import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { keyEmailSealContext, Queues, type SendKeyEmailJob } from '@lv/contracts';
import { startService, type RunningService } from '@lv/platform/nest';
import { sealForJob } from '@lv/platform/queues';
import { uniqueStackId, waitFor } from '@lv/testing';
import { startKeyEmailStack, type KeyEmailStack } from './test-support/key-email-stack.js';
import type { NotificationsConfig } from '../src/config.js';
import { keyEmailStreamId } from '../src/key-emails/key-email.decider.js';

// The daily limits on key e-mails, small here (3 per owner, 2 per recipient): the worker, the last step
// before SMTP, counts its own sent rows in key_emails; over a limit the e-mail fails for good at once.

jest.setTimeout(240_000);

const STACK_ID = uniqueStackId('notify-limits');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { KeyEmailsService } = await import('../src/key-emails/key-emails.service.js');
const { createLogger } = await import('@lv/platform/logging');

const KEY_MAIL_SECRET = 'notify-limits-spec-key-mail-secret-'.padEnd(48, 'z');

describe('notifications: daily limits on key e-mails per owner and per recipient', () => {
  let stack: KeyEmailStack;
  let running: RunningService<NotificationsConfig>;
  const mailsTo = (address: string) => stack.catcher.messages.filter((m) => m.envelope.to.some((to) => to.toLowerCase() === address));
  const row = async (keyId: string) => (await stack.db.orm.em.fork().execute<{ state: string; last_error: string | null }[]>(
    'select state, last_error from key_emails where key_id = ?', [keyId]))[0];

  /** Queues a key e-mail and waits for its outcome: the job done (sent) or failed for good and recorded. */
  async function mail(ownerId: string, recipientEmail: string): Promise<{ keyId: string; state: string | undefined; lastError: string | null | undefined }> {
    const keyId = randomUUID();
    const job: SendKeyEmailJob = {
      keyId, ownerId, recipientEmail, recipientName: 'Ellie', sharedBy: 'dad@example.com',
      sealedKey: sealForJob(KEY_MAIL_SECRET, keyEmailSealContext(keyId), randomUUID()), expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), scopes: ['letters'],
    };
    await stack.queue.add(Queues.KeyEmails.name, job, { jobId: `key-${keyId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
    await waitFor(async () => ['sent', 'failed'].includes((await row(keyId))?.state ?? ''), 30_000, `the outcome of key ${keyId}'s e-mail`);
    const outcome = await row(keyId);
    return { keyId, state: outcome?.state, lastError: outcome?.last_error };
  }

  beforeAll(async () => {
    stack = await startKeyEmailStack(STACK_ID, 'notify-limits', KEY_MAIL_SECRET);
    running = await startService(notificationsService, stack.env({ KEY_EMAILS_PER_OWNER_PER_DAY: '3', KEY_EMAILS_PER_RECIPIENT_PER_DAY: '2' }), {
      logger: createLogger('notify-limits-spec', 'silent'),
    });
  });

  afterAll(async () => {
    await running?.close();
    await stack?.close();
  });

  it('fails the third e-mail to one address and the fourth of one owner for good, with the reason; other owners and addresses still get theirs', async () => {
    const owner = randomUUID();
    const ellie = `ellie-${owner.slice(0, 8)}@example.com`;
    // Below the recipient limit: both go.
    expect((await mail(owner, ellie)).state).toBe('sent');
    expect((await mail(owner, `Ellie-${owner.slice(0, 8)}@Example.com`)).state).toBe('sent');

    const third = await mail(owner, ellie);
    expect(third).toMatchObject({ state: 'failed', lastError: 'daily-limit: 2 key e-mails already went to this address in the last 24 hours' });
    expect(mailsTo(ellie)).toHaveLength(2);
    // Failed for good at its first attempt: no retry is left to send it later.
    const job = await stack.queue.getJob(`key-${third.keyId}`);
    expect({ state: await job?.getState(), attempts: job?.attemptsMade }).toEqual({ state: 'failed', attempts: 1 });
    const events = await stack.db.orm.em.fork().execute<{ type: string; reason: string }[]>(
      `select type, data->>'reason' as reason from events where stream_id = ?`, [keyEmailStreamId(third.keyId)]);
    expect(events).toEqual([{ type: 'KeyEmailFailed', reason: third.lastError }]);
    // Nothing of the address in what access-keys reads (the reason) or in what is kept (a keyed hash).
    expect(JSON.stringify(await stack.db.orm.em.fork().execute('select * from key_emails'))).not.toMatch(/example\.com/i);

    // Two sent for this owner, under his limit of 3: a new address still gets its e-mail; the next is over it.
    const fern = `fern-${owner.slice(0, 8)}@example.com`;
    expect((await mail(owner, fern)).state).toBe('sent');
    const overOwner = await mail(owner, `gus-${owner.slice(0, 8)}@example.com`);
    expect(overOwner).toMatchObject({ state: 'failed', lastError: 'daily-limit: 3 key e-mails already went for this owner in the last 24 hours' });

    // Another owner is not held back by the first one's count.
    const other = await mail(randomUUID(), `hal-${owner.slice(0, 8)}@example.com`);
    expect(other.state).toBe('sent');
  });

  it("lets an operator's resend of an e-mail held back by a limit through", async () => {
    const owner = randomUUID();
    const ivy = `ivy-${owner.slice(0, 8)}@example.com`;
    await mail(owner, ivy);
    await mail(owner, ivy);
    const held = await mail(owner, ivy);
    expect(held.state).toBe('failed');

    const reply = await running.app.get(KeyEmailsService).resend(held.keyId);
    expect(reply).toMatchObject({ status: 'retried', detail: expect.stringContaining('daily-limit') });
    await waitFor(async () => (await row(held.keyId))?.state === 'sent', 30_000, 'the resent key e-mail');
    expect(mailsTo(ivy)).toHaveLength(3);
  });
});
