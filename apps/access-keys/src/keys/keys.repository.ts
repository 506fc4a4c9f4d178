import type { MikroORM } from '@mikro-orm/postgresql';
import type { AccessKeySource, KeyEmailFailure } from '@lv/contracts';
import type { IssuedKey } from './key.decider.js';

export interface KeyRow {
  id: string; owner_id: string; key_hash: string; name: string | null; recipient_email: string; source: AccessKeySource; request_id: string | null;
  scopes: string[]; created_at: Date; expires_at: Date; revoked_at: Date | null; email_status: 'queued' | 'sent' | 'failed'; email_sent_at: Date | null;
  /** Why its e-mail failed (null unless it did). */
  email_failure: KeyEmailFailure | null;
  /** A milestone key's one letter (null for every other key). */
  letter_id: string | null;
  /** The owner allowed downloads of originals with this key. */
  allow_download: boolean;
}

/** A row as the key decider compares a Save sent again with it. */
export function issuedKeyOf(row: KeyRow): IssuedKey {
  return {
    keyId: row.id, ownerId: row.owner_id, source: row.source, requestId: row.request_id, letterId: row.letter_id, recipientEmail: row.recipient_email, name: row.name,
    scopes: row.scopes, issuedAt: new Date(row.created_at).toISOString(), expiresAt: new Date(row.expires_at).toISOString(), allowDownload: row.allow_download === true,
    revoked: row.revoked_at !== null,
  };
}

/** A key as its owner lists it: with how many sessions it opened and when it was last used. */
export type KeyInUse = KeyRow & { sessions: number; last_viewed_at: Date | null };

/** The access_keys read model (access.projections.ts keeps it). */
export interface KeysRepository {
  byHash(keyHash: string): Promise<KeyRow | undefined>;
  byId(id: string): Promise<KeyRow | undefined>;
  /** The owner's keys, newest first. */
  ofOwner(ownerId: string): Promise<KeyInUse[]>;
}

export class SqlKeysRepository implements KeysRepository {
  constructor(private readonly orm: MikroORM) {}

  async byHash(keyHash: string): Promise<KeyRow | undefined> {
    return (await this.orm.em.fork().execute<KeyRow[]>(`select * from access_keys where key_hash = ?`, [keyHash]))[0];
  }

  async byId(id: string): Promise<KeyRow | undefined> {
    return (await this.orm.em.fork().execute<KeyRow[]>(`select * from access_keys where id = ?`, [id]))[0];
  }

  ofOwner(ownerId: string): Promise<KeyInUse[]> {
    return this.orm.em.fork().execute<KeyInUse[]>(
      `select k.*, count(s.id)::int as sessions, max(s.last_viewed_at) as last_viewed_at
         from access_keys k left join view_sessions s on s.key_id = k.id
        where k.owner_id = ? group by k.id order by k.created_at desc, k.id desc`,
      [ownerId],
    );
  }
}
