import { type ViewedItem, type ViewSection, AccessMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** The consent a viewer gave before the first view (spec: vault_view_consents). */
export interface ViewerConsentRecord {
  version: string;
  text: string;
  hash: string;
  userAgent: string | null;
  origin: string | null;
}

export type SessionEvent =
  | {
      type: 'ViewSessionOpened';
      data: {
        sessionId: string; ownerId: string; keyId: string; secretHash: string; scopes: ViewSection[]; openedAt: string; expiresAt: string;
        consent: ViewerConsentRecord;
        /** Opened with a milestone key: limited to this one letter, as its key. */
        letterId?: string;
        /** Its key allows downloads of originals (copied at redemption; absent: view only). */
        mayDownload?: boolean;
      };
    }
  /** A section's list opened, or (with `item`) one item in it: which one, never its words. */
  | { type: 'ViewSessionSectionViewed'; data: { sessionId: string; ownerId: string; section: ViewSection; viewedAt: string; item?: ViewedItem } }
  | { type: 'ViewSessionRevoked'; data: { sessionId: string; ownerId: string; keyId: string; revokedAt: string; by: 'owner' | 'key-revoked' } }
  | { type: 'ViewSessionClosed'; data: { sessionId: string; ownerId: string; keyId: string; closedAt: string } };

export interface SessionState {
  status: 'none' | 'active' | 'revoked' | 'closed';
  sessionId: string | null;
  ownerId: string | null;
  keyId: string | null;
  scopes: ViewSection[];
  expiresAt: string | null;
}

export type SessionCommand =
  | {
      type: 'OpenSession'; sessionId: string; ownerId: string; keyId: string; secretHash: string; scopes: ViewSection[]; expiresAt: string;
      consent: ViewerConsentRecord; now: string; letterId?: string; mayDownload?: boolean;
    }
  | { type: 'RecordView'; section: ViewSection; item?: ViewedItem; now: string }
  | { type: 'RevokeSession'; ownerId: string; by: 'owner' | 'key-revoked'; now: string }
  | { type: 'CloseSession'; now: string };

export const SESSION_STREAM_TYPE = 'view-session';
export const sessionStreamId = (sessionId: string) => `view-session-${sessionId}`;

/** A session's standing at `now` (epoch ms): an active one past its end is expired. */
export const sessionStatusAt = <S extends 'active' | 'revoked' | 'closed'>(session: { status: S; expires_at: Date | string }, now: number): S | 'expired' =>
  session.status === 'active' && new Date(session.expires_at).getTime() <= now ? 'expired' : session.status;

/** Active and not past its end. */
export const isLive = (state: Pick<SessionState, 'status' | 'expiresAt'>, now: string): boolean =>
  state.status === 'active' && state.expiresAt !== null && Date.parse(now) < Date.parse(state.expiresAt);

export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  initialState: () => ({ status: 'none', sessionId: null, ownerId: null, keyId: null, scopes: [], expiresAt: null }),

  decide(command, state) {
    switch (command.type) {
      case 'OpenSession': {
        if (state.status !== 'none') throw new DomainError('CONFLICT');
        const { type: _type, now, ...facts } = command;
        return [{ type: 'ViewSessionOpened', data: { ...facts, openedAt: now } }];
      }
      case 'RecordView':
        if (!isLive(state, command.now)) throw new DomainError('VIEW_SESSION_ENDED');
        if (!state.scopes.includes(command.section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
        return [{
          type: 'ViewSessionSectionViewed',
          data: { sessionId: state.sessionId!, ownerId: state.ownerId!, section: command.section, viewedAt: command.now, ...(command.item ? { item: command.item } : {}) },
        }];
      case 'RevokeSession':
        if (state.status === 'none' || state.ownerId !== command.ownerId) throw new DomainError('NOT_FOUND');
        if (state.status !== 'active') return [];
        return [{ type: 'ViewSessionRevoked', data: { sessionId: state.sessionId!, ownerId: state.ownerId, keyId: state.keyId!, revokedAt: command.now, by: command.by } }];
      case 'CloseSession':
        if (state.status !== 'active') return [];
        return [{ type: 'ViewSessionClosed', data: { sessionId: state.sessionId!, ownerId: state.ownerId!, keyId: state.keyId!, closedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ViewSessionOpened':
        return {
          status: 'active', sessionId: event.data.sessionId, ownerId: event.data.ownerId, keyId: event.data.keyId, scopes: event.data.scopes, expiresAt: event.data.expiresAt,
        };
      case 'ViewSessionSectionViewed':
        return state;
      case 'ViewSessionRevoked':
        return { ...state, status: 'revoked' };
      case 'ViewSessionClosed':
        return { ...state, status: 'closed' };
    }
  },
};
