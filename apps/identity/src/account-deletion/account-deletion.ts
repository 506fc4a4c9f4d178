import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountDeletionMessages, SUDO_WINDOW_SECONDS, type AccountDeletionStatus, type AccountErasureJob, type EraseDueAccountsReply, type RequestMeta } from '@lv/contracts';
import { ownerOf, requireRecentProof, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { ErasureHandler } from '@lv/platform/event-store';
import { newResetToken, resetIdOf, tokenMatches } from '../credentials/reset-tokens.js';
import type { IdentityCore } from '../use-cases/identity-core.js';
import { expiresAfter } from '../use-cases/identity-rules.js';
import { userActivityStreamId, userStreamId } from '../users/user.decider.js';
import { AccountDeletionRepository } from './account-deletion.repository.js';

/** The "keep my account" link's page: the token in the fragment, so no server's log sees it. */
export const keepAccountLinkPath = (token: string) => `/keep-account#${new URLSearchParams({ token }).toString()}`;

/** The deletion's timer: one delayed job per deletion, under the id the re-derivation uses too. */
export const accountErasureJobId = (deletionId: string) => `account-erasure-${deletionId}`;

export interface AccountDeletionDeps {
  /** How long the owner can keep his account after asking to delete it (ACCOUNT_DELETION_GRACE_SECONDS). */
  graceSeconds: number;
  /** Adds the deletion's delayed job (account-erasure queue), idempotent by its id. */
  schedule: (job: AccountErasureJob) => Promise<unknown>;
  /** Deletes the user's naming events (address, name) from identity's own stream; how many (published-words.ts). */
  deletePublishedWords: (userId: string) => Promise<number>;
}

export type ErasureOutcome = { outcome: 'erased' } | { outcome: 'not-due'; dueAt: string } | { outcome: 'nothing' };

const dateOf = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/**
 * Deleting the account: asked for in sudo mode with the word typed, it waits out a grace period
 * (7 days) during which the owner keeps it from Settings or by the e-mailed link; then the timer erases
 * it: AccountErased is published (every service erases what it holds of him), every session ends, and
 * identity's rows of him are deleted and his stored events no longer name him, in one transaction,
 * journaled so a restore of an older snapshot erases the account again.
 */
export class AccountDeletion {
  readonly repository = new AccountDeletionRepository();

  constructor(private readonly core: IdentityCore, private readonly deps: AccountDeletionDeps) {}

  async status(caller: Caller): Promise<AccountDeletionStatus> {
    const pending = await this.repository.ofUser(this.core.em, ownerOf(caller).userId);
    return { scheduled: !!pending, dueAt: pending?.due_at ?? null, message: '' };
  }

  /**
   * Schedules the deletion (sudo mode: the password given within SUDO_WINDOW_SECONDS; the word typed,
   * checked by the decider). The owner's address gets the date and a "keep my account" link that works
   * once, until the deletion is due. The timer's job is added after the commit; should that fail, the
   * re-derivation adds it within ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS.
   */
  async request(caller: Caller, input: { confirmation: string }, meta: RequestMeta): Promise<AccountDeletionStatus> {
    const owner = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const keep = newResetToken();
    const now = new Date();
    const dueAt = expiresAfter(now, this.deps.graceSeconds);
    await this.core.execute(owner.userId, { type: 'RequestAccountDeletion', userId: owner.userId, deletionId: keep.resetId, confirmation: input.confirmation, now: now.toISOString(), dueAt },
      { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId },
      (em) => this.repository.insert(em, { deletionId: keep.resetId, userId: owner.userId, tokenHash: keep.tokenHash, requestedAt: now.toISOString(), dueAt }));
    await this.deps.schedule({ userId: owner.userId, deletionId: keep.resetId, dueAt }).catch((err: unknown) => this.core.deps.logger.error({ err, userId: owner.userId }, 'could not add the account erasure job: the re-derivation adds it'));
    const profile = await this.core.getProfile(owner.userId);
    await this.core.deps.sendAccountEmail({
      emailId: keep.resetId, userId: owner.userId, kind: 'account-deletion-scheduled', to: profile.email, at: now.toISOString(), expiresAt: dueAt,
      sealedLink: this.core.sealedLink(keep.resetId, keepAccountLinkPath(keep.token)),
    });
    return { scheduled: true, dueAt, message: AccountDeletionMessages.scheduled(dateOf(dueAt)) };
  }

  /** "Keep my account" in Settings, signed in (no sudo: keeping is never the dangerous way). */
  async cancel(caller: Caller, meta: RequestMeta): Promise<AccountDeletionStatus> {
    const { userId } = ownerOf(caller);
    await this.core.execute(userId, { type: 'CancelAccountDeletion', userId, now: new Date().toISOString() }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId },
      async (em, events) => {
        for (const event of events) if (event.type === 'AccountDeletionCancelled') await this.repository.remove(em, event.data.deletionId);
      });
    return { scheduled: false, dueAt: null, message: AccountDeletionMessages.kept };
  }

  /** The e-mailed link: its token is the proof. Used, lapsed, altered, of a deletion kept since or another account's: ACCOUNT_DELETION_LINK_INVALID alike. */
  async keepByLink(input: { token: string }, meta: RequestMeta): Promise<AccountDeletionStatus> {
    const id = resetIdOf(input.token);
    const link = id ? await this.repository.byId(this.core.em, id) : undefined;
    if (!link || !tokenMatches(input.token, link.token_hash)) throw new DomainError('ACCOUNT_DELETION_LINK_INVALID');
    await this.core.execute(link.user_id, { type: 'CancelAccountDeletion', userId: link.user_id, deletionId: link.deletion_id, now: new Date().toISOString() },
      { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId },
      (em) => this.repository.remove(em, link.deletion_id));
    return { scheduled: false, dueAt: null, message: AccountDeletionMessages.kept };
  }

  /**
   * The timer's job (and account:erase-due): the user stream decides whether this deletion is still
   * pending and due; a duplicate, a retry, a job of a deletion kept since or an early wake-up erases
   * nothing. Erasing: AccountErased appended and published through the outbox, and in the same
   * transaction every identity row of the account deleted, its stored events blanked, the erasure
   * journaled; then the access tokens of its sessions are refused.
   */
  async erase(job: Pick<AccountErasureJob, 'userId' | 'deletionId'>): Promise<ErasureOutcome> {
    let sessions: string[] = [];
    const { events } = await this.core.execute(job.userId, { type: 'EraseAccount', userId: job.userId, deletionId: job.deletionId, now: new Date().toISOString() },
      { actor: { kind: 'system', id: 'account-deletion' }, correlationId: accountErasureJobId(job.deletionId) },
      async (em, appended) => {
        const erased = appended.find((event) => event.type === 'AccountErased');
        if (erased) sessions = await this.eraseRows(em, job.userId, erased.data.erasedAt);
      });
    if (events.length) {
      await this.core.revokeAll(sessions);
      await this.forgetPublishedWords(job.userId);
      return { outcome: 'erased' };
    }
    const pending = await this.repository.byId(this.core.em, job.deletionId);
    return pending && pending.user_id === job.userId ? { outcome: 'not-due', dueAt: pending.due_at } : { outcome: 'nothing' };
  }

  /** Operators' `account:erase-due`: every deletion past its grace period erased now (what the timers do). */
  async eraseDue(): Promise<EraseDueAccountsReply> {
    let erased = 0;
    for (const due of await this.repository.pending(this.core.em, new Date())) {
      if ((await this.erase({ userId: due.user_id, deletionId: due.deletion_id })).outcome === 'erased') erased++;
    }
    return { erased };
  }

  /**
   * Re-derives the timers from account_deletions (at start and every ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS):
   * each pending deletion gets its job again under its own id, a no-op while the job is still in Redis.
   */
  async rearm(): Promise<number> {
    const pending = await this.repository.pending(this.core.em);
    for (const row of pending) await this.deps.schedule({ userId: row.user_id, deletionId: row.deletion_id, dueAt: row.due_at });
    return pending.length;
  }

  /**
   * The erasure journal's handler: a restore of a snapshot older than the erasure brought the account
   * back; it is erased again (AccountErased appended and published again, its rows deleted again).
   */
  readonly erasureHandler: ErasureHandler = {
    streamType: 'user',
    eraseAgain: async (streamId) => {
      const userId = streamId.slice('user-'.length);
      let sessions: string[] = [];
      const { events } = await this.core.execute(userId, { type: 'EraseAccountAgain', userId, now: new Date().toISOString() },
        { actor: { kind: 'system', id: 'erasure-journal' } },
        async (em, appended) => {
          const erased = appended.find((event) => event.type === 'AccountErased');
          // Journaled already: only the rows and words go again.
          if (erased) sessions = await this.eraseRows(em, userId, null);
        });
      await this.core.revokeAll(sessions);
      // Alive again (a restore brought him back): what was published since may name him again.
      if (events.length) await this.forgetPublishedWords(userId);
      return events.length > 0;
    },
  };

  /**
   * After the erasure commits: his address and name as published long ago leave identity's stream. A
   * failure is logged and does not undo the erasure; the next start's journal replay deletes them.
   */
  private async forgetPublishedWords(userId: string): Promise<void> {
    try {
      await this.deps.deletePublishedWords(userId);
    } catch (err) {
      this.core.deps.logger.error({ err, userId }, "could not delete an erased account's published events from identity's stream: they still hold his address until deleted by hand (README, Deleting an account)");
    }
  }

  /** Identity's part of an erasure, in the append's transaction: the live sessions' ids (to refuse their tokens once it commits). */
  private async eraseRows(em: EntityManager, userId: string, journalAt: string | null): Promise<string[]> {
    const sessions = await this.repository.liveSessionIds(em, userId);
    await this.repository.deleteAccountRows(em, userId);
    await this.repository.eraseStoredWords(em, [userStreamId(userId), userActivityStreamId(userId)]);
    if (journalAt) await this.repository.journal(em, userStreamId(userId), journalAt);
    return sessions;
  }
}
