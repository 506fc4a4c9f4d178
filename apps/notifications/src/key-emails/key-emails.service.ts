import { NotCommittedYet } from '../mail-dead-letter.js';
import { createHmac } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { DomainError } from '@lv/platform/errors';
import {
  decideAndAppend, EventStore, handleCommand, rebuildProjections, retryOnConflict, type EventMetadata, type RebuildReport,
} from '@lv/platform/event-store';
import { KEY_EMAIL_DAILY_LIMIT_REASON, keyEmailSealContext, type SendKeyEmailJob } from '@lv/contracts';
import { openFromJob, type TypedQueue } from '@lv/platform/queues';
import { renderKeyEmail, type KeyEmailMessage } from './key-email-message.js';
import { KEY_EMAIL_STREAM_TYPE, keyEmailDecider, keyEmailStreamId, type KeyEmailCommand } from './key-email.decider.js';
import { keyEmailsProjection, notificationsPublishPolicy } from './key-emails.projection.js';

/** Sends a message over SMTP; resolves with the Message-ID the server accepted. */
export type Mailer = (message: KeyEmailMessage) => Promise<{ messageId: string }>;
/** access-keys' answer to "may this key's e-mail go?" ('unknown': its transaction has not committed). */
export type KeyMailState = (keyId: string) => Promise<'active' | 'expired' | 'revoked' | 'unknown'>;

/** The key is not committed yet (or never will be): the job retries with backoff, then gives up. */
export class KeyNotCommittedYet extends NotCommittedYet {
  constructor(keyId: string) {
    super(`access key ${keyId} is not committed yet`);
  }
}

/**
 * Over a daily limit: BullMQ fails the job at once, without retries (none would pass within the window),
 * and the worker records it failed with this message as its reason, which names no address.
 */
export class DailyLimitReached extends UnrecoverableError {
  constructor(what: 'owner' | 'recipient', limit: number) {
    super(`${KEY_EMAIL_DAILY_LIMIT_REASON}: ${limit} key e-mails already went ${what === 'owner' ? 'for this owner' : 'to this address'} in the last 24 hours`);
    this.name = 'DailyLimitReached';
  }
}

/** Key e-mails per rolling 24 hours (KEY_EMAILS_PER_OWNER_PER_DAY, KEY_EMAILS_PER_RECIPIENT_PER_DAY). */
export interface KeyEmailLimits {
  perOwner: number;
  perRecipient: number;
}

/** What key_emails keeps of a recipient: a keyed hash of the address as typed, case aside (the limit counts it, nobody can read it back). */
export const recipientHash = (secret: string, email: string) => createHmac('sha256', secret).update(`key-email-recipient:${email.trim().toLowerCase()}`).digest('hex');

const DAY_SECONDS = 86_400;

export interface KeyEmailsServiceDeps {
  orm: MikroORM;
  mailer: Mailer;
  keyMailState: KeyMailState;
  keyMailSecret: string;
  publicUrl: string;
  queue: TypedQueue<SendKeyEmailJob>;
  limits: KeyEmailLimits;
}

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/**
 * Key e-mails, once per key save one window. Each send runs inside a transaction that holds the key's
 * key_emails row locked (FOR UPDATE) from before the check to after the send is recorded, so a retried
 * job or a second worker waits, then finds it sent. The window no SMTP client can close: the server
 * accepted the message and this process died before its commit; the retry then sends it again with
 * the same Message-ID (keyEmailMessageId): at most one duplicate, which mail clients can de-duplicate
 * (key-email-crash-window.int.spec.ts).
 */
export class KeyEmailsService {
  readonly store = new EventStore({ publish: notificationsPublishPolicy, inlineProjections: [keyEmailsProjection] });

  constructor(private readonly deps: KeyEmailsServiceDeps) {}

  get orm(): MikroORM {
    return this.deps.orm;
  }

  /** One attempt at a job (the worker's processor). Throws to have BullMQ retry it (DailyLimitReached: to fail it for good). */
  send(job: SendKeyEmailJob, attempt: number): Promise<'sent' | 'already-sent' | 'refused'> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into key_emails (key_id) values (?) on conflict (key_id) do nothing`, [job.keyId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from key_emails where key_id = ? for update`, [job.keyId]);
      if (row!.state === 'sent') return 'already-sent';
      await em.execute(`update key_emails set attempts = ?, updated_at = now() where key_id = ?`, [attempt, job.keyId]);
      const state = await this.deps.keyMailState(job.keyId);
      if (state === 'unknown') throw new KeyNotCommittedYet(job.keyId);
      if (state !== 'active') {
        await this.record(em, { type: 'RecordFailed', keyId: job.keyId, attempts: attempt, reason: `the key is ${state}`, now: new Date().toISOString() });
        return 'refused';
      }
      const sentFor = { ownerId: job.ownerId, recipientHash: recipientHash(this.deps.keyMailSecret, job.recipientEmail) };
      // A key already recorded failed runs again only when an operator resends it: his decision bypasses the limits.
      if (row!.state !== 'failed') await this.checkLimits(em, sentFor);
      const message = renderKeyEmail(job, openFromJob(this.deps.keyMailSecret, keyEmailSealContext(job.keyId), job.sealedKey), this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', keyId: job.keyId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString(), ...sentFor });
      return 'sent';
    }));
  }

  /**
   * A job out of attempts: its key's e-mail is reported failed (access-keys shows it to the owner). Not
   * for a key that never committed (mailDeadLetter, 'leave-open'): there is nothing to show it on, and a
   * milestone key's id comes again when letters retries.
   */
  async recordFailed(keyId: string, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, keyEmailDecider, { type: 'RecordFailed', keyId, attempts, reason, now: new Date().toISOString() }, {
      streamId: keyEmailStreamId(keyId), streamType: KEY_EMAIL_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  /** Operators: retry a key e-mail whose job failed, a daily limit's included (send() lets it past them). A sent one is never sent again. */
  async resend(keyId: string): Promise<{ key_id: string; status: 'retried' | 'already-sent' | 'queued'; detail: string }> {
    const [row] = await this.deps.orm.em.fork().execute<{ state: string; message_id: string | null }[]>(`select state, message_id from key_emails where key_id = ?`, [keyId]);
    if (row?.state === 'sent') return { key_id: keyId, status: 'already-sent', detail: `Sent already (Message-ID ${row.message_id}); it is never sent twice.` };
    const job = await this.deps.queue.getJob(`key-${keyId}`);
    if (!job) throw new DomainError('NOT_FOUND', 'No e-mail job for this key (it was never queued, or was removed): ask the owner to issue a new key.');
    const state = await job.getState();
    if (state === 'failed') {
      // retry() clears them on the job object.
      const { attemptsMade, failedReason } = job;
      await job.retry();
      return { key_id: keyId, status: 'retried', detail: `The job had failed after ${attemptsMade} attempt(s) (${failedReason}); it is queued again.` };
    }
    return { key_id: keyId, status: 'queued', detail: `The job is ${state}: it will be sent (or retried) without help.` };
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  /**
   * Throws DailyLimitReached past either limit. Sends for one owner, and to one address, go one after the
   * other (advisory locks held to the commit, always owner first): the counts then see every send before.
   */
  private async checkLimits(em: EntityManager, { ownerId, recipientHash: hash }: { ownerId: string; recipientHash: string }): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`key-emails-owner:${ownerId}`]);
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`key-emails-recipient:${hash}`]);
    const [counts] = await em.execute<{ owner: number; recipient: number }[]>(
      `select count(*) filter (where owner_id = ?)::int as owner, count(*) filter (where recipient_hash = ?)::int as recipient
         from key_emails where state = 'sent' and sent_at > now() - make_interval(secs => ?) and (owner_id = ? or recipient_hash = ?)`,
      [ownerId, hash, DAY_SECONDS, ownerId, hash],
    );
    const { perOwner, perRecipient } = this.deps.limits;
    if (counts!.owner >= perOwner) throw new DailyLimitReached('owner', perOwner);
    if (counts!.recipient >= perRecipient) throw new DailyLimitReached('recipient', perRecipient);
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: KeyEmailCommand) {
    return decideAndAppend(em, this.store, keyEmailDecider, command, { streamId: keyEmailStreamId(command.keyId), streamType: KEY_EMAIL_STREAM_TYPE, metadata: SYSTEM });
  }
}
