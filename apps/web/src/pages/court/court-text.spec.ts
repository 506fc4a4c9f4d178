import { describe, expect, it } from '@jest/globals';
import { COURT_FILE_MAX_BYTES, CourtMessages, type CourtDocument } from '@lv/contracts';
import { ApiError, NetworkError } from '../../api/client.js';
import { checkCourtForm, formatFileSize, groupDocumentsByDay, uploadFailure } from './court-text.js';

const file = (name: string, size = 100) => {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

const missing = { title: 'Missing Information', description: 'Please fill in all required fields and select a file.' };

describe('checkCourtForm (spec, section 5)', () => {
  it('wants a title, a category and a file on /court-documents', () => {
    expect(checkCourtForm({ variant: 'documents', title: '', category: 'Legal Notices or Orders', file: file('a.pdf') })).toEqual(missing);
    expect(checkCourtForm({ variant: 'documents', title: '   ', category: 'Legal Notices or Orders', file: file('a.pdf') })).toEqual(missing);
    expect(checkCourtForm({ variant: 'documents', title: 'Order', category: '', file: file('a.pdf') })).toEqual(missing);
    expect(checkCourtForm({ variant: 'documents', title: 'Order', category: 'Legal Notices or Orders', file: null })).toEqual(missing);
    expect(checkCourtForm({ variant: 'documents', title: 'Order', category: 'Legal Notices or Orders', file: file('a.pdf') })).toBeNull();
  });

  it('asks the journal only for a title and a file, in its own words', () => {
    const journalMissing = { title: 'Missing Information', description: 'Please provide a title and select a file' };
    expect(checkCourtForm({ variant: 'journal', title: '', category: 'Photo Evidence', file: file('a.png') })).toEqual(journalMissing);
    expect(checkCourtForm({ variant: 'journal', title: 'Photo', category: 'Photo Evidence', file: null })).toEqual(journalMissing);
    expect(checkCourtForm({ variant: 'journal', title: 'Photo', category: 'Photo Evidence', file: file('a.png') })).toBeNull();
  });

  it('refuses a file over 10MB ("File Too Large"), and takes one of exactly 10MB', () => {
    expect(checkCourtForm({ variant: 'documents', title: 'Big', category: 'Witness Statements', file: file('a.pdf', COURT_FILE_MAX_BYTES + 1) })).toEqual({ title: 'File Too Large', description: 'Please select a file smaller than 10MB.' });
    expect(checkCourtForm({ variant: 'journal', title: 'Big', category: 'Timeline of Events', file: file('a.txt', COURT_FILE_MAX_BYTES + 1) })).toEqual({ title: 'File Too Large', description: 'Please select a file smaller than 10MB.' });
    expect(checkCourtForm({ variant: 'documents', title: 'Big', category: 'Witness Statements', file: file('a.pdf', COURT_FILE_MAX_BYTES) })).toBeNull();
  });

  it('accepts .pdf .doc .docx .jpg .jpeg .png, and .txt only in the journal', () => {
    for (const name of ['a.pdf', 'a.doc', 'a.docx', 'a.jpg', 'a.JPEG', 'a.png']) {
      expect(checkCourtForm({ variant: 'documents', title: 'T', category: 'Receipts or Payment Records', file: file(name) })).toBeNull();
      expect(checkCourtForm({ variant: 'journal', title: 'T', category: 'Emails or Messages', file: file(name) })).toBeNull();
    }
    expect(checkCourtForm({ variant: 'documents', title: 'T', category: 'Receipts or Payment Records', file: file('notes.txt') })).toEqual({ title: 'Upload Failed', description: CourtMessages.unsupportedType });
    expect(checkCourtForm({ variant: 'journal', title: 'T', category: 'Witness Statements', file: file('notes.txt') })).toBeNull();
    expect(checkCourtForm({ variant: 'journal', title: 'T', category: 'Witness Statements', file: file('setup.exe') })).toEqual({ title: 'Upload Failed', description: CourtMessages.journalUnsupportedType });
    expect(checkCourtForm({ variant: 'documents', title: 'T', category: 'Receipts or Payment Records', file: file('noextension') })).toEqual({ title: 'Upload Failed', description: CourtMessages.unsupportedType });
  });

  it('refuses an empty file', () => {
    expect(checkCourtForm({ variant: 'documents', title: 'T', category: 'Receipts or Payment Records', file: file('a.pdf', 0) })).toEqual({ title: 'Upload Failed', description: CourtMessages.emptyFile });
  });
});

describe('uploadFailure', () => {
  it("shows the server's words for a refused file, and the spec's for anything else", () => {
    const refused = new ApiError(415, { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.typeMismatch });
    expect(uploadFailure(refused, 'documents')).toEqual({ title: 'Upload Failed', description: CourtMessages.typeMismatch });
    const tooLarge = new ApiError(413, { code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge });
    expect(uploadFailure(tooLarge, 'journal')).toEqual({ title: 'Upload Failed', description: CourtMessages.fileTooLarge });
    const crash = new ApiError(500, { code: 'INTERNAL', message: 'Something went wrong on our side.' });
    expect(uploadFailure(crash, 'documents')).toEqual({ title: 'Upload Failed', description: 'Failed to upload document. Please try again.' });
    expect(uploadFailure(new NetworkError('offline'), 'journal')).toEqual({ title: 'Upload Failed', description: 'Failed to upload document' });
    expect(uploadFailure(new ApiError(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' }), 'documents')).toEqual({ title: 'Upload Failed', description: 'User not authenticated' });
  });
});

describe('formatFileSize', () => {
  it('says bytes, KB or MB', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(18)).toBe('18 bytes');
    expect(formatFileSize(310 * 1024)).toBe('310 KB');
    expect(formatFileSize(2.45 * 1024 * 1024)).toBe('2.5 MB');
  });
});

describe('groupDocumentsByDay', () => {
  const doc = (id: string, at: string) => ({ id, upload_date: new Date(at).toISOString() }) as CourtDocument;
  it('puts the newest day first and the newest document first within a day', () => {
    const days = groupDocumentsByDay([
      doc('a', '2026-03-01T09:00:00'),
      doc('b', '2026-03-02T08:00:00'),
      doc('c', '2026-03-01T18:00:00'),
      doc('d', '2026-03-02T20:00:00'),
      doc('e', '2026-02-27T12:00:00'),
    ]);
    expect(days.map((d) => [d.day, d.documents.map((x) => x.id)])).toEqual([
      ['2026-03-02', ['d', 'b']],
      ['2026-03-01', ['c', 'a']],
      ['2026-02-27', ['e']],
    ]);
  });

  it('groups by the local calendar day, not the UTC one', () => {
    const late = new Date(2026, 2, 1, 23, 30);
    const early = new Date(2026, 2, 1, 0, 30);
    const days = groupDocumentsByDay([doc('late', late.toISOString()), doc('early', early.toISOString())]);
    expect(days).toHaveLength(1);
    expect(days[0]!.day).toBe('2026-03-01');
  });

  it('has no day for no documents', () => {
    expect(groupDocumentsByDay([])).toEqual([]);
  });
});
