import type { Redis } from 'ioredis';
import { DomainError } from '../errors/index.js';

/** One budget an attempt draws on: at most `limit` attempts under `key` per window. */
export interface Budget {
  readonly key: string;
  readonly limit: number;
}

/** Whether an attempt was counted, or the seconds until the budget that refused it opens again. */
export type Taken = { readonly allowed: true } | { readonly allowed: false; readonly retryAfter: number };

/**
 * The product's one limiter (sign-in, sign-up, resets, redemption, access requests, trustee links and
 * invitations): fixed windows that start with a budget's first attempt. An attempt is counted against
 * every budget it draws on, or against none when any of them is spent, in one step, so parallel
 * attempts cannot all pass a check made before any of them counted (60 parallel redeems once got 41
 * through a limit of 5). A budget of failures gives back the attempts that succeeded.
 */
export interface RateBudgets {
  /** Counts one attempt against every budget, only when all of them are under their limits. */
  take(budgets: readonly Budget[], windowSeconds: number): Promise<Taken>;
  /** Gives attempts back (never below 0); the first `clear` keys are emptied instead. */
  giveBack(keys: readonly string[], clear?: number): Promise<void>;
  /** How many attempts a budget holds now, and the seconds until its window ends (0 when empty). */
  peek(key: string): Promise<{ count: number; retryAfter: number }>;
  /** Empties budgets at once (a proven owner's account ceiling, say). */
  clear(keys: readonly string[]): Promise<void>;
}

/** The refusal of an attempt past its budget: RATE_LIMITED with the seconds until it may try again (the gateway's Retry-After). */
export function rateLimited(message: string | undefined, retryAfter: number): DomainError {
  return new DomainError('RATE_LIMITED', message, { retryAfter: Math.max(1, Math.ceil(retryAfter)) });
}

/** Takes one attempt or throws RATE_LIMITED with `message`. */
export async function takeOrRefuse(budgets: RateBudgets, wanted: readonly Budget[], windowSeconds: number, message: string | undefined): Promise<void> {
  const taken = await budgets.take(wanted, windowSeconds);
  if (!taken.allowed) throw rateLimited(message, taken.retryAfter);
}

/**
 *   KEYS  the budgets' counters;  ARGV  [windowSeconds, limit of KEYS[1], limit of KEYS[2], ...]
 * Returns {1} when counted, {0, ttl} when a counter is at its limit (then nothing is counted).
 */
const TAKE_SCRIPT = `
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[i + 1]) then
    return {0, redis.call('TTL', key)}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
return {1}
`;

/** KEYS[1..ARGV[1]] are deleted, the others decremented (never below 0). */
const GIVE_BACK_SCRIPT = `
local cleared = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  if i <= cleared then
    redis.call('DEL', key)
  elseif tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 1
`;

type RedisWithBudgets = Redis & {
  lvTakeBudgets(...args: (string | number)[]): Promise<[number, number?]>;
  lvGiveBackBudgets(...args: (string | number)[]): Promise<number>;
};

/** RateBudgets in Redis: shared by every replica, each step one Lua script. Keys live under `prefix`. */
export class RedisRateBudgets implements RateBudgets {
  private readonly redis: RedisWithBudgets;

  constructor(redis: Redis, private readonly prefix: string) {
    if (!('lvTakeBudgets' in redis)) {
      redis.defineCommand('lvTakeBudgets', { lua: TAKE_SCRIPT });
      redis.defineCommand('lvGiveBackBudgets', { lua: GIVE_BACK_SCRIPT });
    }
    this.redis = redis as RedisWithBudgets;
  }

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }

  async take(budgets: readonly Budget[], windowSeconds: number): Promise<Taken> {
    if (budgets.length === 0) return { allowed: true };
    const [counted, ttl] = await this.redis.lvTakeBudgets(budgets.length, ...budgets.map((b) => this.key(b.key)), windowSeconds, ...budgets.map((b) => b.limit));
    if (counted === 1) return { allowed: true };
    return { allowed: false, retryAfter: ttl !== undefined && ttl > 0 ? ttl : windowSeconds };
  }

  async giveBack(keys: readonly string[], clear = 0): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.lvGiveBackBudgets(keys.length, ...keys.map((k) => this.key(k)), clear);
  }

  async peek(key: string): Promise<{ count: number; retryAfter: number }> {
    const [count, ttl] = await this.redis.multi().get(this.key(key)).ttl(this.key(key)).exec().then((replies) => (replies ?? []).map(([, value]) => value));
    return { count: Number(count ?? 0), retryAfter: typeof ttl === 'number' && ttl > 0 ? ttl : 0 };
  }

  async clear(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys.map((k) => this.key(k)));
  }
}

/**
 * RateBudgets in one process's memory, on a given clock: the same rules as RedisRateBudgets (the
 * shared spec runs both), for use-case specs and single-process tools.
 */
export class InMemoryRateBudgets implements RateBudgets {
  private readonly counters = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  private live(key: string) {
    const counter = this.counters.get(key);
    if (counter && counter.endsAt <= this.nowMs()) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  take(budgets: readonly Budget[], windowSeconds: number): Promise<Taken> {
    for (const { key, limit } of budgets) {
      const counter = this.live(key);
      if ((counter?.count ?? 0) >= limit) return Promise.resolve({ allowed: false, retryAfter: counter ? Math.ceil((counter.endsAt - this.nowMs()) / 1000) : windowSeconds });
    }
    for (const { key } of budgets) {
      const counter = this.live(key);
      this.counters.set(key, counter ? { ...counter, count: counter.count + 1 } : { count: 1, endsAt: this.nowMs() + windowSeconds * 1000 });
    }
    return Promise.resolve({ allowed: true });
  }

  giveBack(keys: readonly string[], clear = 0): Promise<void> {
    keys.forEach((key, i) => {
      const counter = this.live(key);
      if (i < clear) this.counters.delete(key);
      else if (counter && counter.count > 0) this.counters.set(key, { ...counter, count: counter.count - 1 });
    });
    return Promise.resolve();
  }

  peek(key: string): Promise<{ count: number; retryAfter: number }> {
    const counter = this.live(key);
    return Promise.resolve({ count: counter?.count ?? 0, retryAfter: counter ? Math.ceil((counter.endsAt - this.nowMs()) / 1000) : 0 });
  }

  clear(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.counters.delete(key);
    return Promise.resolve();
  }
}
