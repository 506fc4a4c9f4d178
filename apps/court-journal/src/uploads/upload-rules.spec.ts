import { COURT_FILE_MAX_BYTES, CourtMessages } from '@lv/contracts';
import { acceptUploadForm, expectUpload } from './upload-rules.js';

const form = { title: '  Receipts, March ', category: 'Receipts or Payment Records', description: '', fileName: ' receipts.pdf ', size: 1234 };

describe('an upload form', () => {
  it('is accepted with its words trimmed and an empty description left out', () => {
    expect(acceptUploadForm(form)).toEqual({ title: 'Receipts, March', description: null, category: 'Receipts or Payment Records', variant: 'journal', fileName: 'receipts.pdf', declaredSize: 1234 });
  });

  it('files a card chosen on the upload form of /court-documents under that card, with that screen’s rules', () => {
    expect(acceptUploadForm({ ...form, category: 'Witness Statements', variant: 'documents' })).toMatchObject({ category: 'Witness Statements', variant: 'documents' });
    expect(() => acceptUploadForm({ ...form, variant: 'documents', fileName: 'notes.txt' })).toThrow(expect.objectContaining({ message: CourtMessages.unsupportedType }));
  });

  it('files an old category sent by a page loaded before the one model under its card', () => {
    expect(acceptUploadForm({ ...form, category: 'Custody' })).toMatchObject({ category: 'Legal Notices or Orders', variant: 'documents' });
    expect(acceptUploadForm({ ...form, category: 'Other', fileName: 'bruise.jpg' })).toMatchObject({ category: 'Photo Evidence', variant: 'documents' });
  });

  it('is refused with the first problem as the message and every problem by field', () => {
    expect(() => acceptUploadForm({ ...form, title: ' ', fileName: 'setup.exe' })).toThrow(expect.objectContaining({
      code: 'VALIDATION_FAILED', message: CourtMessages.journalMissing, details: { fields: { title: CourtMessages.journalMissing, file: CourtMessages.journalUnsupportedType } },
    }));
  });

  it('is refused when its size is not a whole number of bytes', () => {
    expect(() => acceptUploadForm({ ...form, size: 12.5 })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: CourtMessages.missingInformation }));
  });
});

describe('the bytes a ticket expects', () => {
  const ticket = { variant: 'journal' as const, file_name: 'notes.txt', declared_size: '20' };

  it('are of the kind the file name names, as the screen allows it', () => {
    expect(expectUpload(ticket, 20)).toEqual({ variant: 'journal', kind: 'txt', contentType: 'text/plain; charset=utf-8', declaredSize: 20 });
    expect(() => expectUpload({ ...ticket, variant: 'documents' }, 20)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA' }));
  });

  it('are refused up front when the request announces more than the limit', () => {
    expect(() => expectUpload(ticket, COURT_FILE_MAX_BYTES + 1)).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge }));
    expect(expectUpload(ticket, undefined).kind).toBe('txt');
  });
});
