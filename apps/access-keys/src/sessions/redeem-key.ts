import { randomUUID } from 'node:crypto';
import { AccessMessages, type OpenedViewSession, type RequestMeta, type ViewerTokenGrant } from '@lv/contracts';
import type { ViewerTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { addressOf, type RedeemBudget } from '../address-limits.js';
import type { KeysRepository } from '../keys/keys.repository.js';
import { hashAccessKey, hashSessionSecret, newSessionSecret } from '../secrets.js';
import type { StreamCommands } from '../stream-commands.js';
import { SESSION_STREAM_TYPE, sessionDecider, sessionStreamId } from './session.decider.js';
import type { SessionsRepository } from './sessions.repository.js';
import { openSession, requireConsent, requireRedeemable, requireRenewable } from './viewer-access.decider.js';
import { viewerTokenGrant } from './viewer-grant.js';

export interface RedeemKeyDeps {
  keys: Pick<KeysRepository, 'byHash' | 'byId'>;
  sessions: Pick<SessionsRepository, 'bySecretHash'>;
  commands: StreamCommands;
  budget: RedeemBudget;
  viewerTokens: ViewerTokenSigner;
  now: () => Date;
}

/**
 * A viewer opens the vault with a key (after consenting), and keeps a live session's token fresh.
 * Unknown, expired, revoked keys and keys of another vault all answer INVALID_OR_EXPIRED_KEY and
 * count against the address; once an address has failed REDEEM_FAILURES_PER_MINUTE times this
 * minute, it is refused even a good key.
 */
export class RedeemKey {
  constructor(private readonly deps: RedeemKeyDeps) {}

  async redeem(input: { access_key: string; owner: string | null; consent: { version: string; text_hash: string } }, meta: RequestMeta): Promise<OpenedViewSession> {
    const address = addressOf(meta.ip);
    await this.deps.budget.refuseSpent(address);
    requireConsent(input.consent);
    const attempt = await this.deps.budget.take(address);
    const key = await this.deps.keys.byHash(hashAccessKey(input.access_key));
    const now = this.deps.now();
    requireRedeemable(key, input.owner, now.getTime());
    await attempt.release();
    const secret = newSessionSecret();
    const open = openSession({
      sessionId: randomUUID(), secretHash: hashSessionSecret(secret), userAgent: meta.userAgent ?? null, origin: meta.origin ?? null, now: now.toISOString(),
    }, key);
    await this.deps.commands.run(sessionDecider, { streamId: sessionStreamId(open.sessionId), streamType: SESSION_STREAM_TYPE }, open, {
      actor: { kind: 'viewer', id: open.sessionId }, correlationId: meta.requestId,
    });
    const session = {
      id: open.sessionId, owner_id: open.ownerId, scopes: open.scopes, expires_at: new Date(open.expiresAt), letter_id: open.letterId ?? null, may_download: open.mayDownload === true,
    };
    return { ...viewerTokenGrant(this.deps.viewerTokens, session, key, now.getTime()), session: secret };
  }

  /** A fresh viewer token for a live session (the viewer's client renews it before it expires). */
  async viewToken(secret: string, meta: RequestMeta): Promise<ViewerTokenGrant> {
    const address = addressOf(meta.ip);
    await this.deps.budget.refuseSpent(address);
    const attempt = await this.deps.budget.take(address);
    const session = await this.deps.sessions.bySecretHash(hashSessionSecret(secret));
    if (!session) throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
    await attempt.release();
    const key = await this.deps.keys.byId(session.key_id);
    const now = this.deps.now().getTime();
    requireRenewable(session, key, now);
    return viewerTokenGrant(this.deps.viewerTokens, session, key, now);
  }
}
