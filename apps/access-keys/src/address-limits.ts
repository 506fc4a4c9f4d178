import { addressBucket } from '@lv/platform/auth';
import { AccessMessages } from '@lv/contracts';
import { rateLimited, type RateBudgets } from '@lv/platform/limits';

/** The bucket a client address counts in: IPv4 as is, IPv6 per /64, none at all one shared strict bucket (addressBucket). */
export const addressOf = (ip: string | undefined): string => addressBucket(ip);

/**
 * Failed key attempts per client address a minute, one budget for redemption, the viewer's token
 * renewal and a key's landing page: probing keys through any of them is no faster than through one.
 * Counted on the platform's RateBudgets (one step per attempt, so parallel guesses cannot slip past).
 */
export class RedeemBudget {
  constructor(private readonly budgets: RateBudgets, private readonly perMinute: number) {}

  private key(address: string): string {
    return `redeem:${address}`;
  }

  /** Refuses an address that has spent its budget this minute, before anything else is checked. */
  async refuseSpent(address: string): Promise<void> {
    const { count, retryAfter } = await this.budgets.peek(this.key(address));
    if (count >= this.perMinute) throw rateLimited(AccessMessages.tooManyKeyAttempts, retryAfter || 60);
  }

  /**
   * One attempt, taken before the key is looked up and refused past the budget; the caller releases
   * it when the key opens: only failures spend it.
   */
  async take(address: string): Promise<{ release: () => Promise<void> }> {
    const key = this.key(address);
    const taken = await this.budgets.take([{ key, limit: this.perMinute }], 60);
    if (!taken.allowed) throw rateLimited(AccessMessages.tooManyKeyAttempts, taken.retryAfter);
    return { release: () => this.budgets.giveBack([key]) };
  }
}
