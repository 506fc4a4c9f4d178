import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '@lv/platform/errors';

/** A refresh token is `<session id>.<256 random bits>`; only its SHA-256 is stored. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function parseToken(token: string): { sessionId: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { sessionId: match[1]! } : null;
}

/**
 * Two tabs refreshing at the same moment present the same token twice; inside this window the
 * second one is served too rather than treated as theft. At most one such sibling per rotation: a
 * third presentation of one token, even inside the window, is a copy and revokes the session.
 */
export const CONCURRENT_REFRESH_GRACE_MS = 10_000;

export interface SessionRow {
  id: string;
  user_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  /** The last time the person proved who he is in this session (sign-in, or the password again): sudo mode counts from it. */
  proved_at: Date;
}

export type RefreshOutcome =
  | { kind: 'rotated'; session: SessionRow; refreshToken: string }
  | { kind: 'reused'; sessionId: string };

/**
 * Sessions with rotating refresh tokens. Every token issued is remembered (hashed) with when it was
 * used: presenting a used token means it was copied, so the whole session is revoked.
 */
export class SessionStore {
  constructor(private readonly refreshTtlSeconds: number, private readonly reuseGraceMs = CONCURRENT_REFRESH_GRACE_MS) {}

  async open(em: EntityManager, userId: string, meta: { ip?: string; userAgent?: string }): Promise<{ session: SessionRow; refreshToken: string }> {
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + this.refreshTtlSeconds * 1000);
    const [inserted] = await em.execute<{ proved_at: Date }[]>(
      'insert into sessions (id, user_id, expires_at, ip, user_agent, proved_at) values (?, ?, ?, ?, ?, now()) returning proved_at',
      [id, userId, expiresAt, meta.ip ?? null, meta.userAgent?.slice(0, 300) ?? null]);
    const refreshToken = await this.issue(em, id);
    return { session: { id, user_id: userId, expires_at: expiresAt, revoked_at: null, proved_at: new Date(inserted!.proved_at) }, refreshToken };
  }

  private async issue(em: EntityManager, sessionId: string): Promise<string> {
    const token = `${sessionId}.${randomBytes(32).toString('base64url')}`;
    await em.execute('insert into refresh_tokens (token_hash, session_id) values (?, ?)', [hashToken(token), sessionId]);
    return token;
  }

  /** Exchanges a refresh token for a new one. Runs in the caller's transaction; locks the session row. */
  async rotate(em: EntityManager, refreshToken: string): Promise<RefreshOutcome> {
    const parsed = parseToken(refreshToken);
    if (!parsed) throw new DomainError('UNAUTHENTICATED');
    const [session] = await em.execute<SessionRow[]>('select id, user_id, expires_at, revoked_at, proved_at from sessions where id = ? for update', [parsed.sessionId]);
    if (!session) throw new DomainError('UNAUTHENTICATED');
    const [token] = await em.execute<{ used_at: Date | null; sibling_issued_at: Date | null }[]>(
      'select used_at, sibling_issued_at from refresh_tokens where token_hash = ? and session_id = ?', [hashToken(refreshToken), session.id]);
    if (!token) throw new DomainError('UNAUTHENTICATED');
    if (session.revoked_at || new Date(session.expires_at).getTime() <= Date.now()) throw new DomainError('SESSION_EXPIRED');
    if (token.used_at) {
      // Two tabs of one browser restoring the session at once both present the same cookie; the
      // second, arriving within the grace window, gets one sibling token instead of a sign-out.
      // Later than that, or once the sibling is out, a used token can only be a copy: the whole
      // session is revoked (the session row is locked, so two replays cannot both get a sibling).
      if (token.sibling_issued_at || Date.now() - new Date(token.used_at).getTime() >= this.reuseGraceMs) {
        await this.revoke(em, session.id, 'refresh token reused');
        return { kind: 'reused', sessionId: session.id };
      }
      await em.execute('update refresh_tokens set sibling_issued_at = now() where token_hash = ?', [hashToken(refreshToken)]);
    } else {
      await em.execute('update refresh_tokens set used_at = now() where token_hash = ?', [hashToken(refreshToken)]);
    }
    await em.execute('update sessions set last_seen_at = now() where id = ?', [session.id]);
    return { kind: 'rotated', session, refreshToken: await this.issue(em, session.id) };
  }

  /** The session a refresh token belongs to, if it is live; does not rotate. */
  async sessionOf(em: EntityManager, refreshToken: string): Promise<SessionRow | null> {
    const parsed = parseToken(refreshToken);
    if (!parsed) return null;
    const [row] = await em.execute<SessionRow[]>(
      `select s.id, s.user_id, s.expires_at, s.revoked_at, s.proved_at from sessions s join refresh_tokens t on t.session_id = s.id
        where s.id = ? and t.token_hash = ? and t.used_at is null and s.revoked_at is null and s.expires_at > now()`,
      [parsed.sessionId, hashToken(refreshToken)],
    );
    return row ?? null;
  }

  /** The person proved who he is again (sudo mode): the live session of his, or null when it has ended. */
  async markProved(em: EntityManager, userId: string, sessionId: string): Promise<SessionRow | null> {
    const [row] = await em.execute<SessionRow[]>(
      `update sessions set proved_at = now() where id = ? and user_id = ? and revoked_at is null and expires_at > now()
        returning id, user_id, expires_at, revoked_at, proved_at`, [sessionId, userId]);
    return row ?? null;
  }

  async revoke(em: EntityManager, sessionId: string, reason: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('update sessions set revoked_at = now(), revoked_reason = ? where id = ? and revoked_at is null returning id', [reason, sessionId]);
    return rows.length > 0;
  }

  /** The user's live sessions, the most recently seen first. */
  live(em: EntityManager, userId: string): Promise<{ id: string; user_agent: string | null; created_at: Date; last_seen_at: Date }[]> {
    return em.execute(
      `select id, user_agent, created_at, coalesce(last_seen_at, created_at) as last_seen_at from sessions
        where user_id = ? and revoked_at is null and expires_at > now() order by coalesce(last_seen_at, created_at) desc, created_at desc limit 200`,
      [userId],
    );
  }

  /** Ends one live session of the user; false when it is not his or not live. */
  async revokeOwn(em: EntityManager, userId: string, sessionId: string, reason: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('update sessions set revoked_at = now(), revoked_reason = ? where id = ? and user_id = ? and revoked_at is null returning id', [reason, sessionId, userId]);
    return rows.length > 0;
  }

  /** Ends every live session of the user but `keep` (the one changing the password); returns the ids ended. */
  async revokeAllBut(em: EntityManager, userId: string, keep: string | null, reason: string): Promise<string[]> {
    const rows = await em.execute<{ id: string }[]>(
      'update sessions set revoked_at = now(), revoked_reason = ? where user_id = ? and revoked_at is null and id is distinct from ? returning id',
      [reason, userId, keep],
    );
    return rows.map((row) => row.id);
  }
}
