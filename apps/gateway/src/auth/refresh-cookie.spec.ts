import { ADMIN_COOKIE_MAX_AGE_SECONDS, adminCookieOptions, clearedAdminCookieOptions, QUEUE_DASHBOARD_PATH, tokenExpiresAt } from '../admin/admin-access.js';
import { clearedRefreshCookieOptions, refreshCookieOptions, REFRESH_COOKIE_PATH } from './refresh-cookie.js';

describe('refresh cookie', () => {
  const now = 1_800_000_000_000;

  it('is httpOnly, SameSite=Strict, scoped to /api/auth and lives as long as the refresh token', () => {
    expect(refreshCookieOptions(now + 30 * 24 * 3600 * 1000, false, now)).toEqual({
      httpOnly: true,
      sameSite: 'strict',
      secure: false,
      path: '/api/auth',
      maxAge: 30 * 24 * 3600,
    });
    expect(REFRESH_COOKIE_PATH).toBe('/api/auth');
  });

  it('is Secure when COOKIE_SECURE is on', () => {
    expect(refreshCookieOptions(now + 1000, true, now).secure).toBe(true);
  });

  it('never gets a negative lifetime', () => {
    expect(refreshCookieOptions(now - 5000, false, now).maxAge).toBe(0);
  });

  it('is cleared with the same path and attributes', () => {
    expect(clearedRefreshCookieOptions(true)).toMatchObject({ httpOnly: true, sameSite: 'strict', secure: true, path: '/api/auth', maxAge: 0 });
  });
});

describe('admin dashboard cookie', () => {
  const now = 1_800_000_000_000;

  it('is httpOnly, Strict, only sent to the dashboard, and never outlives its token or 15 minutes', () => {
    expect(adminCookieOptions(now + 60_000, false, now)).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: QUEUE_DASHBOARD_PATH, maxAge: 60 });
    expect(adminCookieOptions(now + 3_600_000, true, now).maxAge).toBe(ADMIN_COOKIE_MAX_AGE_SECONDS);
    expect(clearedAdminCookieOptions(false)).toMatchObject({ path: QUEUE_DASHBOARD_PATH, maxAge: 0 });
  });

  it("reads a JWT's exp in milliseconds", () => {
    const payload = Buffer.from(JSON.stringify({ exp: 1_800_000_123 })).toString('base64url');
    expect(tokenExpiresAt(`h.${payload}.s`)).toBe(1_800_000_123_000);
    expect(tokenExpiresAt('not-a-jwt')).toBeNull();
    expect(tokenExpiresAt('a.%%%.c')).toBeNull();
  });
});
