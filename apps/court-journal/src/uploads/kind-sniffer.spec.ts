import { zipOf } from '../../test/support/files.js';
import { checkCourtHead, magicKind, TextStreamCheck, zipEntryNames } from './kind-sniffer.js';

const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj', 'latin1');
const DOC = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 2)]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(100)]);

const zip = zipOf;

const codeOf = (fn: () => unknown) => {
  try {
    return fn();
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
};

describe('court file kinds from their bytes', () => {
  it('knows each kind by its magic number, and waits while a head could still become one', () => {
    expect(magicKind(PDF, false)).toBe('pdf');
    expect(magicKind(DOC, false)).toBe('doc');
    expect(magicKind(PNG, false)).toBe('png');
    expect(magicKind(JPEG, false)).toBe('jpeg');
    expect(magicKind(zip(['a.txt']), false)).toBe('zip');
    expect(magicKind(EXE, false)).toBeNull();
    expect(magicKind(Buffer.from('%PD'), false)).toBe('more');
    expect(magicKind(Buffer.from('%PD'), true)).toBeNull();
    expect(magicKind(Buffer.from([0x89, 0x50]), false)).toBe('more');
  });

  it('lets through each kind named for what it is, in either variant', () => {
    expect(checkCourtHead(PDF, false, 'pdf', 'documents')).toBe(true);
    expect(checkCourtHead(DOC, false, 'doc', 'documents')).toBe(true);
    expect(checkCourtHead(PNG, false, 'png', 'journal')).toBe(true);
    expect(checkCourtHead(JPEG, false, 'jpeg', 'documents')).toBe(true);
    expect(checkCourtHead(zip(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']), false, 'docx', 'documents')).toBe(true);
    expect(checkCourtHead(zip(['_rels/.rels', 'word/document.xml']), true, 'docx', 'documents')).toBe(true);
    expect(checkCourtHead(Buffer.from('Tuesday: pick-up at 6, he was 40 minutes late.\n'), false, 'txt', 'journal')).toBe(true);
  });

  it('refuses a disguised file with typeMismatch, and bytes of no kind we take with unsupportedType', () => {
    expect(codeOf(() => checkCourtHead(PNG, false, 'pdf', 'documents'))).toBe("UNSUPPORTED_MEDIA: This file's contents do not match its name. Choose the original file and try again.");
    expect(codeOf(() => checkCourtHead(PDF, false, 'jpeg', 'documents'))).toMatch(/^UNSUPPORTED_MEDIA: This file's contents/);
    expect(codeOf(() => checkCourtHead(EXE, false, 'docx', 'documents'))).toBe('UNSUPPORTED_MEDIA: This file type is not accepted. Choose a PDF, Word document, JPG or PNG file.');
    expect(codeOf(() => checkCourtHead(EXE, false, 'pdf', 'journal'))).toBe('UNSUPPORTED_MEDIA: This file type is not accepted. Choose a PDF, Word document, JPG, PNG or text file.');
    expect(codeOf(() => checkCourtHead(PDF, false, 'txt', 'journal'))).toMatch(/^UNSUPPORTED_MEDIA: This file's contents/);
    expect(codeOf(() => checkCourtHead(Buffer.alloc(0), true, 'pdf', 'documents'))).toBe('VALIDATION_FAILED: This file is empty.');
  });

  it('takes a ZIP for a Word document only when its first entries are Word parts', () => {
    expect(zipEntryNames(zip(['[Content_Types].xml', 'word/document.xml']))).toEqual(['[Content_Types].xml', 'word/document.xml']);
    // Plain archives renamed .docx.
    expect(codeOf(() => checkCourtHead(zip(['xl/workbook.xml', 'xl/styles.xml']), true, 'docx', 'documents'))).toMatch(/^UNSUPPORTED_MEDIA: This file's contents/);
    expect(codeOf(() => checkCourtHead(zip(['photos/a.jpg', 'photos/b.jpg']), true, 'docx', 'documents'))).toMatch(/^UNSUPPORTED_MEDIA: This file's contents/);
    // A head still short of the first entry's name waits for more bytes.
    const docx = zip(['[Content_Types].xml']);
    expect(checkCourtHead(docx.subarray(0, 20), false, 'docx', 'documents')).toBe(false);
    expect(checkCourtHead(docx, false, 'docx', 'documents')).toBe(true);
    // A ZIP named .pdf is a mismatch.
    expect(codeOf(() => checkCourtHead(docx, false, 'pdf', 'documents'))).toMatch(/^UNSUPPORTED_MEDIA: This file's contents/);
  });

  it('checks a text body as it streams: UTF-8 split across chunks is fine, binary or broken UTF-8 is not', () => {
    const text = Buffer.from('Zahlung für März: 120 € — reçu ✓\r\n\tok\n');
    const check = new TextStreamCheck();
    for (let i = 0; i < text.length; i++) check.chunk(text.subarray(i, i + 1));
    expect(() => check.end()).not.toThrow();

    expect(codeOf(() => new TextStreamCheck().chunk(Buffer.from('fine so far\u0000then NUL')))).toMatch(/^UNSUPPORTED_MEDIA/);
    expect(codeOf(() => new TextStreamCheck().chunk(Buffer.from([0x41, 0x1b, 0x5b])))).toMatch(/^UNSUPPORTED_MEDIA/);
    expect(codeOf(() => new TextStreamCheck().chunk(Buffer.from([0x41, 0xc3, 0x28])))).toMatch(/^UNSUPPORTED_MEDIA/);
    const cut = new TextStreamCheck();
    cut.chunk(Buffer.from([0x41, 0xe2, 0x82]));
    expect(codeOf(() => cut.end())).toMatch(/^UNSUPPORTED_MEDIA/);
  });
});
