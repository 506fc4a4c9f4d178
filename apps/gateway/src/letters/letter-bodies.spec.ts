import {
  isUuid, LETTER_TITLE_MAX, LetterApiMessages as LETTER_API_MESSAGES, LetterMessages, listLettersQuerySchema, reviseLetterBodySchema as reviseLetterSchema,
  writeLetterBodySchema as writeLetterSchema, MILESTONE_NAME_MAX, MilestoneMessages, sealLetterBodySchema,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { parseBody } from '../http/body.js';

function fieldsOf(schema: Parameters<typeof parseBody>[0], body: unknown): Record<string, string> | undefined {
  try {
    parseBody(schema, body);
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.details.fields;
  }
}

describe('POST /api/letters body', () => {
  it('trims the title and body, and keeps a client id (lower-cased)', () => {
    expect(parseBody(writeLetterSchema, { id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', title: '  To Sam ', content: '\nHello.\n' }))
      .toEqual({ id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', title: 'To Sam', content: 'Hello.' });
    expect(parseBody(writeLetterSchema, { title: 'To Sam', content: 'Hello.' })).toEqual({ title: 'To Sam', content: 'Hello.' });
  });

  it('refuses blank (or missing) title and body with the shared messages', () => {
    expect(fieldsOf(writeLetterSchema, { title: '   ', content: '\n\t' })).toEqual({ title: LetterMessages.titleRequired, content: LetterMessages.contentRequired });
    expect(fieldsOf(writeLetterSchema, {})).toEqual({ title: LetterMessages.titleRequired, content: LetterMessages.contentRequired });
    expect(fieldsOf(writeLetterSchema, { title: 'x'.repeat(LETTER_TITLE_MAX + 1), content: 'y' })).toEqual({ title: LetterMessages.titleTooLong });
    expect(fieldsOf(writeLetterSchema, { id: '42', title: 'x', content: 'y' })).toEqual({ id: LETTER_API_MESSAGES.id });
  });

  it('drops anything else a client sends (an owner, a version, dates)', () => {
    expect(parseBody(writeLetterSchema, { title: 't', content: 'c', ownerId: 'someone', user_id: 'x', version: 9, created_at: 'x' })).toEqual({ title: 't', content: 'c' });
  });
});

describe('PUT /api/letters/:id body', () => {
  it('needs the version the editor showed', () => {
    expect(parseBody(reviseLetterSchema, { title: ' t ', content: ' c ', expectedVersion: 3 })).toEqual({ title: 't', content: 'c', expectedVersion: 3 });
    expect(fieldsOf(reviseLetterSchema, { title: 't', content: 'c' })).toEqual({ expectedVersion: LETTER_API_MESSAGES.expectedVersion });
    expect(fieldsOf(reviseLetterSchema, { title: 't', content: 'c', expectedVersion: 1.5 })).toEqual({ expectedVersion: LETTER_API_MESSAGES.expectedVersion });
    expect(fieldsOf(reviseLetterSchema, { title: 't', content: 'c', expectedVersion: '2' })).toEqual({ expectedVersion: LETTER_API_MESSAGES.expectedVersion });
  });
});

describe('GET /api/letters query', () => {
  it('reads limit as a number within bounds', () => {
    expect(parseBody(listLettersQuerySchema, { limit: '20', cursor: 'abc' })).toEqual({ limit: 20, cursor: 'abc' });
    expect(parseBody(listLettersQuerySchema, {})).toEqual({});
    expect(fieldsOf(listLettersQuerySchema, { limit: '0' })).toEqual({ limit: LETTER_API_MESSAGES.limit });
    expect(fieldsOf(listLettersQuerySchema, { limit: '201' })).toEqual({ limit: LETTER_API_MESSAGES.limit });
    expect(fieldsOf(listLettersQuerySchema, { limit: 'lots' })).toEqual({ limit: LETTER_API_MESSAGES.limit });
  });
});

describe('letter ids in paths', () => {
  it('are UUIDs', () => {
    expect(isUuid('0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10')).toBe(true);
    for (const bad of ['', '42', '../admin', "0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10' or 1=1", '0d5f6b3e4a514c7e9c392b7f8d1e6a10']) expect(isUuid(bad)).toBe(false);
  });
});

describe('PUT /api/letters/:id/seal body', () => {
  const good = { until: '2034-05-14', time_zone: 'Europe/London', recipient_name: ' Ellie ', recipient_email: ' Ellie@Example.com ' };

  it('trims the recipient, lower-cases the e-mail and drops anything else (an owner, a release, a due time)', () => {
    expect(parseBody(sealLetterBodySchema, { ...good, ownerId: 'x', release_id: 'y', due_at: '2020-01-01T00:00:00Z' }))
      .toEqual({ until: '2034-05-14', time_zone: 'Europe/London', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' });
  });

  it('refuses a missing or impossible day, an unknown zone, no name and a bad e-mail, each with its words', () => {
    expect(fieldsOf(sealLetterBodySchema, {})).toEqual({
      until: MilestoneMessages.untilRequired, time_zone: MilestoneMessages.timeZone, recipient_name: MilestoneMessages.nameRequired, recipient_email: MilestoneMessages.emailRequired,
    });
    expect(fieldsOf(sealLetterBodySchema, { ...good, until: '2034-02-30' })).toEqual({ until: MilestoneMessages.untilRequired });
    expect(fieldsOf(sealLetterBodySchema, { ...good, until: '14/05/2034' })).toEqual({ until: MilestoneMessages.untilRequired });
    expect(fieldsOf(sealLetterBodySchema, { ...good, time_zone: 'Mars/Olympus' })).toEqual({ time_zone: MilestoneMessages.timeZone });
    expect(fieldsOf(sealLetterBodySchema, { ...good, recipient_name: '   ' })).toEqual({ recipient_name: MilestoneMessages.nameRequired });
    expect(fieldsOf(sealLetterBodySchema, { ...good, recipient_name: 'x'.repeat(MILESTONE_NAME_MAX + 1) })).toEqual({ recipient_name: MilestoneMessages.nameTooLong });
    expect(fieldsOf(sealLetterBodySchema, { ...good, recipient_email: 'ellie' })).toEqual({ recipient_email: MilestoneMessages.emailInvalid });
    expect(fieldsOf(sealLetterBodySchema, { ...good, recipient_email: 42 })).toEqual({ recipient_email: MilestoneMessages.emailRequired });
  });
});
