import type { Redis } from 'ioredis';
import { addressBucket } from '@lv/platform/auth';
import { AccessMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/**
 * Per-address limits in Redis, in fixed windows (a minute for redemption, an hour for the request
 * form): one counter per address and window, expiring with it. Fixed windows let a burst straddle
 * two windows (twice the limit at worst), which still holds 1,000 guesses to a handful a minute.
 */
export class AddressLimits {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  private key(scope: string, address: string, windowSeconds: number, now: number): string {
    return `${this.prefix}:${scope}:${address}:${Math.floor(now / 1000 / windowSeconds)}`;
  }

  /** How many were counted for this address in the current window. */
  async count(scope: string, address: string, windowSeconds: number, now = Date.now()): Promise<number> {
    return Number((await this.redis.get(this.key(scope, address, windowSeconds, now))) ?? 0);
  }

  /**
   * Takes one of `limit` attempts for this address in the current window, counting and comparing in
   * one Redis step, so parallel attempts cannot all pass a check made before any of them counted (60
   * parallel redeems against a limit of 5 once got 41 through). `release` gives the attempt back: a
   * budget of failures releases what succeeded.
   */
  async reserve(scope: string, address: string, windowSeconds: number, limit: number, now = Date.now()): Promise<{ allowed: boolean; release: () => Promise<void> }> {
    const key = this.key(scope, address, windowSeconds, now);
    const count = await this.add(scope, address, windowSeconds, now);
    return { allowed: count <= limit, release: async () => void (await this.redis.decr(key)) };
  }

  /** Counts one more for this address in the current window; returns the new count. */
  async add(scope: string, address: string, windowSeconds: number, now = Date.now()): Promise<number> {
    const key = this.key(scope, address, windowSeconds, now);
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSeconds + 1).exec()) as [[unknown, number], unknown];
    return count;
  }
}

/** The bucket a client address counts in: IPv4 as is, IPv6 per /64, none at all one shared strict bucket (addressBucket). */
export const addressOf = (ip: string | undefined): string => addressBucket(ip);

/**
 * The refusal of an address past its budget, with the seconds until its fixed window ends: the gateway
 * answers them as Retry-After (and `retryAfter` in the body), so a client knows when to try again.
 */
export function addressLimited(message: string, windowSeconds: number, now = Date.now()): DomainError {
  const windowMs = windowSeconds * 1000;
  const retryAfter = Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000));
  return new DomainError('RATE_LIMITED', message, { retryAfter });
}

/** The limiter as the use cases need it (AddressLimits in Redis; the unit specs keep counts in memory). */
export type AddressCounters = Pick<AddressLimits, 'count' | 'reserve' | 'add'>;

/**
 * Failed key attempts per client address a minute, one budget for redemption, the viewer's token
 * renewal and a key's landing page: probing keys through any of them is no faster than through one.
 */
export class RedeemBudget {
  constructor(private readonly limits: AddressCounters, private readonly perMinute: number) {}

  /** Refuses an address that has spent its budget this minute, before anything else is checked. */
  async refuseSpent(address: string): Promise<void> {
    if ((await this.limits.count('redeem', address, 60)) >= this.perMinute) throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
  }

  /**
   * One attempt, taken atomically before the key is looked up (see AddressLimits.reserve), and
   * refused past the budget; the caller releases it when the key opens: only failures spend it.
   */
  async take(address: string): Promise<{ release: () => Promise<void> }> {
    const attempt = await this.limits.reserve('redeem', address, 60, this.perMinute);
    if (!attempt.allowed) throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
    return attempt;
  }
}
