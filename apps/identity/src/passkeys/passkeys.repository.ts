import type { EntityManager } from '@mikro-orm/postgresql';

/** A passkey as identity keeps it (see migrations: passkeys). */
export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** What a ceremony's challenge is for: each purpose is claimed only by its own finishing step. */
export type PasskeyPurpose = 'register' | 'sign-in' | 'second-step' | 'confirm';

/** A ceremony's challenge, claimed: what it was bound to when it was issued. */
export interface ClaimedChallenge {
  challenge_hash: string;
  user_id: string | null;
  session_id: string | null;
  two_step_challenge_id: string | null;
}

const COLUMNS = 'id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at';

/** identity's passkey tables. Every method runs on the caller's EntityManager, so a write joins its transaction. */
export class PasskeysRepository {
  async list(em: EntityManager, userId: string): Promise<PasskeyRow[]> {
    return em.execute<PasskeyRow[]>(`select ${COLUMNS} from passkeys where user_id = ? order by created_at, id`, [userId]);
  }

  async count(em: EntityManager, userId: string): Promise<number> {
    const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from passkeys where user_id = ?', [userId]);
    return row?.n ?? 0;
  }

  async byCredentialId(em: EntityManager, credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await em.execute<PasskeyRow[]>(`select ${COLUMNS} from passkeys where credential_id = ?`, [credentialId]);
    return row;
  }

  async insert(em: EntityManager, passkey: { id: string; userId: string; credentialId: string; publicKey: Uint8Array; counter: number; transports: readonly string[]; backedUp: boolean; name: string }): Promise<PasskeyRow> {
    const [row] = await em.execute<PasskeyRow[]>(
      `insert into passkeys (id, user_id, credential_id, public_key, counter, transports, backed_up, name) values (?, ?, ?, ?, ?, ?::text[], ?, ?) returning ${COLUMNS}`,
      [passkey.id, passkey.userId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.counter, `{${passkey.transports.join(',')}}`, passkey.backedUp, passkey.name]);
    return row!;
  }

  async rename(em: EntityManager, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
    const [row] = await em.execute<PasskeyRow[]>(`update passkeys set name = ? where id = ? and user_id = ? returning ${COLUMNS}`, [name, id, userId]);
    return row;
  }

  async remove(em: EntityManager, userId: string, id: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('delete from passkeys where id = ? and user_id = ? returning id', [id, userId]);
    return rows.length > 0;
  }

  /**
   * A use of the passkey, recorded once: its new signature counter and the time, only if the counter is
   * still the one the signature was checked against (a racing use of a cloned key loses).
   */
  async markUsed(em: EntityManager, id: string, checkedCounter: string, newCounter: number): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('update passkeys set counter = ?, last_used_at = now() where id = ? and counter = ? returning id', [newCounter, id, checkedCounter]);
    return rows.length > 0;
  }

  /** A new ceremony's challenge (its hash only); lapsed ones of an hour ago go at the same time. */
  async insertChallenge(em: EntityManager, challenge: { id: string; purpose: PasskeyPurpose; challengeHash: string; userId?: string; sessionId?: string; twoStepChallengeId?: string; expiresAt: Date }): Promise<void> {
    await em.execute("delete from passkey_challenges where expires_at < now() - interval '1 hour'");
    await em.execute(
      'insert into passkey_challenges (id, purpose, challenge_hash, user_id, session_id, two_step_challenge_id, expires_at) values (?, ?, ?, ?, ?, ?, ?)',
      [challenge.id, challenge.purpose, challenge.challengeHash, challenge.userId ?? null, challenge.sessionId ?? null, challenge.twoStepChallengeId ?? null, challenge.expiresAt]);
  }

  /** Uses a challenge up, once, while it works and for its own purpose only; undefined otherwise. */
  async claimChallenge(em: EntityManager, id: string, purpose: PasskeyPurpose): Promise<ClaimedChallenge | undefined> {
    const [row] = await em.execute<ClaimedChallenge[]>(
      `update passkey_challenges set used_at = now() where id = ? and purpose = ? and used_at is null and expires_at > now()
        returning challenge_hash, user_id, session_id, two_step_challenge_id`, [id, purpose]);
    return row;
  }
}
