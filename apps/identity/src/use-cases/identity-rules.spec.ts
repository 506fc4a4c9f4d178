import { AuthMessages } from '@lv/contracts';
import { expiresAfter, sessionsView, signUpProblems } from './identity-rules.js';

describe('expiresAfter', () => {
  it('is the given number of seconds after now, as ISO text', () => {
    expect(expiresAfter(new Date('2026-03-01T10:00:00.000Z'), 3600)).toBe('2026-03-01T11:00:00.000Z');
    expect(expiresAfter(new Date('2026-12-31T23:59:30.000Z'), 45)).toBe('2027-01-01T00:00:15.000Z');
  });
});

describe('signUpProblems', () => {
  it('takes a valid address and a new password that follows the rules', () => {
    expect(signUpProblems({ email: 'ann@example.com', password: 'a long unusual phrase' })).toBeNull();
  });

  it("holds a new password to the new-password rules, not sign-in's", () => {
    // Seven characters pass sign-in's check (6) but not a new password's (8).
    expect(signUpProblems({ email: 'ann@example.com', password: 'x7#kQ2p' })).toEqual({ password: AuthMessages.newPasswordTooShort });
    expect(signUpProblems({ email: 'ann@example.com', password: 'password123' })).toEqual({ password: AuthMessages.passwordTooCommon });
    expect(signUpProblems({ email: 'ann@example.com', password: '        ' })).toEqual({ password: AuthMessages.passwordOnlySpaces });
  });

  it('names a bad address and a bad password together', () => {
    expect(signUpProblems({ email: 'not an address', password: '' })).toEqual({ email: AuthMessages.emailInvalid, password: AuthMessages.passwordRequired });
  });
});

describe('sessionsView', () => {
  const rows = [
    { id: 's1', user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', created_at: new Date('2026-03-01T10:00:00Z'), last_seen_at: new Date('2026-03-02T08:00:00Z') },
    { id: 's2', user_agent: null, created_at: new Date('2026-02-01T10:00:00Z'), last_seen_at: new Date('2026-02-01T10:00:00Z') },
  ];

  it("describes each browser and marks the caller's own session as current", () => {
    expect(sessionsView(rows, 's2')).toEqual({
      sessions: [
        { id: 's1', device: 'Firefox on Linux', createdAt: '2026-03-01T10:00:00.000Z', lastSeenAt: '2026-03-02T08:00:00.000Z', current: false },
        { id: 's2', device: 'Unknown browser', createdAt: '2026-02-01T10:00:00.000Z', lastSeenAt: '2026-02-01T10:00:00.000Z', current: true },
      ],
    });
  });

  it('marks none as current for a caller without a session (an operator)', () => {
    expect(sessionsView(rows, undefined).sessions.map((s) => s.current)).toEqual([false, false]);
  });
});
