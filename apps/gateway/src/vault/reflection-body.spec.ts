import { REFLECTION_MAX, ReflectionApiMessages as REFLECTION_API_MESSAGES, ReflectionMessages, saveReflectionBodySchema as saveReflectionSchema } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { NOT_AN_OBJECT_MESSAGE, parseBody } from '../http/body.js';

function fieldsOf(body: unknown): Record<string, string> | undefined {
  try {
    parseBody(saveReflectionSchema, body);
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe('VALIDATION_FAILED');
    return error.details.fields;
  }
}

describe('PUT /api/vault/reflection body', () => {
  it('trims the text', () => {
    expect(parseBody(saveReflectionSchema, { text: '\n  A quiet morning.  \t' })).toEqual({ text: 'A quiet morning.' });
  });

  it('accepts a blank or empty text (it clears the reflection)', () => {
    expect(parseBody(saveReflectionSchema, { text: '   \n' })).toEqual({ text: '' });
    expect(parseBody(saveReflectionSchema, { text: '' })).toEqual({ text: '' });
  });

  it('allows 20,000 characters once trimmed and refuses one more with the shared message', () => {
    expect(parseBody(saveReflectionSchema, { text: ` ${'x'.repeat(REFLECTION_MAX)} ` }).text).toHaveLength(REFLECTION_MAX);
    expect(fieldsOf({ text: 'x'.repeat(REFLECTION_MAX + 1) })).toEqual({ text: ReflectionMessages.tooLong });
    expect(ReflectionMessages.tooLong).toBe('A reflection can be at most 20,000 characters.');
  });

  it('needs text: a missing, numeric or null text, or a body that is not an object, is refused', () => {
    expect(fieldsOf({})).toEqual({ text: REFLECTION_API_MESSAGES.text });
    expect(fieldsOf({ text: 42 })).toEqual({ text: REFLECTION_API_MESSAGES.text });
    expect(fieldsOf({ text: null })).toEqual({ text: REFLECTION_API_MESSAGES.text });
    expect(fieldsOf('just a string')).toEqual({ body: NOT_AN_OBJECT_MESSAGE, text: REFLECTION_API_MESSAGES.text });
  });

  it('drops anything else a client sends: whose reflection it is comes from the token only', () => {
    expect(parseBody(saveReflectionSchema, { text: 't', user_id: 'someone-else', ownerId: 'x', updated_at: 'x' })).toEqual({ text: 't' });
  });
});
