import type { Redis } from 'ioredis';

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

  /** Counts one more for this address in the current window; returns the new count. */
  async add(scope: string, address: string, windowSeconds: number, now = Date.now()): Promise<number> {
    const key = this.key(scope, address, windowSeconds, now);
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSeconds + 1).exec()) as [[unknown, number], unknown];
    return count;
  }
}

/** A request without a client address (a direct NATS call) shares one strict bucket. */
export const addressOf = (ip: string | undefined): string => (ip && ip.trim() ? ip.trim() : 'unknown');
