import type { ViewerTokenGrant, ViewSection } from '@lv/contracts';
import { VIEWER_TOKEN_TTL_SECONDS, type ViewerTokenSigner } from '@lv/platform/auth';
import type { KeyRow } from '../keys/keys.repository.js';
import type { SessionRow } from './sessions.repository.js';

/**
 * A viewer token for a live session: 15 minutes, but never past the session's end nor its key's
 * expiry, so an expired key stops at every service on the next request (services check only the
 * token), as a revoked one does through the revocation list. The key's download permission, copied
 * to the session at redemption, rides in the token (`dl`) and in the grant (`may_download`).
 */
export function viewerTokenGrant(
  signer: ViewerTokenSigner,
  session: Pick<SessionRow, 'id' | 'owner_id' | 'scopes' | 'expires_at' | 'letter_id' | 'may_download'>,
  key: Pick<KeyRow, 'expires_at'>,
  now = Date.now(),
): ViewerTokenGrant {
  const sessionEnds = new Date(session.expires_at).getTime();
  const ends = Math.min(sessionEnds, new Date(key.expires_at).getTime());
  const ttl = Math.max(1, Math.min(VIEWER_TOKEN_TTL_SECONDS, Math.floor((ends - now) / 1000)));
  const scopes = session.scopes as ViewSection[];
  const mayDownload = session.may_download === true;
  const { token, expiresAt } = signer.sign({ vaultOwnerId: session.owner_id, viewSessionId: session.id, scopes, letterId: session.letter_id, mayDownload }, ttl);
  return {
    session_id: session.id, owner_id: session.owner_id, scopes, viewer_token: token, viewer_token_expires_at: expiresAt, session_expires_at: new Date(sessionEnds).toISOString(),
    ...(session.letter_id ? { letter_id: session.letter_id } : {}), may_download: mayDownload,
  };
}
