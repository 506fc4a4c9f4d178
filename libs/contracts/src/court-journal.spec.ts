import {
  COURT_CATEGORIES, COURT_FILE_KINDS, courtCategoryOf, defaultCourtVariant, LEGACY_CATEGORY_CARDS, LEGACY_COURT_CATEGORIES, validateCourtUpload, type CourtFileKind,
} from './court-journal.js';

const kinds = Object.keys(COURT_FILE_KINDS) as CourtFileKind[];

describe('one category model for court papers', () => {
  it('is the Court Journal’s six cards, in the spec’s words and order', () => {
    expect([...COURT_CATEGORIES]).toEqual(['Receipts or Payment Records', 'Photo Evidence', 'Emails or Messages', 'Witness Statements', 'Timeline of Events', 'Legal Notices or Orders']);
  });

  it('reads a card as itself, whatever the file', () => {
    for (const card of COURT_CATEGORIES) for (const kind of kinds) expect(courtCategoryOf(card, kind)).toBe(card);
  });

  it('counts every document of an old category on one card', () => {
    expect(Object.keys(LEGACY_CATEGORY_CARDS).sort()).toEqual([...LEGACY_COURT_CATEGORIES].sort());
    for (const old of LEGACY_COURT_CATEGORIES) {
      for (const kind of [...kinds, undefined, null]) expect(COURT_CATEGORIES).toContain(courtCategoryOf(old, kind));
    }
  });

  it('maps the old categories: orders, payments, visits; "Other" by its file', () => {
    expect(courtCategoryOf('Custody', 'pdf')).toBe('Legal Notices or Orders');
    expect(courtCategoryOf('Divorce', 'docx')).toBe('Legal Notices or Orders');
    expect(courtCategoryOf('Support', 'pdf')).toBe('Receipts or Payment Records');
    expect(courtCategoryOf('Visitation', 'jpeg')).toBe('Timeline of Events');
    expect(courtCategoryOf('Other', 'png')).toBe('Photo Evidence');
    expect(courtCategoryOf('Other', 'jpeg')).toBe('Photo Evidence');
    expect(courtCategoryOf('Other', 'pdf')).toBe('Legal Notices or Orders');
    expect(courtCategoryOf('Other')).toBe('Legal Notices or Orders');
  });

  it('knows nothing else', () => {
    for (const value of ['custody', 'Groceries', '', null, undefined, 3]) expect(courtCategoryOf(value, 'pdf')).toBeNull();
  });

  it('takes the screen a request names, else the old form’s for an old category and a card’s for a card', () => {
    expect(defaultCourtVariant('Custody')).toBe('documents');
    expect(defaultCourtVariant('Photo Evidence')).toBe('journal');
    const form = { title: 'T', fileName: 'notes.txt', size: 10 };
    expect(validateCourtUpload({ ...form, category: 'Witness Statements' })).toMatchObject({ variant: 'journal', errors: null });
    expect(validateCourtUpload({ ...form, category: 'Witness Statements', variant: 'documents' }).errors).toEqual({ file: expect.any(String) });
    expect(validateCourtUpload({ ...form, category: 'Groceries' }).errors).toEqual({ category: expect.any(String) });
  });
});
