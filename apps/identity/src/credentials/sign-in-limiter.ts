import type { Redis } from 'ioredis';
import { AuthMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

export interface SignInLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per account and per client address in a fixed window on Redis. Past the
 * limit the caller gets RATE_LIMITED with the seconds left; the window expiring lifts it, so an
 * attacker can slow an account down but never lock its owner out for good. A success clears the
 * account's counter.
 */
export class SignInLimiter {
  constructor(private readonly redis: Redis, private readonly limits: SignInLimits, private readonly prefix = 'lv:signin') {}

  private keys(email: string, ip: string | undefined): { account: string; address: string | null } {
    return { account: `${this.prefix}:acct:${email}`, address: ip ? `${this.prefix}:ip:${ip}` : null };
  }

  async assertAllowed(email: string, ip: string | undefined): Promise<void> {
    const { account, address } = this.keys(email, ip);
    const [accountCount, addressCount] = await Promise.all([
      this.redis.get(account),
      address ? this.redis.get(address) : Promise.resolve(null),
    ]);
    const blockedKey =
      Number(accountCount ?? 0) >= this.limits.maxFailuresPerAccount ? account
        : address && Number(addressCount ?? 0) >= this.limits.maxFailuresPerAddress ? address
          : null;
    if (!blockedKey) return;
    const ttl = await this.redis.ttl(blockedKey);
    throw new DomainError('RATE_LIMITED', AuthMessages.tooManySignIns, { retryAfter: ttl > 0 ? ttl : this.limits.windowSeconds });
  }

  async recordFailure(email: string, ip: string | undefined): Promise<void> {
    const { account, address } = this.keys(email, ip);
    const multi = this.redis.multi();
    for (const key of [account, address]) {
      if (!key) continue;
      multi.incr(key);
      multi.expire(key, this.limits.windowSeconds, 'NX');
    }
    await multi.exec();
  }

  async recordSuccess(email: string): Promise<void> {
    await this.redis.del(this.keys(email, undefined).account);
  }
}
