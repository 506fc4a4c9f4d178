import type { MikroORM } from '@mikro-orm/postgresql';
import { AccessMessages, type KeyStatusReply, type RequestMeta } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { findKeyByHash } from '../access.projections.js';
import { addressLimited, addressOf, type AddressLimits } from '../address-limits.js';
import { hashAccessKey } from '../secrets.js';

export interface KeyStatusDeps {
  orm: MikroORM;
  /** The same limiter and bucket as redeem: a failed check here is a failed redemption there. */
  limits: AddressLimits;
  redeemFailuresPerMinute: number;
  /** identity's display name for a vault owner (null when they gave none). */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
  now?: () => number;
}

/**
 * A key's landing page asks, before the disclaimer, whose vault a key opens and whether it still
 * works (issue 28). A known key of the link's vault says active, expired or revoked, with the owner's
 * name: the holder was given it, and the answer changes nothing. An unknown key, or another vault's,
 * is refused exactly as redeem refuses it and counted against the same per-address limit, so probing
 * keys here is no faster than redeeming them; a limited address is refused even a good key.
 */
export class KeyStatusService {
  constructor(private readonly deps: KeyStatusDeps) {}

  async check(input: { access_key: string; owner: string | null }, meta: RequestMeta): Promise<KeyStatusReply> {
    const address = addressOf(meta.ip);
    // Counted and compared in one step before the lookup (parallel probes cannot all pass), given back for a known key.
    const attempt = await this.deps.limits.reserve('redeem', address, 60, this.deps.redeemFailuresPerMinute);
    if (!attempt.allowed) throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
    const key = await findKeyByHash(this.deps.orm.em.fork(), hashAccessKey(input.access_key));
    if (!key || (input.owner !== null && input.owner !== key.owner_id)) {
      throw new DomainError('INVALID_OR_EXPIRED_KEY', AccessMessages.keyInvalid);
    }
    await attempt.release();
    const now = this.deps.now?.() ?? Date.now();
    const status = key.revoked_at ? 'revoked' : new Date(key.expires_at).getTime() <= now ? 'expired' : 'active';
    return { status, owner_name: await this.deps.ownerName(key.owner_id, meta) };
  }
}
