import { LETTER_CONTENT_MAX, LETTER_TITLE_MAX, LetterMessages } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { letterDecider, type LetterEvent } from './letter.decider.js';

const spec = deciderSpecification(letterDecider);
const letterId = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const t0 = '2026-11-22T10:00:00.000Z';
const t1 = '2026-11-23T08:30:00.000Z';

const written: LetterEvent = {
  type: 'LetterWritten',
  data: { letterId, ownerId: owner, title: 'To Ellie', content: 'I think of you every morning.', wordCount: 6, writtenAt: t0 },
};
const revised: LetterEvent = {
  type: 'LetterRevised',
  data: { letterId, ownerId: owner, title: 'To my Ellie', content: 'I think of you every single morning.', wordCount: 7, revisedAt: t1 },
};
const deleted: LetterEvent = { type: 'LetterDeleted', data: { letterId, ownerId: owner, deletedAt: t1 } };
/** What the store hands back for a deleted letter's past events: the facts without the words. */
const shreddedWritten: LetterEvent = { type: 'LetterWritten', data: { ...written.data, title: null, content: null } } as LetterEvent;

const write = (over: Partial<{ title: string; content: string; ownerId: string }> = {}) =>
  ({ type: 'WriteLetter', letterId, ownerId: owner, title: 'To Ellie', content: 'I think of you every morning.', now: t0, ...over }) as const;
const revise = (over: Partial<{ title: string; content: string; ownerId: string; expectedVersion: number }> = {}) =>
  ({ type: 'ReviseLetter', letterId, ownerId: owner, title: 'To my Ellie', content: 'I think of you every single morning.', expectedVersion: 1, now: t1, ...over }) as const;
const del = (ownerId = owner) => ({ type: 'DeleteLetter', letterId, ownerId, now: t1 }) as const;

describe('letter decider', () => {
  describe('WriteLetter', () => {
    it('writes a new letter for its owner, with the word count', () =>
      spec.given([]).when(write()).then([written]));

    it('stores the title and body trimmed (and counts the trimmed words)', () =>
      spec.given([]).when(write({ title: '  To Ellie \n', content: '\n  I think of you every morning.  \t' })).then([written]));

    it.each([
      ['a blank title', { title: '   ' }, { title: LetterMessages.titleRequired }],
      ['an empty title', { title: '' }, { title: LetterMessages.titleRequired }],
      ['a blank body', { content: ' \n\t ' }, { content: LetterMessages.contentRequired }],
      ['both blank', { title: ' ', content: ' ' }, { title: LetterMessages.titleRequired, content: LetterMessages.contentRequired }],
      ['a title over the limit', { title: 'x'.repeat(LETTER_TITLE_MAX + 1) }, { title: LetterMessages.titleTooLong }],
      ['a body over the limit', { content: 'x'.repeat(LETTER_CONTENT_MAX + 1) }, { content: LetterMessages.contentTooLong }],
    ])('refuses %s with the field messages', (_, over, fields) => {
      spec.given([]).when(write(over)).thenThrows('VALIDATION_FAILED');
      expect(() => letterDecider.decide(write(over), letterDecider.initialState())).toThrow(expect.objectContaining({ details: { fields } }));
    });

    it('accepts a title at the limit once trimmed', () =>
      spec.given([]).when(write({ title: ` ${'x'.repeat(LETTER_TITLE_MAX)} ` })).then([
        { type: 'LetterWritten', data: { ...written.data, title: 'x'.repeat(LETTER_TITLE_MAX) } },
      ]));

    it('is idempotent: the same owner sending the same letter again records nothing', () => {
      spec.given([written]).when(write()).then([]);
      // ... even once it was revised since (the retry of the first save arrives late).
      spec.given([written, revised]).when(write({ title: ' To Ellie ' })).then([]);
    });

    it('refuses the same id with other words, another owner, or a deleted letter (CONFLICT, never the letter)', () => {
      spec.given([written]).when(write({ content: 'Something else entirely.' })).thenThrows('CONFLICT');
      spec.given([written]).when(write({ ownerId: stranger })).thenThrows('CONFLICT');
      spec.given([shreddedWritten, deleted]).when(write()).thenThrows('CONFLICT');
    });
  });

  describe('ReviseLetter', () => {
    it('revises the owner’s letter at the version the editor showed', () =>
      spec.given([written]).when(revise()).then([revised]));

    it('trims and validates like a new letter', () => {
      spec.given([written]).when(revise({ title: '  To my Ellie  ', content: ' I think of you every single morning.\n' })).then([revised]);
      spec.given([written]).when(revise({ title: ' ' })).thenThrows('VALIDATION_FAILED');
      spec.given([written]).when(revise({ content: '' })).thenThrows('VALIDATION_FAILED');
    });

    it('records nothing when nothing changed', () =>
      spec.given([written]).when(revise({ title: 'To Ellie ', content: 'I think of you every morning.' })).then([]));

    it('gives another user, or a letter that does not exist, NOT_FOUND', () => {
      spec.given([written]).when(revise({ ownerId: stranger })).thenThrows('NOT_FOUND');
      // Not found comes first: a stranger does not even learn that the version is wrong.
      spec.given([written]).when(revise({ ownerId: stranger, expectedVersion: 9 })).thenThrows('NOT_FOUND');
      spec.given([]).when(revise()).thenThrows('NOT_FOUND');
      spec.given([]).when(revise({ expectedVersion: 0 })).thenThrows('NOT_FOUND');
    });

    it('refuses to revise a deleted letter', () => {
      spec.given([shreddedWritten, deleted]).when(revise({ expectedVersion: 2 })).thenThrows('NOT_FOUND');
      spec.given([written, deleted]).when(revise({ expectedVersion: 2 })).thenThrows('NOT_FOUND');
    });

    it('refuses a stale editor with CONFLICT instead of overwriting the newer version', () => {
      // Two editors opened version 1; the first saved (version 2); the second still says 1.
      spec.given([written, revised]).when(revise({ content: 'The second editor’s words.', expectedVersion: 1 })).thenThrows('CONFLICT');
      spec.given([written, revised]).when(revise({ content: 'Edited after a reload.', expectedVersion: 2 })).then([
        { type: 'LetterRevised', data: { ...revised.data, content: 'Edited after a reload.', wordCount: 4 } },
      ]);
      spec.given([written]).when(revise({ expectedVersion: 2 })).thenThrows('CONFLICT');
    });
  });

  describe('DeleteLetter', () => {
    it('deletes the owner’s letter (the fact stays; the store destroys the words)', () => {
      spec.given([written]).when(del()).then([deleted]);
      spec.given([written, revised]).when(del()).then([deleted]);
    });

    it('gives another user, a missing letter and an already deleted one NOT_FOUND', () => {
      spec.given([written]).when(del(stranger)).thenThrows('NOT_FOUND');
      spec.given([]).when(del()).thenThrows('NOT_FOUND');
      spec.given([shreddedWritten, deleted]).when(del()).thenThrows('NOT_FOUND');
    });
  });

  describe('evolve', () => {
    it('counts versions and forgets the words on delete', () => {
      const state = [written, revised, deleted].reduce(letterDecider.evolve, letterDecider.initialState());
      expect(state).toMatchObject({ status: 'deleted', ownerId: owner, version: 3, title: null, content: null });
    });
  });
});
