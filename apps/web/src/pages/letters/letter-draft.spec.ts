import { beforeEach, describe, expect, it } from '@jest/globals';
import { clearLetterDraft, LETTER_DRAFT_KEY, readLetterDraft, writeLetterDraft } from './letter-draft.js';

describe('the unsaved letter draft', () => {
  beforeEach(() => localStorage.clear());

  it('is kept as {title, content} under unsaved_letter_draft', () => {
    writeLetterDraft(localStorage, { title: 'To Ellie', content: 'Dear Ellie,' });
    expect(JSON.parse(localStorage.getItem(LETTER_DRAFT_KEY)!)).toEqual({ title: 'To Ellie', content: 'Dear Ellie,' });
    expect(readLetterDraft(localStorage)).toEqual({ title: 'To Ellie', content: 'Dear Ellie,' });
    expect(LETTER_DRAFT_KEY).toBe('unsaved_letter_draft');
  });

  it('is removed when both fields are blank, and by clear', () => {
    writeLetterDraft(localStorage, { title: 'x', content: '' });
    writeLetterDraft(localStorage, { title: '  ', content: '\n' });
    expect(localStorage.getItem(LETTER_DRAFT_KEY)).toBeNull();
    writeLetterDraft(localStorage, { title: '', content: 'words' });
    clearLetterDraft(localStorage);
    expect(localStorage.getItem(LETTER_DRAFT_KEY)).toBeNull();
  });

  it('reads a damaged draft as no draft, and fills missing fields', () => {
    localStorage.setItem(LETTER_DRAFT_KEY, '{not json');
    expect(readLetterDraft(localStorage)).toBeNull();
    localStorage.setItem(LETTER_DRAFT_KEY, 'null');
    expect(readLetterDraft(localStorage)).toBeNull();
    localStorage.setItem(LETTER_DRAFT_KEY, JSON.stringify({ content: 'only words', title: 7 }));
    expect(readLetterDraft(localStorage)).toEqual({ title: '', content: 'only words' });
    expect(readLetterDraft(undefined)).toBeNull();
  });
});

describe('a draft and its owner', () => {
  beforeEach(() => localStorage.clear());

  it('is restored for the account that wrote it only', () => {
    writeLetterDraft(localStorage, { title: 'Mine', content: 'Words' }, 'user-a');
    expect(JSON.parse(localStorage.getItem(LETTER_DRAFT_KEY)!)).toMatchObject({ title: 'Mine', content: 'Words' });
    expect(readLetterDraft(localStorage, 'user-a')).toEqual({ title: 'Mine', content: 'Words' });
    expect(readLetterDraft(localStorage, 'user-b')).toBeNull();
    expect(readLetterDraft(localStorage)).toBeNull();
  });

  it('without an owner (written elsewhere) is anyone’s', () => {
    localStorage.setItem(LETTER_DRAFT_KEY, JSON.stringify({ title: 't', content: 'c' }));
    expect(readLetterDraft(localStorage, 'user-b')).toEqual({ title: 't', content: 'c' });
  });
});
