import { projectionFor } from '@lv/platform/event-store';
import { emailFailureOf, type KeyEvent } from './keys/key.decider.js';
import type { RequestEvent } from './requests/request.decider.js';
import type { RequestSettingEvent } from './requests/request-setting.decider.js';
import type { SessionEvent } from './sessions/session.decider.js';

// Inline read models, updated in the transaction of each append and rebuildable from the events.
// Every statement is idempotent per event (inserts do nothing on conflict, updates set final values),
// so a rebuild or a replayed batch leaves the same rows. Events arrive in stream order within a batch.

/** access_requests. Personal details erased (a destroyed key) leave no row: there is nothing to show. */
export const requestsProjection = projectionFor<RequestEvent>({
  name: 'access_requests',
  handles: ['AccessRequestSubmitted', 'AccessRequestApproved', 'AccessRequestDeclined'],

  async apply(em, events) {
    for (const event of events) {
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
});

/** request_settings: each owner's request link switch (the last change wins); no row means open. */
export const requestSettingsProjection = projectionFor<RequestSettingEvent>({
  name: 'request_settings',
  handles: ['RequestSettingChanged'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events) {
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
});

/**
 * access_keys. The unique key_hash is what makes a key name one vault: an owner saving a key that is
 * already issued fails the whole append (KEY_TAKEN), so nothing of it is stored.
 */
export const keysProjection = projectionFor<KeyEvent>({
  name: 'access_keys',
  handles: ['AccessKeyIssued', 'AccessKeyRevoked', 'AccessKeyEmailStatusChanged'],

  async apply(em, events) {
    for (const event of events) {
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
          await em.execute(`update access_keys set email_status = ?, email_sent_at = ?, email_failure = ? where id = ?`, [
            event.data.status, event.data.status === 'sent' ? event.data.at : null, emailFailureOf(event.data), event.data.keyId,
          ]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from access_keys');
  },
});

export const sessionsProjection = projectionFor<SessionEvent>({
  name: 'view_sessions',
  handles: ['ViewSessionOpened', 'ViewSessionSectionViewed', 'ViewSessionRevoked', 'ViewSessionClosed'],

  async apply(em, events) {
    for (const event of events) {
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
});
