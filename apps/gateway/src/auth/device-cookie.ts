import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { REFRESH_COOKIE_PATH } from './refresh-cookie.js';

/**
 * The cookie of a browser that signed in before. Identity gives such a browser its own failure
 * budget, so somebody failing to sign in to the same account elsewhere never locks its owner out.
 */
export const DEVICE_COOKIE = 'lv_device';
/** A browser stays known for half a year after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Sent only to the auth endpoints (sign-in reads it, sign-in and sign-up renew it); never readable by scripts. */
export function deviceCookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: REFRESH_COOKIE_PATH, maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS };
}

/**
 * Issues and checks `lv_device` values: `<device id>.<HMAC-SHA256 of the id and the account's email>`.
 * The email is bound in the signature, not stored in the cookie, so a cookie proves "this browser
 * signed in to this email" and says nothing to whoever reads it.
 */
export class DeviceCookies {
  constructor(private readonly secret: string) {}

  /** A value for a browser that just signed in to `email`; keeps its device id when it already has one. */
  issue(email: string, currentValue?: string): string {
    const known = currentValue?.split('.', 1)[0];
    const deviceId = known && DEVICE_ID.test(known) ? known : randomBytes(16).toString('base64url');
    return `${deviceId}.${this.sign(deviceId, email)}`;
  }

  /** The device id when `value` was issued by us for `email`; undefined for anything else. */
  deviceFor(value: string | undefined, email: string): string | undefined {
    if (!value) return undefined;
    const [deviceId, signature, ...rest] = value.split('.');
    if (!deviceId || !signature || rest.length || !DEVICE_ID.test(deviceId)) return undefined;
    const expected = Buffer.from(this.sign(deviceId, email));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? deviceId : undefined;
  }

  private sign(deviceId: string, email: string): string {
    return createHmac('sha256', this.secret).update(`lv_device/v1\n${deviceId}\n${email}`).digest('base64url');
  }
}
