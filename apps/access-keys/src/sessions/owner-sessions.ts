import type { RequestMeta, ViewedItem, ViewSection, ViewSessionSummary } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { ownerActor } from '../owner-actor.js';
import { endSession, type EndSessionDeps } from './end-session.js';
import { sessionStatusAt } from './session.decider.js';
import type { OwnerSessionRow, SessionsRepository, ViewRow } from './sessions.repository.js';

/** The owner sees this many of a session's most recent views. */
const VIEWS_SHOWN = 100;

export interface OwnerSessionsDeps extends EndSessionDeps {
  sessions: Pick<SessionsRepository, 'ofOwner' | 'views'>;
  now: () => Date;
}

/** The owner's view of who opened his vault: each session with its consent and what it viewed, and revoking one. */
export class OwnerSessions {
  constructor(private readonly deps: OwnerSessionsDeps) {}

  async list(caller: Caller): Promise<ViewSessionSummary[]> {
    const rows = await this.deps.sessions.ofOwner(ownerOf(caller).userId);
    const views = await this.deps.sessions.views(rows.map((r) => r.id), VIEWS_SHOWN);
    const now = this.deps.now().getTime();
    return rows.map((row) => toSessionSummary(row, views.filter((v) => v.session_id === row.id), now));
  }

  async revoke(caller: Caller, sessionId: string, meta: RequestMeta): Promise<ViewSessionSummary> {
    const owner = ownerOf(caller);
    await endSession(this.deps, sessionId, { type: 'RevokeSession', ownerId: owner.userId, by: 'owner', now: this.deps.now().toISOString() }, ownerActor(owner, meta));
    const summary = (await this.list(caller)).find((s) => s.id === sessionId);
    if (!summary) throw new DomainError('NOT_FOUND');
    return summary;
  }
}

const iso = (d: Date | string): string => new Date(d).toISOString();

function toSessionSummary(row: OwnerSessionRow, views: ViewRow[], now: number): ViewSessionSummary {
  return {
    id: row.id, key_id: row.key_id, key_name: row.key_name, recipient_email: row.recipient_email, scopes: row.scopes as ViewSection[],
    opened_at: iso(row.opened_at), expires_at: iso(row.expires_at), status: sessionStatusAt(row, now), ended_at: row.ended_at === null ? null : iso(row.ended_at),
    consent: {
      consent_version: row.consent_version, consent_text: row.consent_text, consent_hash: row.consent_hash, user_agent: row.user_agent, origin: row.origin,
      accepted_at: iso(row.opened_at),
    },
    // Titles are the owning services' words: the gateway adds them at read time, with the owner's token.
    views: views.map((v) => ({
      section: v.section as ViewSection, at: iso(v.viewed_at),
      ...(v.item_kind ? { item: { kind: v.item_kind as ViewedItem['kind'], id: v.item_id, title: null } } : {}),
    })),
  };
}
