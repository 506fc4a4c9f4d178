import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DataKeys, openSealedText, sealText, type SealedText } from '@lv/platform/event-store';

/** What the second step of a sign-in keeps: its token's hash and what the password step knew. */
export interface StoredChallenge {
  user_id: string;
  token_hash: string;
  known_device: boolean;
  password_change_required: boolean;
}

/** The per-account keys of the authenticator secrets (two_step_keys): destroyed when two-step is turned off. */
class TwoStepKeys extends DataKeys {
  constructor() {
    super({ table: 'two_step_keys', idColumn: 'user_id' });
  }
}

const sealContext = (userId: string) => `two-step:${userId}:secret`;

/**
 * identity's two-step tables (see migrations). The secret is sealed with AES-256-GCM under a key
 * derived from the account's own data key AND identity's KEY_MAIL_SECRET (which never is in the
 * database), bound to the account: a copy of the database alone opens no secret, a sealed secret moved
 * to another account does not open, and turning two-step off destroys the key (crypto-shredding).
 * Every method runs on the caller's EntityManager, so a write joins the transaction of its event.
 */
export class TwoStepRepository {
  private readonly keys = new TwoStepKeys();

  constructor(private readonly serviceSecret: string) {}

  private sealingKey(dataKey: Buffer): Buffer {
    return createHmac('sha256', this.serviceSecret).update('lv two-step secret key\0').update(dataKey).digest();
  }

  /** A new set-up: replaces any earlier one still waiting for its first code. */
  async savePending(em: EntityManager, userId: string, secret: string): Promise<void> {
    const dataKey = await this.keys.findOrCreate(em, userId);
    if (!dataKey) throw new Error('no two-step key could be made');
    const sealed = sealText(this.sealingKey(dataKey), secret, sealContext(userId));
    await em.execute(
      'insert into two_step (user_id, pending_sealed) values (?, ?::jsonb) on conflict (user_id) do update set pending_sealed = excluded.pending_sealed',
      [userId, JSON.stringify(sealed)],
    );
  }

  private async open(em: EntityManager, userId: string, sealed: SealedText | null): Promise<string | null> {
    if (!sealed) return null;
    const dataKey = await this.keys.find(em, userId);
    return dataKey ? openSealedText(this.sealingKey(dataKey), sealed, sealContext(userId)) : null;
  }

  async state(em: EntityManager, userId: string): Promise<{ enabled: boolean; secret: string | null; pending: string | null; pendingSealed: SealedText | null; lastStep: number | null }> {
    const [row] = await em.execute<{ secret_sealed: SealedText | null; pending_sealed: SealedText | null; last_step: string | null; enabled_at: Date | null }[]>(
      'select secret_sealed, pending_sealed, last_step, enabled_at from two_step where user_id = ?', [userId]);
    if (!row) return { enabled: false, secret: null, pending: null, pendingSealed: null, lastStep: null };
    return {
      enabled: row.enabled_at !== null,
      secret: await this.open(em, userId, row.secret_sealed),
      pending: await this.open(em, userId, row.pending_sealed),
      pendingSealed: row.pending_sealed,
      lastStep: row.last_step === null ? null : Number(row.last_step),
    };
  }

  async isEnabled(em: EntityManager, userId: string): Promise<boolean> {
    const [row] = await em.execute<{ on: boolean }[]>('select enabled_at is not null as on from two_step where user_id = ?', [userId]);
    return row?.on === true;
  }

  /**
   * The waiting set-up (`pendingSealed`, the one whose code was checked) becomes the secret, its first
   * code's step used; false when another confirm won or a newer set-up replaced it meanwhile.
   */
  async enable(em: EntityManager, userId: string, step: number, pendingSealed: SealedText): Promise<boolean> {
    const rows = await em.execute<{ user_id: string }[]>(
      `update two_step set secret_sealed = pending_sealed, pending_sealed = null, last_step = ?, enabled_at = now()
        where user_id = ? and pending_sealed = ?::jsonb and enabled_at is null returning user_id`, [step, userId, JSON.stringify(pendingSealed)]);
    return rows.length > 0;
  }

  /** Records a code's step as used, once: false when it (or a later one) was used already. */
  async claimStep(em: EntityManager, userId: string, step: number): Promise<boolean> {
    const rows = await em.execute<{ user_id: string }[]>(
      'update two_step set last_step = ? where user_id = ? and enabled_at is not null and (last_step is null or last_step < ?) returning user_id', [step, userId, step]);
    return rows.length > 0;
  }

  /** Turning two-step off: the secret, its key, the codes and the open challenges all go. */
  async removeAll(em: EntityManager, userId: string): Promise<void> {
    await em.execute('delete from two_step where user_id = ?', [userId]);
    await em.execute('delete from two_step_recovery_codes where user_id = ?', [userId]);
    await em.execute('delete from two_step_challenges where user_id = ?', [userId]);
    await this.keys.destroy(em, userId);
  }

  async replaceRecoveryCodes(em: EntityManager, userId: string, hashes: readonly string[]): Promise<void> {
    await em.execute('delete from two_step_recovery_codes where user_id = ?', [userId]);
    await em.execute(
      'insert into two_step_recovery_codes (user_id, code_hash) select ?, jsonb_array_elements_text(?::jsonb)', [userId, JSON.stringify(hashes)]);
  }

  /** Uses a recovery code up: true when it was one of the account's, and it is gone now. */
  async consumeRecoveryCode(em: EntityManager, userId: string, hash: string): Promise<boolean> {
    const rows = await em.execute<{ user_id: string }[]>('delete from two_step_recovery_codes where user_id = ? and code_hash = ? returning user_id', [userId, hash]);
    return rows.length > 0;
  }

  async recoveryCodesLeft(em: EntityManager, userId: string): Promise<number> {
    const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from two_step_recovery_codes where user_id = ?', [userId]);
    return row?.n ?? 0;
  }

  async insertChallenge(em: EntityManager, challenge: { id: string; userId: string; tokenHash: string; knownDevice: boolean; passwordChangeRequired: boolean; expiresAt: string }): Promise<void> {
    await em.execute(
      'insert into two_step_challenges (id, user_id, token_hash, known_device, password_change_required, expires_at) values (?, ?, ?, ?, ?, ?)',
      [challenge.id, challenge.userId, challenge.tokenHash, challenge.knownDevice, challenge.passwordChangeRequired, challenge.expiresAt]);
  }

  /** A challenge still usable: not used and not lapsed. */
  async openChallenge(em: EntityManager, id: string): Promise<StoredChallenge | undefined> {
    const [row] = await em.execute<StoredChallenge[]>(
      'select user_id, token_hash, known_device, password_change_required from two_step_challenges where id = ? and used_at is null and expires_at > now()', [id]);
    return row;
  }

  /** Marks a challenge used, once and while it works. */
  async claimChallenge(em: EntityManager, id: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('update two_step_challenges set used_at = now() where id = ? and used_at is null and expires_at > now() returning id', [id]);
    return rows.length > 0;
  }
}
