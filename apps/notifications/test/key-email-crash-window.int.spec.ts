import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import { keyEmailSealContext, Queues, type SendKeyEmailJob } from '@lv/contracts';
import { startService, type RunningService } from '@lv/platform/nest';
import { sealForJob } from '@lv/platform/queues';
import { compileForChildProcess, startChild, uniqueStackId, waitFor, type ChildService } from '@lv/testing';
import { startKeyEmailStack, type KeyEmailStack } from './test-support/key-email-stack.js';
import type { NotificationsConfig } from '../src/config.js';
import { keyEmailMessageId } from '../src/key-emails/key-email-message.js';
import { keyEmailStreamId } from '../src/key-emails/key-email.decider.js';

// The one window no SMTP client can close: the mail server has accepted the key e-mail (its 250 reached
// the worker) and the worker dies before "sent" is committed. The seam: the spec holds a SHARE lock on
// the events table, so the worker, its send accepted, waits to append KeyEmailSent; it is SIGKILLed
// while it waits (seen in pg_locks), its transaction never commits, and the job is retried. The best
// SMTP allows, and what this proves: the recipient gets at most one duplicate, with the same Message-ID.

jest.setTimeout(240_000);

const STACK_ID = uniqueStackId('notify-crash');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { KeyEmailsService } = await import('../src/key-emails/key-emails.service.js');
const { createLogger } = await import('@lv/platform/logging');

const KEY_MAIL_SECRET = 'notify-crash-spec-key-mail-secret-'.padEnd(48, 'z');

describe('notifications: a key e-mail accepted by SMTP, its worker killed before recording it', () => {
  let stack: KeyEmailStack;
  let running: RunningService<NotificationsConfig> | undefined;
  const env = () => stack.env({ KEY_EMAIL_LOCK_SECONDS: '2' });

  beforeAll(async () => {
    stack = await startKeyEmailStack(STACK_ID, 'notify-crash', KEY_MAIL_SECRET);
  });

  afterAll(async () => {
    await running?.close();
    await stack?.close();
  });

  it('sends the retry with the same Message-ID: at most one duplicate reaches the recipient, and "sent" is recorded once', async () => {
    const keyId = randomUUID();
    const key = randomUUID();
    const job: SendKeyEmailJob = {
      keyId, ownerId: randomUUID(), recipientEmail: `crash-${keyId.slice(0, 8)}@example.com`, recipientName: 'Ellie', sharedBy: 'dad@example.com',
      sealedKey: sealForJob(KEY_MAIL_SECRET, keyEmailSealContext(keyId), key), expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), scopes: ['letters'],
    };
    const { catcher, db, queue } = stack;
    const mails = () => catcher.messages.filter((m) => m.envelope.to.includes(job.recipientEmail));
    const scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/notifications'], 'notify-crash');
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    let child: ChildService | undefined;
    try {
      child = startChild(join(scratch, 'apps', 'notifications', 'main.js'), [], { ...env(), STACK_ID, LOG_LEVEL: 'info' });
      await child.waitForLine(/notifications is listening on NATS/, null);
      // Appends wait from here on (SHARE conflicts with the append's ROW EXCLUSIVE); reads go on.
      await blocker.query('begin');
      await blocker.query('lock table events in share mode');
      await queue.add(Queues.KeyEmails.name, job, { jobId: `key-${keyId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
      // The server has the message, and the worker, past its send, waits to record it.
      await waitFor(() => mails().length === 1, 60_000, 'the mail server to accept the key e-mail');
      await waitFor(async () => {
        const { rows } = await blocker.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where relation = 'events'::regclass and mode = 'RowExclusiveLock' and not granted`);
        return rows[0]!.n > 0;
      }, 60_000, 'the worker to wait to append KeyEmailSent', 5);
      await child.kill('SIGKILL');
      await blocker.query('commit');
      const recorded = await db.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where stream_id = ?`, [keyEmailStreamId(keyId)]);
      expect(recorded[0]!.n).toBe(0);

      // The next worker takes the job up once the dead one's lock lapses, and sends it again.
      running = await startService(notificationsService, env(), { logger: createLogger('notify-crash-spec', 'silent') });
      await waitFor(() => mails().length === 2, 60_000, 'the retried key e-mail');
      // Sentinel: the job is done and gone from Redis, so no attempt is left that could send a third.
      await waitFor(async () => (await queue.getJob(`key-${keyId}`)) === undefined, 30_000, 'the job to complete and leave Redis');
      expect(await running.app.get(KeyEmailsService).send(job, 9)).toBe('already-sent');

      const [first, retry, ...more] = mails();
      expect(more).toHaveLength(0);
      // One message to every mail client: the same Message-ID, subject and body.
      expect(first!.messageId).toBe(keyEmailMessageId(keyId));
      expect(retry!.messageId).toBe(first!.messageId);
      expect({ subject: retry!.subject, text: retry!.text }).toEqual({ subject: first!.subject, text: first!.text });
      expect(retry!.text).toContain(key);
      const sent = await db.orm.em.fork().execute<{ type: string; message_id: string }[]>(
        `select type, data->>'messageId' as message_id from events where stream_id = ?`, [keyEmailStreamId(keyId)]);
      expect(sent).toEqual([{ type: 'KeyEmailSent', message_id: keyEmailMessageId(keyId) }]);
      const [row] = await db.orm.em.fork().execute<{ state: string; message_id: string }[]>(`select state, message_id from key_emails where key_id = ?`, [keyId]);
      expect(row).toEqual({ state: 'sent', message_id: keyEmailMessageId(keyId) });
    } finally {
      await child?.kill('SIGKILL').catch(() => undefined);
      await blocker.query('rollback').catch(() => undefined);
      await blocker.end();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
