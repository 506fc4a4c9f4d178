import type { Redis } from 'ioredis';
import { AuthMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { addressBucket } from '@lv/platform/auth';

export interface SignInLimits {
  /** Failed sign-ins for one account from one address (the usual guessing budget). */
  maxFailuresPerAccountAddress: number;
  /** Failed sign-ins from one address, whatever the accounts (one client spraying many). */
  maxFailuresPerAddress: number;
  /** Failed sign-ins for one account from unknown devices, all addresses together (a distributed attack). */
  maxFailuresPerAccount: number;
  /** Failed sign-ins from a device that signed in to the account before: its own budget. */
  maxFailuresPerDevice: number;
  windowSeconds: number;
  /** Sign-ups allowed from one address per sign-up window. */
  maxSignUpsPerAddress: number;
  signUpWindowSeconds: number;
}

/** Device ids are made by the gateway (16 random bytes, base64url); anything else is ignored. */
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Checks every counter and, only when all are under their limits, increments them all, in one
 * Redis script: nothing runs between the check and the count, so parallel attempts cannot slip past.
 *   KEYS   the counters the attempt is charged to
 *   ARGV   [windowSeconds, limit of KEYS[1], limit of KEYS[2], ...]
 * Returns { 1 } when counted, { 0, ttl } when a counter is at its limit (then nothing is counted).
 */
const CHARGE_SCRIPT = `
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

/** Gives back an attempt that turned out not to be a failure: decrements (never below 0); KEYS[1..ARGV[1]] are deleted instead. */
const RELEASE_SCRIPT = `
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

/** A counted sign-in attempt, to settle once the password is checked. */
export interface SignInAttempt {
  /** Counters charged, in order; `clearOnSuccess` of them first. */
  readonly keys: readonly string[];
  readonly clearOnSuccess: number;
}

type RedisWithScripts = Redis & {
  lvChargeAttempt(...args: (string | number)[]): Promise<[number, number?]>;
  lvReleaseAttempt(...args: (string | number)[]): Promise<number>;
};

/**
 * Sign-in and sign-up limits on Redis, fixed windows. Every attempt is counted before the password
 * is hashed or checked (atomically, see CHARGE_SCRIPT), and given back when it succeeds, so the
 * counters hold failures only and the limit can never be overrun by parallel guesses.
 *
 * Nobody can lock an owner out: a stranger's failures fill the budgets of the stranger's address
 * (account+address 5, address 20) and the account's ceiling (25, well inside NIST 800-63B's 100 an
 * hour), while a browser that signed in to the account before (the gateway's signed lv_device
 * cookie) is charged only to its own budget (10), so the owner on a known device signs in at once.
 */
export class SignInLimiter {
  private readonly redis: RedisWithScripts;

  constructor(redis: Redis, private readonly limits: SignInLimits, private readonly prefix = 'lv:signin') {
    if (!('lvChargeAttempt' in redis)) {
      redis.defineCommand('lvChargeAttempt', { lua: CHARGE_SCRIPT });
      redis.defineCommand('lvReleaseAttempt', { lua: RELEASE_SCRIPT });
    }
    this.redis = redis as RedisWithScripts;
  }

  /** Counts a sign-in attempt, or throws RATE_LIMITED (with retryAfter) when a budget it draws on is spent. */
  async beginSignIn(email: string, ip: string | undefined, device: string | undefined): Promise<SignInAttempt> {
    const address = addressBucket(ip);
    const budgets: [string, number][] =
      device && DEVICE_ID.test(device)
        ? [[`${this.prefix}:dev:${device}|${email}`, this.limits.maxFailuresPerDevice]]
        : [
            [`${this.prefix}:aa:${email}|${address}`, this.limits.maxFailuresPerAccountAddress],
            [`${this.prefix}:ip:${address}`, this.limits.maxFailuresPerAddress],
            [`${this.prefix}:acct:${email}`, this.limits.maxFailuresPerAccount],
          ];
    await this.charge(budgets, this.limits.windowSeconds, AuthMessages.tooManySignIns);
    // Success proves the person at this address (or on this device) knows the password: their own
    // counter starts again; the shared ones just get this attempt back.
    return { keys: budgets.map(([key]) => key), clearOnSuccess: 1 };
  }

  /** The password was right: the attempt was no failure. */
  async signInSucceeded(attempt: SignInAttempt): Promise<void> {
    await this.redis.lvReleaseAttempt(attempt.keys.length, ...attempt.keys, attempt.clearOnSuccess);
  }

  /** The attempt could not be judged (the database failed): give it back without clearing anything. */
  async signInUndecided(attempt: SignInAttempt): Promise<void> {
    await this.redis.lvReleaseAttempt(attempt.keys.length, ...attempt.keys, 0);
  }

  /** Counts a sign-up from this address, or throws RATE_LIMITED naming sign-ups. */
  async beginSignUp(ip: string | undefined): Promise<void> {
    await this.charge([[`${this.prefix}:signup:${addressBucket(ip)}`, this.limits.maxSignUpsPerAddress]], this.limits.signUpWindowSeconds, AuthMessages.tooManySignUps);
  }

  private async charge(budgets: [string, number][], windowSeconds: number, message?: string): Promise<void> {
    const [counted, ttl] = await this.redis.lvChargeAttempt(budgets.length, ...budgets.map(([key]) => key), windowSeconds, ...budgets.map(([, limit]) => limit));
    if (counted === 1) return;
    throw new DomainError('RATE_LIMITED', message, { retryAfter: ttl !== undefined && ttl > 0 ? ttl : windowSeconds });
  }
}
