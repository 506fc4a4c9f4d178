import type { MikroORM } from '@mikro-orm/postgresql';
import { AccessMessages, type KeyStatusReply, type RequestMeta } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { RateBudgets } from '@lv/platform/limits';
import { addressOf, RedeemBudget } from '../address-limits.js';
import { hashAccessKey } from '../secrets.js';
import { keyStatusAt } from './key.decider.js';
import { SqlKeysRepository } from './keys.repository.js';

export interface KeyStatusDeps {
  orm: MikroORM;
  /** The same limiter and bucket as redeem: a failed check here is a failed redemption there. */
  limits: RateBudgets;
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
  private readonly keys: SqlKeysRepository;
  private readonly budget: RedeemBudget;

  constructor(private readonly deps: KeyStatusDeps) {
    this.keys = new SqlKeysRepository(deps.orm);
    this.budget = new RedeemBudget(deps.limits, deps.redeemFailuresPerMinute);
  }

  async check(input: { access_key: string; owner: string | null }, meta: RequestMeta): Promise<KeyStatusReply> {
    const address = addressOf(meta.ip);
    // Counted and compared in one step before the lookup (parallel probes cannot all pass), given back for a known key.
    const attempt = await this.budget.take(address);
    const key = await this.keys.byHash(hashAccessKey(input.access_key));
    if (!key || (input.owner !== null && input.owner !== key.owner_id)) {
      throw new DomainError('INVALID_OR_EXPIRED_KEY', AccessMessages.keyInvalid);
    }
    await attempt.release();
    return { status: keyStatusAt(key, this.deps.now?.() ?? Date.now()), owner_name: await this.deps.ownerName(key.owner_id, meta) };
  }
}
