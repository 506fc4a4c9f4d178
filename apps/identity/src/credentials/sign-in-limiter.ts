import type { Redis } from 'ioredis';
import { AuthMessages, EmailVerifyMessages, PasskeyMessages, ResetMessages, TwoStepMessages } from '@lv/contracts';
import { addressBucket } from '@lv/platform/auth';
import { RedisRateBudgets, takeOrRefuse, type Budget, type RateBudgets } from '@lv/platform/limits';

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
  /** "Forgot password?" requests per e-mail address asked about and per client address, inside the reset window. */
  maxResetsPerEmail: number;
  maxResetsPerAddress: number;
  resetWindowSeconds: number;
}

/** Device ids are made by the gateway (16 random bytes, base64url); anything else is ignored. */
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** A counted sign-in attempt, to settle once the password is checked. */
export interface SignInAttempt {
  /** Counters charged, in order; `clearOnSuccess` of them first. */
  readonly keys: readonly string[];
  readonly clearOnSuccess: number;
  /** The device's "seen" mark (whether or not it had its own budget this time), renewed when the password proves right. */
  readonly deviceSeenKey?: string;
}

/** Verification e-mails an account may ask for again, per hour (the one sent at sign-up is not counted). */
const VERIFICATION_RESENDS_PER_HOUR = 3;

/** How long a device's "seen" mark and an account's reset mark are kept: the device cookie's life. */
const DEVICE_MARK_SECONDS = 180 * 24 * 3600;

/**
 * Sign-in and sign-up limits on Redis, fixed windows. Every attempt is counted before the password
 * is hashed or checked (atomically, by the platform's RateBudgets), and given back when it succeeds, so the
 * counters hold failures only and the limit can never be overrun by parallel guesses.
 *
 * Nobody can lock an owner out: a stranger's failures fill the budgets of the stranger's address
 * (account+address 5, address 20) and the account's ceiling (25, well inside NIST 800-63B's 100 an
 * hour), while a browser that signed in to the account before (the gateway's signed lv_device
 * cookie) is charged only to its own budget (10), so the owner on a known device signs in at once.
 */
export class SignInLimiter {
  private readonly budgets: RateBudgets;

  constructor(private readonly redis: Redis, private readonly limits: SignInLimits, private readonly prefix = 'lv:signin') {
    // The budgets' keys carry the prefix themselves (the device marks beside them are plain keys).
    this.budgets = new RedisRateBudgets(redis, prefix);
  }

  /** Counts a sign-in attempt, or throws RATE_LIMITED (with retryAfter) when a budget it draws on is spent. */
  async beginSignIn(email: string, ip: string | undefined, device: string | undefined): Promise<SignInAttempt> {
    const address = addressBucket(ip);
    const deviceSeenKey = device && DEVICE_ID.test(device) ? `${this.prefix}:dev-seen:${device}|${email}` : undefined;
    const budgets: Budget[] =
      deviceSeenKey && (await this.deviceStillKnown(deviceSeenKey, email))
        ? [{ key: `dev:${device}|${email}`, limit: this.limits.maxFailuresPerDevice }]
        : [
            { key: `aa:${email}|${address}`, limit: this.limits.maxFailuresPerAccountAddress },
            { key: `ip:${address}`, limit: this.limits.maxFailuresPerAddress },
            { key: `acct:${email}`, limit: this.limits.maxFailuresPerAccount },
          ];
    await takeOrRefuse(this.budgets, budgets, this.limits.windowSeconds, AuthMessages.tooManySignIns);
    // Success proves the person at this address (or on this device) knows the password: their own
    // counter starts again; the shared ones just get this attempt back.
    return { keys: budgets.map((b) => b.key), clearOnSuccess: 1, ...(deviceSeenKey ? { deviceSeenKey } : {}) };
  }

  /** The password was right: the attempt was no failure (and a known device is known since now). */
  async signInSucceeded(attempt: SignInAttempt): Promise<void> {
    await this.budgets.giveBack(attempt.keys, attempt.clearOnSuccess);
    if (attempt.deviceSeenKey) await this.redis.set(attempt.deviceSeenKey, String(Date.now()), 'EX', DEVICE_MARK_SECONDS);
  }

  /**
   * A password reset ends every device's own budget: a browser known before it (an ex's laptop, say)
   * is charged to the shared budgets again until it signs in with the new password.
   */
  async forgetDevices(email: string): Promise<void> {
    await this.redis.set(`${this.prefix}:dev-reset:${email}`, String(Date.now()), 'EX', DEVICE_MARK_SECONDS);
  }

  /**
   * The owner's way through the account's ceiling (issue 29): a reset proves the mailbox, so the
   * failures strangers spent on the account are forgiven and he signs in with the new password at
   * once, from any address. Their own addresses' budgets stay spent.
   */
  async reopenAccount(email: string): Promise<void> {
    await this.budgets.clear([`acct:${email}`]);
  }

  /**
   * Whether a device the gateway vouches for still has its own budget: always, unless the account's
   * password was reset after the device was last seen. A device is marked seen when first met (the
   * gateway only issues its cookie after a sign-in or sign-up to this address) and at each success.
   */
  private async deviceStillKnown(seenKey: string, email: string): Promise<boolean> {
    const [seen, reset] = await this.redis.mget(seenKey, `${this.prefix}:dev-reset:${email}`);
    if (reset !== null) return seen !== null && Number(seen) > Number(reset);
    if (seen === null) await this.redis.set(seenKey, String(Date.now()), 'EX', DEVICE_MARK_SECONDS, 'NX');
    return true;
  }

  /** The attempt could not be judged (the database failed): give it back without clearing anything. */
  async signInUndecided(attempt: SignInAttempt): Promise<void> {
    await this.budgets.giveBack(attempt.keys);
  }

  /**
   * Counts a code of two-step sign-in (the second step, turning it off, new recovery codes), or throws
   * RATE_LIMITED: the password's budgets for the account from one address and for the account from
   * everywhere, on counters of their own, so six digits are guessed no faster than a password.
   */
  async beginTwoStepCode(userId: string, ip: string | undefined): Promise<SignInAttempt> {
    const budgets: Budget[] = [
      { key: `2fa-aa:${userId}|${addressBucket(ip)}`, limit: this.limits.maxFailuresPerAccountAddress },
      { key: `2fa-acct:${userId}`, limit: this.limits.maxFailuresPerAccount },
    ];
    await takeOrRefuse(this.budgets, budgets, this.limits.windowSeconds, TwoStepMessages.tooManyCodes);
    return { keys: budgets.map((b) => b.key), clearOnSuccess: 1 };
  }

  /**
   * Counts a passkey's answer (signing in, a second step, sudo mode), or throws RATE_LIMITED: per client
   * address, and (the passkey named is an account's) on the account's two-step budgets, so passkeys are
   * tried no faster than passwords or codes.
   */
  async beginPasskey(userId: string | undefined, ip: string | undefined): Promise<SignInAttempt> {
    const address = addressBucket(ip);
    const byAddress: Budget = { key: `pk-ip:${address}`, limit: this.limits.maxFailuresPerAddress };
    // As with passwords, a success clears only the account's budget from this address; the shared ones just get the attempt back.
    const budgets: Budget[] = userId
      ? [{ key: `2fa-aa:${userId}|${address}`, limit: this.limits.maxFailuresPerAccountAddress }, byAddress, { key: `2fa-acct:${userId}`, limit: this.limits.maxFailuresPerAccount }]
      : [byAddress];
    await takeOrRefuse(this.budgets, budgets, this.limits.windowSeconds, PasskeyMessages.tooMany);
    return { keys: budgets.map((b) => b.key), clearOnSuccess: userId ? 1 : 0 };
  }

  /**
   * Counts a public passkey ceremony started (each stores a challenge for minutes): a few a minute per
   * address is far more than any person needs, and keeps strangers from filling the table.
   */
  async beginPasskeyOptions(ip: string | undefined): Promise<void> {
    await takeOrRefuse(this.budgets, [{ key: `pk-options:${addressBucket(ip)}`, limit: this.limits.maxFailuresPerAddress * 3 }], this.limits.windowSeconds, PasskeyMessages.tooMany);
  }

  /** Counts a sign-up from this address, or throws RATE_LIMITED naming sign-ups. */
  async beginSignUp(ip: string | undefined): Promise<void> {
    await takeOrRefuse(this.budgets, [{ key: `signup:${addressBucket(ip)}`, limit: this.limits.maxSignUpsPerAddress }], this.limits.signUpWindowSeconds, AuthMessages.tooManySignUps);
  }

  /**
   * Counts a "Forgot password?" request, or throws RATE_LIMITED. Keyed on the address typed, account or
   * not, so the limit itself never tells whether an account exists.
   */
  async beginResetRequest(email: string, ip: string | undefined): Promise<void> {
    await takeOrRefuse(this.budgets, [
      { key: `reset:${email}`, limit: this.limits.maxResetsPerEmail },
      { key: `reset-ip:${addressBucket(ip)}`, limit: this.limits.maxResetsPerAddress },
    ], this.limits.resetWindowSeconds, ResetMessages.tooManyRequests);
  }

  /** Counts a "Resend verification e-mail" of this account, or throws RATE_LIMITED (with retryAfter). */
  async beginVerificationResend(userId: string): Promise<void> {
    await takeOrRefuse(this.budgets, [{ key: `verify-resend:${userId}`, limit: VERIFICATION_RESENDS_PER_HOUR }], 3600, EmailVerifyMessages.tooManyResends);
  }
}
