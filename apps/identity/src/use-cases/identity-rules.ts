import { validateCredentials, type AccountSessions, type Credentials } from '@lv/contracts';
import { newPasswordRefusal } from '../credentials/new-password.js';
import { describeUserAgent } from '../sessions/user-agent.js';

/** When a link made at `now` stops working, `ttlSeconds` later (ISO). */
export function expiresAfter(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString();
}

/**
 * What is wrong with a sign-up's address and password, or null: a new password follows the
 * new-password rules (8 characters, not a common one), not sign-in's.
 */
export function signUpProblems(input: Credentials): { email?: string; password?: string } | null {
  const problems = { ...validateCredentials(input) };
  const refusal = typeof input.password === 'string' ? newPasswordRefusal(input.password) : undefined;
  if (refusal) problems.password = refusal;
  return problems.email || problems.password ? problems : null;
}

/** The signed-in browsers of /settings, the caller's own marked as current. */
export function sessionsView(rows: readonly { id: string; user_agent: string | null; created_at: Date; last_seen_at: Date }[], currentSessionId: string | undefined): AccountSessions {
  return {
    sessions: rows.map((row) => ({
      id: row.id, device: describeUserAgent(row.user_agent), createdAt: new Date(row.created_at).toISOString(), lastSeenAt: new Date(row.last_seen_at).toISOString(), current: row.id === currentSessionId,
    })),
  };
}
