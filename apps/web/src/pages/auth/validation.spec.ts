import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../api/client.js';
import { authErrorDescription, serverFieldErrors } from './auth-errors.js';
import { passwordRequirements, validateCredentials } from './validation.js';

describe('validateCredentials', () => {
  it('requires an email and a password', () => {
    expect(validateCredentials({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateCredentials({ email: '   ', password: 'secret1' })).toEqual({ email: 'Email is required' });
  });

  it('asks a new account for 8 characters, not one repeated, while sign-in takes the older 6', () => {
    expect(validateCredentials({ email: 'sam@example.com', password: 'secret1' }, 'signup')).toEqual({ password: 'Password must be at least 8 characters' });
    expect(validateCredentials({ email: 'sam@example.com', password: 'aaaaaaaaa' }, 'signup')).toEqual({ password: 'This password is too common and easy to guess. Please choose another one.' });
    expect(validateCredentials({ email: 'sam@example.com', password: 'lantern-on-the-hill' }, 'signup')).toEqual({});
    expect(validateCredentials({ email: 'sam@example.com', password: 'secret1' }, 'login')).toEqual({});
  });

  it('wants an email that looks like one', () => {
    for (const email of ['sam', 'sam@', '@example.com', 'sam@example', 'sam @example.com']) {
      expect(validateCredentials({ email, password: 'secret1' })).toEqual({ email: 'Please enter a valid email' });
    }
    expect(validateCredentials({ email: ' sam@example.com ', password: 'secret1' })).toEqual({});
  });

  it('wants at least 6 password characters, and nothing more', () => {
    expect(validateCredentials({ email: 'sam@example.com', password: '12345' })).toEqual({ password: 'Password must be at least 6 characters' });
    expect(validateCredentials({ email: 'sam@example.com', password: '123456' })).toEqual({});
    // The sign-up checklist is guidance only: a weak 6-character password is accepted.
    expect(validateCredentials({ email: 'sam@example.com', password: 'aaaaaa' })).toEqual({});
  });
});

describe('passwordRequirements', () => {
  const met = (password: string) => Object.fromEntries(passwordRequirements(password).map((r) => [r.id, r.met]));

  it('lists the five requirements in order', () => {
    expect(passwordRequirements('').map((r) => r.label)).toEqual([
      'At least 8 characters',
      'One lowercase letter',
      'One uppercase letter',
      'One number',
      'One special symbol',
    ]);
  });

  it('ticks each one as the password grows', () => {
    expect(met('')).toEqual({ length: false, lowercase: false, uppercase: false, number: false, symbol: false });
    expect(met('abc')).toEqual({ length: false, lowercase: true, uppercase: false, number: false, symbol: false });
    expect(met('abcD1')).toEqual({ length: false, lowercase: true, uppercase: true, number: true, symbol: false });
    expect(met('abcD1!xy')).toEqual({ length: true, lowercase: true, uppercase: true, number: true, symbol: true });
    expect(met('with space')).toMatchObject({ symbol: false });
  });
});

describe('authentication errors', () => {
  it("shows the server's message, including a 429's", () => {
    expect(authErrorDescription(new ApiError(401, { code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' }))).toBe(
      'Invalid login credentials',
    );
    expect(
      authErrorDescription(new ApiError(429, { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Please wait a few minutes and try again.', retryAfter: 60 })),
    ).toBe('Too many sign-in attempts. Please wait a few minutes and try again.');
  });

  it('falls back to a generic text', () => {
    expect(authErrorDescription(new TypeError('Failed to fetch'))).toBe('An error occurred during authentication');
    expect(authErrorDescription(undefined)).toBe('An error occurred during authentication');
  });

  it('maps per-field validation messages', () => {
    const error = new ApiError(400, { code: 'VALIDATION_FAILED', message: 'Some fields are not valid.', fields: { email: 'Bad email', other: 'x' } });
    expect(serverFieldErrors(error)).toEqual({ email: 'Bad email' });
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });
});
