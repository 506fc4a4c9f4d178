import type { MikroORM } from '@mikro-orm/postgresql';
import { accountEmailSealContext, type AccountEmailJob } from '@lv/contracts';
import { decideAndAppend, EventStore, handleCommand, retryOnConflict, type EventMetadata } from '@lv/platform/event-store';
import { openFromJob } from '@lv/platform/queues';
import type { Mailer } from '../key-emails/key-emails.service.js';
import { sendOnceDecider, sendOnceProjection, type SendOnceCommand } from '../send-once/send-once.js';
import { renderAccountEmail } from './account-email-message.js';

const ACCOUNT_EMAIL_STREAM_TYPE = 'account-email';
const accountEmailStreamId = (emailId: string) => `account-email-${emailId}`;
const accountEmailDecider = sendOnceDecider('AccountEmailSent', 'AccountEmailFailed');
export const accountEmailsProjection = sendOnceProjection('account_emails', 'email_id', 'AccountEmailSent', 'AccountEmailFailed');

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/**
 * E-mails about the owner's own account (identity queues them once the fact has committed): the reset
 * link and the password-changed notice, each sent at most once as trustee notices are (the row locked
 * from before the send to after it is recorded). Nothing is published.
 */
export class AccountEmailsService {
  readonly store = new EventStore({ publish: () => null, inlineProjections: [accountEmailsProjection] });

  constructor(private readonly deps: { orm: MikroORM; mailer: Mailer; keyMailSecret: string; publicUrl: string }) {}

  send(job: AccountEmailJob, attempt: number): Promise<'sent' | 'already-sent'> {
    return retryOnConflict(3, () => this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into account_emails (email_id) values (?) on conflict (email_id) do nothing`, [job.emailId]);
      const [row] = await em.execute<{ state: string }[]>(`select state from account_emails where email_id = ? for update`, [job.emailId]);
      if (row!.state === 'sent') return 'already-sent';
      await em.execute(`update account_emails set attempts = ?, updated_at = now() where email_id = ?`, [attempt, job.emailId]);
      const link = job.sealedLink ? openFromJob(this.deps.keyMailSecret, accountEmailSealContext(job.emailId), job.sealedLink) : null;
      const message = renderAccountEmail(job, link, this.deps.publicUrl);
      const { messageId } = await this.deps.mailer(message);
      await this.record(em, { type: 'RecordSent', id: job.emailId, ownerId: job.userId, messageId: messageId || message.messageId, attempts: attempt, now: new Date().toISOString() });
      return 'sent';
    }));
  }

  /** A job out of attempts (SMTP kept failing). */
  async recordFailed(job: AccountEmailJob, attempts: number, reason: string): Promise<void> {
    await handleCommand(this.deps.orm.em, this.store, accountEmailDecider, { type: 'RecordFailed', id: job.emailId, ownerId: job.userId, attempts, reason, now: new Date().toISOString() }, {
      streamId: accountEmailStreamId(job.emailId), streamType: ACCOUNT_EMAIL_STREAM_TYPE, metadata: SYSTEM,
    });
  }

  private record(em: Parameters<typeof decideAndAppend>[0], command: SendOnceCommand) {
    return decideAndAppend(em, this.store, accountEmailDecider, command, { streamId: accountEmailStreamId(command.id), streamType: ACCOUNT_EMAIL_STREAM_TYPE, metadata: SYSTEM });
  }
}
