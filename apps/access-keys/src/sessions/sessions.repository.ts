import type { MikroORM } from '@mikro-orm/postgresql';
import type { ViewedItem } from '@lv/contracts';

export interface SessionRow {
  id: string; owner_id: string; key_id: string; secret_hash: string; scopes: string[]; opened_at: Date; expires_at: Date; status: 'active' | 'revoked' | 'closed';
  ended_at: Date | null; consent_version: string; consent_text: string; consent_hash: string; user_agent: string | null; origin: string | null; last_viewed_at: Date | null;
  letter_id: string | null;
  /** Copied from the key at redemption: its viewer tokens carry the download permission. */
  may_download: boolean;
}

/** A session as its owner lists it, with the key it was opened with. */
export type OwnerSessionRow = SessionRow & { key_name: string | null; recipient_email: string };

export interface ViewRow {
  session_id: string;
  section: string;
  viewed_at: Date;
  /** '' for a section's list; else the kind and id of the item opened. */
  item_kind: string;
  item_id: string;
}

/** The view_sessions and view_session_views read models (access.projections.ts keeps them). */
export interface SessionsRepository {
  bySecretHash(secretHash: string): Promise<SessionRow | undefined>;
  byId(id: string): Promise<SessionRow | undefined>;
  /** The owner's sessions, newest first. */
  ofOwner(ownerId: string): Promise<OwnerSessionRow[]>;
  activeIdsOfKey(keyId: string): Promise<string[]>;
  /** The most recent views of each of these sessions (at most `perSession` each), newest first. */
  views(sessionIds: readonly string[], perSession: number): Promise<ViewRow[]>;
  /** Whether this section's list (no item), or this item, was recorded for the session in the last `seconds`. */
  viewedRecently(sessionId: string, section: string, item: ViewedItem | undefined, seconds: number): Promise<boolean>;
}

export class SqlSessionsRepository implements SessionsRepository {
  constructor(private readonly orm: MikroORM) {}

  private get em() {
    return this.orm.em.fork();
  }

  async bySecretHash(secretHash: string): Promise<SessionRow | undefined> {
    return (await this.em.execute<SessionRow[]>(`select * from view_sessions where secret_hash = ?`, [secretHash]))[0];
  }

  async byId(id: string): Promise<SessionRow | undefined> {
    return (await this.em.execute<SessionRow[]>(`select * from view_sessions where id = ?`, [id]))[0];
  }

  ofOwner(ownerId: string): Promise<OwnerSessionRow[]> {
    return this.em.execute<OwnerSessionRow[]>(
      `select s.*, k.name as key_name, k.recipient_email from view_sessions s join access_keys k on k.id = s.key_id
        where s.owner_id = ? order by s.opened_at desc, s.id desc`,
      [ownerId],
    );
  }

  async activeIdsOfKey(keyId: string): Promise<string[]> {
    return (await this.em.execute<{ id: string }[]>(`select id from view_sessions where key_id = ? and status = 'active'`, [keyId])).map((r) => r.id);
  }

  async views(sessionIds: readonly string[], perSession: number): Promise<ViewRow[]> {
    if (sessionIds.length === 0) return [];
    return this.em.execute<ViewRow[]>(
      `select session_id, section, viewed_at, item_kind, item_id from (
         select v.*, row_number() over (partition by session_id order by viewed_at desc) as n
           from view_session_views v where session_id in (select jsonb_array_elements_text(?::jsonb)::uuid)
       ) ranked where n <= ? order by viewed_at desc`,
      [JSON.stringify(sessionIds), perSession],
    );
  }

  async viewedRecently(sessionId: string, section: string, item: ViewedItem | undefined, seconds: number): Promise<boolean> {
    const [row] = await this.em.execute<{ n: number }[]>(
      `select count(*)::int as n from view_session_views
        where session_id = ? and section = ? and item_kind = ? and item_id = ? and viewed_at > now() - make_interval(secs => ?)`,
      [sessionId, section, item?.kind ?? '', item?.id ?? '', seconds],
    );
    return row!.n > 0;
  }
}
