import { randomUUID } from 'node:crypto';
import type { UserCaller, ViewerCaller, ViewerScope } from '@lv/platform/auth';

/** A signed-in owner, as the service sees him once his token is verified. */
export const ownerCaller = (userId = randomUUID(), sessionId = randomUUID()): UserCaller => ({ kind: 'user', userId, sessionId, email: 'owner@example.com', tier: 'pro', isAdmin: false, emailVerified: true, provedAt: Date.now() });

/** A family viewer of `ownerId`'s vault whose key opens `scopes`. */
export const viewerCaller = (ownerId: string, scopes: ViewerScope[], mayDownload = false): ViewerCaller => ({
  kind: 'viewer', vaultOwnerId: ownerId, viewSessionId: randomUUID(), scopes, expiresAt: Date.now() + 60_000, mayDownload,
});
