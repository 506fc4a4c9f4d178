import { DomainError } from '@lv/platform/errors';
import { NOT_AN_OBJECT_MESSAGE, parseBody } from '../http/body.js';
import { credentialsBodySchema as credentialsSchema, signUpBodySchema as signUpSchema } from '@lv/contracts';

function fieldsOf(body: unknown): Record<string, string> | undefined {
  try {
    parseBody(credentialsSchema, body);
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe('VALIDATION_FAILED');
    return error.details.fields;
  }
}

describe('sign-in / sign-up body validation (spec section 5 texts)', () => {
  it('requires both fields', () => {
    expect(fieldsOf({})).toEqual({ email: 'Email is required', password: 'Password is required' });
  });

  it('refuses a body that is not an object, with the fields an empty one lacks', () => {
    const refused = { body: NOT_AN_OBJECT_MESSAGE, email: 'Email is required', password: 'Password is required' };
    expect(fieldsOf(undefined)).toEqual(refused);
    expect(fieldsOf('email=a@b.co')).toEqual(refused);
    expect(fieldsOf([1, 2])).toEqual(refused);
  });

  it('treats blank and non-text values as missing', () => {
    expect(fieldsOf({ email: '   ', password: '' })).toEqual({ email: 'Email is required', password: 'Password is required' });
    expect(fieldsOf({ email: 42, password: null })).toEqual({ email: 'Email is required', password: 'Password is required' });
  });

  it('rejects an email that does not look like one', () => {
    expect(fieldsOf({ email: 'parent', password: 'secret-one' })).toEqual({ email: 'Please enter a valid email' });
    expect(fieldsOf({ email: 'parent@', password: 'secret-one' })).toEqual({ email: 'Please enter a valid email' });
  });

  it('needs at least 6 characters of password', () => {
    expect(fieldsOf({ email: 'a@b.co', password: '12345' })).toEqual({ password: 'Password must be at least 6 characters' });
    expect(fieldsOf({ email: 'a@b.co', password: '123456' })).toBeUndefined();
  });

  it('trims and lower-cases the email, leaves the password as typed and drops other fields', () => {
    expect(parseBody(credentialsSchema, { email: '  Parent@Example.COM ', password: ' pass word ', userId: 'someone-else' })).toEqual({
      email: 'parent@example.com',
      password: ' pass word ',
    });
  });
});

describe('sign-up body validation', () => {
  const signUpFields = (body: unknown) => {
    try {
      parseBody(signUpSchema, body);
      return undefined;
    } catch (error) {
      return (error as DomainError).details.fields;
    }
  };

  it('refuses a password made only of whitespace, naming the field', () => {
    expect(signUpFields({ email: 'a@b.co', password: '        ' })).toEqual({ password: 'Password cannot be only spaces' });
    expect(signUpFields({ email: 'a@b.co', password: ' \t\n \u00a0  ' })).toEqual({ password: 'Password cannot be only spaces' });
    expect(signUpFields({ email: 'a@b.co', password: '  pass  ' })).toBeUndefined();
  });

  it('asks a new password for 8 characters, and refuses one character repeated (NIST SP 800-63B)', () => {
    expect(signUpFields({ email: 'a@b.co', password: '123456' })).toEqual({ password: 'Password must be at least 8 characters' });
    expect(signUpFields({ email: 'a@b.co', password: 'aaaaaa' })).toEqual({ password: 'Password must be at least 8 characters' });
    expect(signUpFields({ email: 'a@b.co', password: 'aaaaaaaaaa' })).toEqual({ password: 'This password is too common and easy to guess. Please choose another one.' });
    expect(signUpFields({ email: 'a@b.co', password: 'lantern-on-the-hill' })).toBeUndefined();
  });

  it('still lets sign-in send whatever was typed', () => {
    expect(fieldsOf({ email: 'a@b.co', password: '        ' })).toBeUndefined();
  });
});
