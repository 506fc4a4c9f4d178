import type { EntityManager } from '@mikro-orm/postgresql';
import type { Projection, StoredEvent } from '@lv/platform/event-store';
import type { KeyEvent } from './keys/key.decider.js';
import type { RequestEvent } from './requests/request.decider.js';
import type { RequestSettingEvent } from './requests/request-setting.decider.js';
import type { SessionEvent } from './sessions/session.decider.js';

// Inline read models, updated in the transaction of each append and rebuildable from the events.
// Every statement is idempotent per event (inserts do nothing on conflict, updates set final values),
// so a rebuild or a replayed batch leaves the same rows. Events arrive in stream order within a batch.

/** access_requests. Personal details erased (a destroyed key) leave no row: there is nothing to show. */
export const requestsProjection: Projection = {
  name: 'access_requests',
  handles: ['AccessRequestSubmitted', 'AccessRequestApproved', 'AccessRequestDeclined'],

  async apply(em, events) {
    for (const event of events as StoredEvent<RequestEvent>[]) {
      switch (event.type) {
        case 'AccessRequestSubmitted': {
          const { requestId, ownerId, heldKeyId, submittedAt, personal: p } = event.data;
          if (!p) break;
          await em.execute(
            `insert into access_requests (id, owner_id, requester_email, requester_name, relationship, message, child_name, child_dob, held_key_id, status, created_at)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) on conflict (id) do nothing`,
            [requestId, ownerId, p.requesterEmail, p.requesterName, p.relationship, p.message, p.childName, p.childDob, heldKeyId, submittedAt],
          );
          break;
        }
        case 'AccessRequestApproved':
          await em.execute(`update access_requests set status = 'approved', decided_at = ?, key_id = ? where id = ?`, [event.data.approvedAt, event.data.keyId, event.data.requestId]);
          break;
        case 'AccessRequestDeclined':
          await em.execute(`update access_requests set status = 'declined', decided_at = ? where id = ?`, [event.data.declinedAt, event.data.requestId]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from access_requests');
  },
};

/** request_settings: each owner's request link switch (the last change wins); no row means open. */
export const requestSettingsProjection: Projection = {
  name: 'request_settings',
  handles: ['RequestSettingChanged'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events as StoredEvent<RequestSettingEvent>[]) {
      const d = event.data;
      await em.execute(
        `insert into request_settings (owner_id, open, updated_at) values (?, ?, ?)
         on conflict (owner_id) do update set open = excluded.open, updated_at = excluded.updated_at`,
        [d.ownerId, d.open, d.changedAt],
      );
    }
  },

  async reset(em) {
    await em.execute('delete from request_settings');
  },
};

/**
 * access_keys. The unique key_hash is what makes a key name one vault: an owner saving a key that is
 * already issued fails the whole append (KEY_TAKEN), so nothing of it is stored.
 */
export const keysProjection: Projection = {
  name: 'access_keys',
  handles: ['AccessKeyIssued', 'AccessKeyRevoked', 'AccessKeyEmailStatusChanged'],

  async apply(em, events) {
    for (const event of events as StoredEvent<KeyEvent>[]) {
      switch (event.type) {
        case 'AccessKeyIssued': {
          const d = event.data;
          await em.execute(
            `insert into access_keys (id, owner_id, key_hash, name, recipient_email, source, request_id, scopes, created_at, expires_at, letter_id, allow_download)
             values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) on conflict (id) do nothing`,
            [
              d.keyId, d.ownerId, d.keyHash, d.personal?.name ?? null, d.personal?.recipientEmail ?? '', d.source, d.requestId, JSON.stringify(d.scopes), d.issuedAt, d.expiresAt,
              d.letterId ?? null, d.allowDownload === true,
            ],
          );
          break;
        }
        case 'AccessKeyRevoked':
          await em.execute(`update access_keys set revoked_at = ? where id = ?`, [event.data.revokedAt, event.data.keyId]);
          break;
        case 'AccessKeyEmailStatusChanged':
          await em.execute(`update access_keys set email_status = ?, email_sent_at = ? where id = ?`, [
            event.data.status, event.data.status === 'sent' ? event.data.at : null, event.data.keyId,
          ]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from access_keys');
  },
};

export const sessionsProjection: Projection = {
  name: 'view_sessions',
  handles: ['ViewSessionOpened', 'ViewSessionSectionViewed', 'ViewSessionRevoked', 'ViewSessionClosed'],

  async apply(em, events) {
    for (const event of events as StoredEvent<SessionEvent>[]) {
      switch (event.type) {
        case 'ViewSessionOpened': {
          const d = event.data;
          await em.execute(
            `insert into view_sessions (id, owner_id, key_id, secret_hash, scopes, opened_at, expires_at, status, consent_version, consent_text, consent_hash, user_agent, origin, letter_id, may_download)
             values (?, ?, ?, ?, ?::jsonb, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
            [
              d.sessionId, d.ownerId, d.keyId, d.secretHash, JSON.stringify(d.scopes), d.openedAt, d.expiresAt, d.consent.version, d.consent.text, d.consent.hash, d.consent.userAgent,
              d.consent.origin, d.letterId ?? null, d.mayDownload === true,
            ],
          );
          break;
        }
        case 'ViewSessionSectionViewed':
          await em.execute(`insert into view_session_views (session_id, section, viewed_at, item_kind, item_id) values (?, ?, ?, ?, ?) on conflict do nothing`, [
            event.data.sessionId, event.data.section, event.data.viewedAt, event.data.item?.kind ?? '', event.data.item?.id ?? '',
          ]);
          await em.execute(`update view_sessions set last_viewed_at = greatest(coalesce(last_viewed_at, ?::timestamptz), ?::timestamptz) where id = ?`, [
            event.data.viewedAt, event.data.viewedAt, event.data.sessionId,
          ]);
          break;
        case 'ViewSessionRevoked':
          await em.execute(`update view_sessions set status = 'revoked', ended_at = ? where id = ?`, [event.data.revokedAt, event.data.sessionId]);
          break;
        case 'ViewSessionClosed':
          await em.execute(`update view_sessions set status = 'closed', ended_at = ? where id = ?`, [event.data.closedAt, event.data.sessionId]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from view_session_views');
    await em.execute('delete from view_sessions');
  },
};

// ------------------------------------------------------------------------------------------------
// Queries

export interface RequestRow {
  id: string; owner_id: string; requester_email: string; requester_name: string | null; relationship: string; message: string;
  child_name: string | null; child_dob: string | null; held_key_id: string | null; status: 'pending' | 'approved' | 'declined';
  created_at: Date; decided_at: Date | null; key_id: string | null;
}

export interface KeyRow {
  id: string; owner_id: string; key_hash: string; name: string | null; recipient_email: string; source: 'request' | 'owner'; request_id: string | null;
  scopes: string[]; created_at: Date; expires_at: Date; revoked_at: Date | null; email_status: 'queued' | 'sent' | 'failed'; email_sent_at: Date | null;
  /** A milestone key's one letter (null for every other key). */
  letter_id: string | null;
  /** The owner allowed downloads of originals with this key. */
  allow_download: boolean;
}

export interface SessionRow {
  id: string; owner_id: string; key_id: string; secret_hash: string; scopes: string[]; opened_at: Date; expires_at: Date; status: 'active' | 'revoked' | 'closed';
  ended_at: Date | null; consent_version: string; consent_text: string; consent_hash: string; user_agent: string | null; origin: string | null; last_viewed_at: Date | null;
  letter_id: string | null;
  /** Copied from the key at redemption: its viewer tokens carry the download permission. */
  may_download: boolean;
}

export const findRequests = (em: EntityManager, ownerId: string, status: string, limit: number) =>
  em.execute<RequestRow[]>(`select * from access_requests where owner_id = ? and status = ? order by created_at desc, id desc limit ?`, [ownerId, status, limit]);

export const findRequest = async (em: EntityManager, ownerId: string, id: string) =>
  (await em.execute<RequestRow[]>(`select * from access_requests where owner_id = ? and id = ?`, [ownerId, id]))[0];

/** Whether the owner's request link takes requests (open until he closes it). */
export const requestsOpen = async (em: EntityManager, ownerId: string) =>
  (await em.execute<{ open: boolean }[]>(`select open from request_settings where owner_id = ?`, [ownerId]))[0]?.open ?? true;

export const findKeyByHash = async (em: EntityManager, keyHash: string) => (await em.execute<KeyRow[]>(`select * from access_keys where key_hash = ?`, [keyHash]))[0];

export const findKey = async (em: EntityManager, id: string) => (await em.execute<KeyRow[]>(`select * from access_keys where id = ?`, [id]))[0];

/** The owner's keys, newest first, with how many sessions each opened and when it was last used. */
export const findKeysOf = (em: EntityManager, ownerId: string) =>
  em.execute<(KeyRow & { sessions: number; last_viewed_at: Date | null })[]>(
    `select k.*, count(s.id)::int as sessions, max(s.last_viewed_at) as last_viewed_at
       from access_keys k left join view_sessions s on s.key_id = k.id
      where k.owner_id = ? group by k.id order by k.created_at desc, k.id desc`,
    [ownerId],
  );

export const findSessionBySecretHash = async (em: EntityManager, secretHash: string) =>
  (await em.execute<SessionRow[]>(`select * from view_sessions where secret_hash = ?`, [secretHash]))[0];

export const findSession = async (em: EntityManager, id: string) => (await em.execute<SessionRow[]>(`select * from view_sessions where id = ?`, [id]))[0];

export const findSessionsOf = (em: EntityManager, ownerId: string) =>
  em.execute<(SessionRow & { key_name: string | null; recipient_email: string })[]>(
    `select s.*, k.name as key_name, k.recipient_email from view_sessions s join access_keys k on k.id = s.key_id
      where s.owner_id = ? order by s.opened_at desc, s.id desc`,
    [ownerId],
  );

export const findActiveSessionIdsOfKey = async (em: EntityManager, keyId: string) =>
  (await em.execute<{ id: string }[]>(`select id from view_sessions where key_id = ? and status = 'active'`, [keyId])).map((r) => r.id);

export interface ViewRow {
  session_id: string;
  section: string;
  viewed_at: Date;
  /** '' for a section's list; else the kind and id of the item opened. */
  item_kind: string;
  item_id: string;
}

/** The most recent views of each of these sessions (at most `perSession` each). */
export const findViews = (em: EntityManager, sessionIds: readonly string[], perSession: number) =>
  sessionIds.length === 0
    ? Promise.resolve([] as ViewRow[])
    : em.execute<ViewRow[]>(
        `select session_id, section, viewed_at, item_kind, item_id from (
           select v.*, row_number() over (partition by session_id order by viewed_at desc) as n
             from view_session_views v where session_id in (select jsonb_array_elements_text(?::jsonb)::uuid)
         ) ranked where n <= ? order by viewed_at desc`,
        [JSON.stringify(sessionIds), perSession],
      );

/** Whether this section's list (no item), or this item, was recorded for the session in the last `seconds`. */
export const viewedRecently = async (em: EntityManager, sessionId: string, section: string, item: { kind: string; id: string } | undefined, seconds: number) =>
  (await em.execute<{ n: number }[]>(
    `select count(*)::int as n from view_session_views
      where session_id = ? and section = ? and item_kind = ? and item_id = ? and viewed_at > now() - make_interval(secs => ?)`,
    [sessionId, section, item?.kind ?? '', item?.id ?? '', seconds],
  ))[0]!.n > 0;
