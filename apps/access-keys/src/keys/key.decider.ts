import { AccessMessages, keyEmailFailureOf, type AccessKeySource, type KeyEmailFailure, type ViewSection } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** Who a key is for: sealed in the event store under the key stream's own key (personal-sealing.ts). */
export interface RecipientDetails {
  recipientEmail: string;
  name: string | null;
}

export type KeyEvent =
  | {
      type: 'AccessKeyIssued';
      data: {
        keyId: string; ownerId: string; keyHash: string; source: AccessKeySource; requestId: string | null; scopes: ViewSection[];
        expiresAt: string; issuedAt: string; personal: RecipientDetails | null;
        /** A milestone key: limited to this one letter. */
        letterId?: string;
        /** The owner allowed downloads of originals with this key (absent in keys issued before: view only). */
        allowDownload?: boolean;
      };
    }
  | { type: 'AccessKeyRevoked'; data: { keyId: string; ownerId: string; revokedAt: string } }
  | { type: 'AccessKeyEmailStatusChanged'; data: { keyId: string; ownerId: string; status: 'sent' | 'failed'; at: string; messageId: string | null; reason: string | null } };

export interface KeyState {
  status: 'none' | 'active' | 'revoked';
  keyId: string | null;
  ownerId: string | null;
  expiresAt: string | null;
  emailStatus: 'queued' | 'sent' | 'failed';
}

export type KeyCommand =
  | {
      type: 'IssueKey'; keyId: string; ownerId: string; keyHash: string; source: AccessKeySource; requestId: string | null; scopes: ViewSection[];
      expiresAt: string; recipient: RecipientDetails; now: string; letterId?: string; allowDownload?: boolean;
    }
  | { type: 'RevokeKey'; ownerId: string; now: string }
  /** notifications' report of the key's e-mail (consumed from its events). */
  | { type: 'RecordEmailStatus'; status: 'sent' | 'failed'; at: string; messageId: string | null; reason: string | null };

export const KEY_STREAM_TYPE = 'access-key';

/** A key's standing at `now` (epoch ms): revoked for good, else expired from its expiry on. */
export const keyStatusAt = (key: { revoked_at: Date | string | null; expires_at: Date | string }, now: number): 'active' | 'expired' | 'revoked' =>
  key.revoked_at ? 'revoked' : new Date(key.expires_at).getTime() <= now ? 'expired' : 'active';
export const keyStreamId = (keyId: string) => `access-key-${keyId}`;

type EmailStatusChange = Extract<KeyEvent, { type: 'AccessKeyEmailStatusChanged' }>['data'];

/** Why a key's e-mail failed, as its owner is told (null once it is sent). */
export function emailFailureOf(change: EmailStatusChange): KeyEmailFailure | null {
  return change.status === 'failed' ? keyEmailFailureOf(change.reason ?? '') : null;
}

/** A key as issued, as the access_keys read model holds it: what a Save of the same key sent again is compared with. */
export interface IssuedKey {
  keyId: string;
  ownerId: string;
  source: AccessKeySource;
  requestId: string | null;
  letterId: string | null;
  recipientEmail: string;
  name: string | null;
  scopes: readonly string[];
  issuedAt: string;
  expiresAt: string;
  allowDownload: boolean;
  revoked: boolean;
}

const sameScopes = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * A Save refused because its key is already issued (the unique key hash: KEY_TAKEN): when it is the
 * same Save sent again (its owner's, from the same draft, so the same key, with the same name,
 * address, sections, download choice and number of days), the first attempt committed and its answer
 * was lost, so the retry is answered with the key as issued, as the first attempt was (issue 30).
 * Anything else stays KEY_TAKEN: another owner's key, a key revoked since, a Save with other content.
 * The expiry is compared as a duration: each attempt counts its days from its own clock.
 */
export function decideIssueRetry(issued: IssuedKey | undefined, command: Extract<KeyCommand, { type: 'IssueKey' }>): IssuedKey {
  const same = issued !== undefined
    && issued.ownerId === command.ownerId && !issued.revoked
    && issued.source === command.source && issued.requestId === command.requestId && issued.letterId === (command.letterId ?? null)
    && issued.recipientEmail === command.recipient.recipientEmail && issued.name === command.recipient.name
    && sameScopes(issued.scopes, command.scopes) && issued.allowDownload === (command.allowDownload === true)
    && Date.parse(issued.expiresAt) - Date.parse(issued.issuedAt) === Date.parse(command.expiresAt) - Date.parse(command.now);
  if (!same) throw new DomainError('KEY_TAKEN', AccessMessages.keyTaken);
  return issued;
}

export const keyDecider: Decider<KeyState, KeyCommand, KeyEvent> = {
  initialState: () => ({ status: 'none', keyId: null, ownerId: null, expiresAt: null, emailStatus: 'queued' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueKey': {
        if (state.status !== 'none') throw new DomainError('KEY_TAKEN');
        const { type: _type, recipient, now, ...facts } = command;
        return [{ type: 'AccessKeyIssued', data: { ...facts, issuedAt: now, personal: recipient } }];
      }
      case 'RevokeKey':
        if (state.status === 'none' || state.ownerId !== command.ownerId) throw new DomainError('NOT_FOUND');
        // Revoking twice changes nothing (a retried click).
        if (state.status === 'revoked') return [];
        return [{ type: 'AccessKeyRevoked', data: { keyId: state.keyId!, ownerId: command.ownerId, revokedAt: command.now } }];
      case 'RecordEmailStatus':
        // A report about a key that was never committed (its job ran out of retries first) is moot.
        if (state.status === 'none') return [];
        // Sent is final: a late failure report (an old attempt) does not undo it; a repeat changes nothing.
        if (state.emailStatus === 'sent' || state.emailStatus === command.status) return [];
        return [{
          type: 'AccessKeyEmailStatusChanged',
          data: { keyId: state.keyId!, ownerId: state.ownerId!, status: command.status, at: command.at, messageId: command.messageId, reason: command.reason },
        }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccessKeyIssued':
        return { ...state, status: 'active', keyId: event.data.keyId, ownerId: event.data.ownerId, expiresAt: event.data.expiresAt };
      case 'AccessKeyRevoked':
        return { ...state, status: 'revoked' };
      case 'AccessKeyEmailStatusChanged':
        return { ...state, emailStatus: event.data.status };
    }
  },
};
