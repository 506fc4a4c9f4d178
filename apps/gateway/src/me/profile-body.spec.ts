import { DomainError } from '@lv/platform/errors';
import { NOT_AN_OBJECT_MESSAGE, parseBody } from '../http/body.js';
import { ProfileMessages as PROFILE_MESSAGES, updateProfileBodySchema as updateProfileSchema } from '@lv/contracts';

function fieldsOf(body: unknown): Record<string, string> | undefined {
  try {
    parseBody(updateProfileSchema, body);
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.details.fields;
  }
}

describe('PATCH /api/me body', () => {
  it('accepts a name of up to 120 characters, an https avatar, and nulls', () => {
    expect(parseBody(updateProfileSchema, { full_name: ' Sam ', avatar_url: 'https://cdn.example.com/a.png' })).toEqual({ full_name: 'Sam', avatar_url: 'https://cdn.example.com/a.png' });
    expect(parseBody(updateProfileSchema, { full_name: null, avatar_url: null })).toEqual({ full_name: null, avatar_url: null });
    expect(parseBody(updateProfileSchema, { full_name: 'x'.repeat(120) }).full_name).toHaveLength(120);
  });

  it('turns a blank name into null', () => {
    expect(parseBody(updateProfileSchema, { full_name: '   ' })).toEqual({ full_name: null });
  });

  it('refuses a name over 120 characters and non-https avatars', () => {
    expect(fieldsOf({ full_name: 'x'.repeat(121) })).toEqual({ full_name: PROFILE_MESSAGES.fullNameTooLong });
    expect(fieldsOf({ avatar_url: 'http://cdn.example.com/a.png' })).toEqual({ avatar_url: PROFILE_MESSAGES.avatarUrl });
    expect(fieldsOf({ avatar_url: 'javascript:alert(1)' })).toEqual({ avatar_url: PROFILE_MESSAGES.avatarUrl });
    expect(fieldsOf({ full_name: 12 })).toEqual({ full_name: PROFILE_MESSAGES.fullNameType });
  });

  it('refuses a body that is not an object instead of reading it as "no changes"', () => {
    for (const body of [[], [{ full_name: 'Sam' }], 42, 'Sam', null, undefined]) expect(fieldsOf(body)).toEqual({ body: NOT_AN_OBJECT_MESSAGE });
  });

  it('drops fields a client may not set (id, email, tier, admin flag)', () => {
    expect(parseBody(updateProfileSchema, { id: 'other-user', email: 'x@y.z', subscription_tier: 'legacy', ai_admin: true })).toEqual({});
  });
});
