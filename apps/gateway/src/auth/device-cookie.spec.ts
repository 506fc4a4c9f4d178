import { alterMiddleCharacter } from '@lv/testing';
import { DEVICE_COOKIE_MAX_AGE_SECONDS, DeviceCookies, deviceCookieOptions } from './device-cookie.js';

describe('lv_device cookie', () => {
  const devices = new DeviceCookies('spec-device-cookie-secret-0123456789abcdef');

  it('proves an earlier sign-in to the same email, and to no other', () => {
    const value = devices.issue('parent@example.com');
    const deviceId = devices.deviceFor(value, 'parent@example.com');
    expect(deviceId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(value.startsWith(`${deviceId}.`)).toBe(true);
    expect(value).not.toContain('parent');
    expect(devices.deviceFor(value, 'other@example.com')).toBeUndefined();
  });

  it('refuses values signed with another secret, altered or malformed', () => {
    const value = devices.issue('parent@example.com');
    const forged = new DeviceCookies('another-secret-another-secret-another').issue('parent@example.com');
    expect(devices.deviceFor(forged, 'parent@example.com')).toBeUndefined();
    const [id, sig] = value.split('.');
    const flipped = `${id}.${alterMiddleCharacter(sig!)}`;
    expect(devices.deviceFor(flipped, 'parent@example.com')).toBeUndefined();
    for (const bad of [undefined, '', 'x', `${id}.`, `.${sig}`, `${value}.extra`, `short.${sig}`]) expect(devices.deviceFor(bad, 'parent@example.com')).toBeUndefined();
  });

  it('keeps the device id across sign-ins, also when the browser signs in to another account', () => {
    const first = devices.issue('parent@example.com');
    const id = first.split('.')[0];
    expect(devices.issue('parent@example.com', first).split('.')[0]).toBe(id);
    const second = devices.issue('other@example.com', first);
    expect(second.split('.')[0]).toBe(id);
    expect(devices.deviceFor(second, 'other@example.com')).toBe(id);
    expect(devices.issue('parent@example.com', 'garbage').split('.')[0]).not.toBe(id);
  });

  it('is httpOnly, SameSite=Strict, sent to /api/auth only, Secure per COOKIE_SECURE', () => {
    expect(deviceCookieOptions(false)).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: '/api/auth', maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS });
    expect(deviceCookieOptions(true).secure).toBe(true);
  });
});
