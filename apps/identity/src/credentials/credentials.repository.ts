import type { EntityManager } from '@mikro-orm/postgresql';

/** A one-time link as stored: only its token's hash. */
export interface StoredLink {
  user_id: string;
  token_hash: string;
}

/**
 * Identity's own tables beside the event store: credentials (address and password hash), and the
 * one-time links it e-mails (verification, e-mail change, password reset, new sign-in alert), each
 * kept as the hash of its token. Every method runs on the caller's EntityManager, so a write can
 * join the transaction of the events it goes with.
 */
export class CredentialsRepository {
  async insertCredentials(em: EntityManager, userId: string, email: string, passwordHash: string): Promise<void> {
    await em.execute('insert into credentials (user_id, email, password_hash) values (?, ?, ?)', [userId, email, passwordHash]);
  }

  async byEmail(em: EntityManager, email: string): Promise<{ user_id: string; password_hash: string } | undefined> {
    const [row] = await em.execute<{ user_id: string; password_hash: string }[]>('select user_id, password_hash from credentials where email = ?', [email]);
    return row;
  }

  async byUser(em: EntityManager, userId: string): Promise<{ email: string; password_hash: string } | undefined> {
    const [row] = await em.execute<{ email: string; password_hash: string }[]>('select email, password_hash from credentials where user_id = ?', [userId]);
    return row;
  }

  /** Whether another account signs in with this address. */
  async emailTakenByOther(em: EntityManager, email: string, userId: string): Promise<boolean> {
    const [taken] = await em.execute<{ user_id: string }[]>('select user_id from credentials where email = ? and user_id <> ?', [email, userId]);
    return taken !== undefined;
  }

  async setEmail(em: EntityManager, userId: string, email: string): Promise<void> {
    await em.execute('update credentials set email = ?, updated_at = now() where user_id = ?', [email, userId]);
  }

  async setPasswordHash(em: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await em.execute('update credentials set password_hash = ?, updated_at = now() where user_id = ?', [passwordHash, userId]);
  }

  async insertEmailVerification(em: EntityManager, link: { id: string; userId: string; tokenHash: string; expiresAt: string }): Promise<void> {
    await em.execute('insert into email_verifications (id, user_id, token_hash, expires_at) values (?, ?, ?, ?)', [link.id, link.userId, link.tokenHash, link.expiresAt]);
  }

  async emailVerification(em: EntityManager, id: string): Promise<StoredLink | undefined> {
    const [link] = await em.execute<StoredLink[]>('select user_id, token_hash from email_verifications where id = ?', [id]);
    return link;
  }

  /** An e-mail change's two links: confirm (to the new address, tied to the asking session) and undo (to the old one). */
  async insertEmailChangeLinks(
    em: EntityManager,
    userId: string,
    confirm: { id: string; sessionId: string | null; tokenHash: string; expiresAt: string },
    undo: { id: string; tokenHash: string; expiresAt: string },
  ): Promise<void> {
    await em.execute('insert into email_change_links (id, user_id, purpose, session_id, token_hash, expires_at) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)', [
      confirm.id, userId, 'confirm', confirm.sessionId, confirm.tokenHash, confirm.expiresAt,
      undo.id, userId, 'undo', null, undo.tokenHash, undo.expiresAt,
    ]);
  }

  async emailChangeLink(em: EntityManager, id: string, purpose: 'confirm' | 'undo'): Promise<(StoredLink & { id: string; session_id: string | null }) | undefined> {
    const [link] = await em.execute<(StoredLink & { id: string; session_id: string | null })[]>(
      'select id, user_id, session_id, token_hash from email_change_links where id = ? and purpose = ?', [id, purpose]);
    return link;
  }

  async insertPasswordReset(em: EntityManager, reset: { id: string; userId: string; tokenHash: string; expiresAt: string }): Promise<void> {
    await em.execute('insert into password_resets (id, user_id, token_hash, expires_at) values (?, ?, ?, ?)', [reset.id, reset.userId, reset.tokenHash, reset.expiresAt]);
  }

  /** A reset of the account that signs in with `email` (a link for another address names none). */
  async passwordReset(em: EntityManager, id: string, email: string): Promise<StoredLink | undefined> {
    const [reset] = await em.execute<StoredLink[]>(
      'select r.user_id, r.token_hash from password_resets r join credentials c on c.user_id = r.user_id where r.id = ? and c.email = ?', [id, email]);
    return reset;
  }

  async insertSignInAlert(em: EntityManager, alert: { id: string; userId: string; sessionId: string; tokenHash: string; expiresAt: string }): Promise<void> {
    await em.execute('insert into sign_in_alerts (id, user_id, session_id, token_hash, expires_at) values (?, ?, ?, ?, ?)', [alert.id, alert.userId, alert.sessionId, alert.tokenHash, alert.expiresAt]);
  }

  async signInAlert(em: EntityManager, id: string): Promise<StoredLink | undefined> {
    const [alert] = await em.execute<StoredLink[]>('select user_id, token_hash from sign_in_alerts where id = ?', [id]);
    return alert;
  }

  /** Marks an alert's link used, once and while it works: false when it was used or has lapsed. */
  async claimSignInAlert(em: EntityManager, id: string): Promise<boolean> {
    const claimed = await em.execute<{ id: string }[]>('update sign_in_alerts set used_at = now() where id = ? and used_at is null and expires_at > now() returning id', [id]);
    return claimed.length > 0;
  }

  /**
   * Claims the user's activity mark when the last one is at least `intervalSeconds` old: the time it
   * was recorded, or null when another sign-in or refresh holds the current one. The conditional
   * upsert claims the interval, so racing refreshes get one claim.
   */
  async claimActivityMark(em: EntityManager, userId: string, intervalSeconds: number): Promise<Date | null> {
    const claimed = await em.execute<{ recorded_at: Date }[]>(
      `insert into activity_marks (user_id, recorded_at) values (?, now()) on conflict (user_id) do update set recorded_at = excluded.recorded_at
        where activity_marks.recorded_at <= now() - make_interval(secs => ?) returning recorded_at`,
      [userId, intervalSeconds],
    );
    return claimed[0] ? new Date(claimed[0].recorded_at) : null;
  }
}
