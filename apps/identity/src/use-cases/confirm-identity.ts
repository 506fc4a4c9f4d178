import type { RequestMeta, SessionView } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { IdentityCore } from './identity-core.js';

/**
 * Sudo mode: the signed-in owner gives his password again (checked and counted like a sign-in, so it
 * cannot be guessed here either); his session's proof is renewed and he gets an access token that
 * carries it. Sensitive actions accept that token for SUDO_WINDOW_SECONDS.
 */
export async function confirmIdentity(core: IdentityCore, caller: Caller, input: { currentPassword: string }, meta: RequestMeta): Promise<SessionView> {
  const owner = ownerOf(caller);
  await core.checkCurrentPassword(owner.userId, input.currentPassword, meta);
  const session = await core.em.transactional((em) => core.sessions.markProved(em, owner.userId, owner.sessionId));
  // Signed out elsewhere between the token's check and now: the password proves nothing for a session that has ended.
  if (!session) throw new DomainError('SESSION_EXPIRED');
  return core.issueAccessToken(session);
}
