import type { AccessKeySummary, RequestMeta, ViewSection } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { EventMetadata } from '@lv/platform/event-store';
import { ownerActor } from '../owner-actor.js';
import { endSession, type EndSessionDeps } from '../sessions/end-session.js';
import type { SessionsRepository } from '../sessions/sessions.repository.js';
import { KEY_STREAM_TYPE, keyDecider, keyStatusAt, keyStreamId } from './key.decider.js';
import type { KeyInUse, KeysRepository } from './keys.repository.js';

export interface OwnerKeysDeps extends EndSessionDeps {
  keys: Pick<KeysRepository, 'ofOwner'>;
  sessions: Pick<SessionsRepository, 'activeIdsOfKey'>;
  now: () => Date;
}

/** The owner's keys: listed with their use, and revoked together with every session they opened. */
export class OwnerKeys {
  constructor(private readonly deps: OwnerKeysDeps) {}

  async list(caller: Caller): Promise<AccessKeySummary[]> {
    const rows = await this.deps.keys.ofOwner(ownerOf(caller).userId);
    const now = this.deps.now().getTime();
    return rows.map((row) => toKeySummary(row, now));
  }

  /** Revokes a key and, at once, every view session opened with it (their tokens stop everywhere). */
  async revoke(caller: Caller, keyId: string, meta: RequestMeta): Promise<AccessKeySummary> {
    const owner = ownerOf(caller);
    const now = this.deps.now().toISOString();
    await this.deps.commands.run(keyDecider, { streamId: keyStreamId(keyId), streamType: KEY_STREAM_TYPE }, { type: 'RevokeKey', ownerId: owner.userId, now }, ownerActor(owner, meta));
    for (const sessionId of await this.deps.sessions.activeIdsOfKey(keyId)) {
      await endSession(this.deps, sessionId, { type: 'RevokeSession', ownerId: owner.userId, by: 'key-revoked', now }, ownerActor(owner, meta));
    }
    const summary = (await this.list(caller)).find((k) => k.id === keyId);
    if (!summary) throw new DomainError('NOT_FOUND');
    return summary;
  }

  /** The owner's account is erased: every key of his revoked and every session they opened ended, as he would; how many keys were live. */
  async revokeAllOf(ownerId: string, metadata: EventMetadata): Promise<number> {
    const now = this.deps.now().toISOString();
    let revoked = 0;
    for (const key of await this.deps.keys.ofOwner(ownerId)) {
      if (key.revoked_at === null) {
        await this.deps.commands.run(keyDecider, { streamId: keyStreamId(key.id), streamType: KEY_STREAM_TYPE }, { type: 'RevokeKey', ownerId, now }, metadata);
        revoked++;
      }
      for (const sessionId of await this.deps.sessions.activeIdsOfKey(key.id)) {
        await endSession(this.deps, sessionId, { type: 'RevokeSession', ownerId, by: 'key-revoked', now }, metadata);
      }
    }
    return revoked;
  }
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

function toKeySummary(row: KeyInUse, now: number): AccessKeySummary {
  return {
    id: row.id, name: row.name, recipient_email: row.recipient_email, source: row.source, request_id: row.request_id, scopes: row.scopes as ViewSection[],
    created_at: new Date(row.created_at).toISOString(), expires_at: new Date(row.expires_at).toISOString(), status: keyStatusAt(row, now), revoked_at: iso(row.revoked_at),
    email_status: row.email_status, email_sent_at: iso(row.email_sent_at), email_failure: row.email_failure ?? null, sessions: row.sessions, last_viewed_at: iso(row.last_viewed_at), allow_download: row.allow_download === true,
  };
}
