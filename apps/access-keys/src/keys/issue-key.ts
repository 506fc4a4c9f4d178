import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { AccessMessages, KEY_EMAIL_NOT_VERIFIED_REASON, VIEW_SECTIONS, type CreateAccessKeyInput, type IssuedAccessKey, type KeyDraft, type RequestMeta, type SendKeyEmailJob } from '@lv/contracts';
import { ownerOf, type Caller, type UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { decideAndAppend, retryOnConflict, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import { ownerActor } from '../owner-actor.js';
import { hashAccessKey, sealKeyForMail } from '../secrets.js';
import { KeyDrafts } from './key-drafts.js';
import { decideIssueRetry, KEY_STREAM_TYPE, keyDecider, keyStreamId, type KeyCommand } from './key.decider.js';
import { issuedKeyOf, type KeysRepository } from './keys.repository.js';

const DAY_MS = 24 * 3600 * 1000;

export type IssueKeyCommand = Extract<KeyCommand, { type: 'IssueKey' }>;

export interface IssueKeyDeps {
  orm: MikroORM;
  store: EventStore;
  keyEmails: TypedQueue<SendKeyEmailJob>;
  keyMailSecret: string;
  /** The issued keys, to answer a Save sent again after its key was issued. */
  keys: Pick<KeysRepository, 'byHash'>;
  now: () => Date;
}

/**
 * Issues keys with their e-mail: the owner's own (Generate Keys), an approved request's, a contact's,
 * a delivery's, a milestone letter's. The key itself is returned once and stored only as its hash.
 */
export class IssueKey {
  private readonly drafts: KeyDrafts;

  constructor(private readonly deps: IssueKeyDeps) {
    this.drafts = new KeyDrafts(deps.keyMailSecret, deps.now);
  }

  /** "Generate Access Key": a key made here for the owner, which Save brings back with its draft. */
  draft(caller: Caller): KeyDraft {
    return this.drafts.make(ownerOf(caller).userId);
  }

  /** Generate Keys tab: the key "Generate Access Key" made for this owner, for a named family member. */
  async create(caller: Caller, input: CreateAccessKeyInput, meta: RequestMeta): Promise<IssuedAccessKey> {
    const owner = ownerOf(caller);
    if (!this.drafts.verify(owner.userId, input.access_key, input.draft)) throw new DomainError('VALIDATION_FAILED', AccessMessages.keyDraftInvalid);
    const now = this.deps.now().toISOString();
    const command: IssueKeyCommand = {
      type: 'IssueKey', keyId: randomUUID(), ownerId: owner.userId, keyHash: hashAccessKey(input.access_key), source: 'owner', requestId: null,
      scopes: input.scopes ?? [...VIEW_SECTIONS], expiresAt: new Date(Date.parse(now) + input.expires_in_days * DAY_MS).toISOString(),
      recipient: { recipientEmail: input.email, name: input.name }, now, ...(input.allow_download ? { allowDownload: true } : {}),
    };
    try {
      return await this.issue(owner, meta, command, input.access_key);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'KEY_TAKEN')) throw error;
      // The same Save sent again after its answer was lost is answered as it was; anything else stays KEY_TAKEN.
      const row = await this.deps.keys.byHash(command.keyHash);
      const issued = decideIssueRetry(row && issuedKeyOf(row), command);
      return {
        key_id: issued.keyId, access_key: input.access_key, recipient_email: issued.recipientEmail, expires_at: issued.expiresAt, scopes: [...command.scopes],
        emailed: row?.email_failure !== 'email_not_verified',
      };
    }
  }

  /**
   * Issues a key, and whatever the key is for (an approved request, a contact's toggle: `alongside`),
   * in one transaction, queueing its e-mail job before the commit: a committed key always has its
   * job, and a job whose key did not commit finds it 'unknown' and is never sent. A key hash already
   * issued (any vault) is KEY_TAKEN.
   *
   * An owner whose address is not verified (his token's claim, see UserCaller.emailVerified) still
   * gets the key, to copy and share himself, but nothing is e-mailed on his behalf: no job is queued
   * and the key's e-mail status says why (email_failure 'email_not_verified').
   */
  async issue(
    owner: UserCaller, meta: RequestMeta, command: IssueKeyCommand, key: string,
    alongside?: (em: EntityManager, metadata: EventMetadata) => Promise<unknown>,
  ): Promise<IssuedAccessKey> {
    const metadata = ownerActor(owner, meta);
    try {
      await retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
        if (alongside) await alongside(em, metadata);
        if (owner.emailVerified) await this.issueIn(em, metadata, command, key, owner.email);
        else await this.issueWithoutEmail(em, metadata, command);
      }));
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('KEY_TAKEN', AccessMessages.keyTaken);
      throw error;
    }
    return { key_id: command.keyId, access_key: key, recipient_email: command.recipient.recipientEmail, expires_at: command.expiresAt, scopes: command.scopes, emailed: owner.emailVerified };
  }

  /** Appends a key whose e-mail is withheld (its owner's address is unverified): the key's e-mail status records why, in the same commit. */
  private async issueWithoutEmail(em: EntityManager, metadata: EventMetadata, command: IssueKeyCommand): Promise<void> {
    const target = { streamId: keyStreamId(command.keyId), streamType: KEY_STREAM_TYPE, metadata };
    await decideAndAppend(em, this.deps.store, keyDecider, command, target);
    await decideAndAppend(em, this.deps.store, keyDecider, { type: 'RecordEmailStatus', status: 'failed', at: command.now, messageId: null, reason: KEY_EMAIL_NOT_VERIFIED_REASON }, target);
  }

  /** Appends a key and queues its e-mail inside the caller's transaction (a delivery issues several in one). */
  async issueIn(em: EntityManager, metadata: EventMetadata, command: IssueKeyCommand, key: string, sharedBy: string): Promise<void> {
    await decideAndAppend(em, this.deps.store, keyDecider, command, { streamId: keyStreamId(command.keyId), streamType: KEY_STREAM_TYPE, metadata });
    await enqueue(this.deps.keyEmails, {
      keyId: command.keyId, ownerId: command.ownerId, recipientEmail: command.recipient.recipientEmail, recipientName: command.recipient.name, sharedBy,
      sealedKey: sealKeyForMail(this.deps.keyMailSecret, command.keyId, key), expiresAt: command.expiresAt, scopes: command.scopes,
      ...(command.letterId ? { oneLetter: true as const } : {}),
    }, `key-${command.keyId}`, { removeOnComplete: true });
  }
}
