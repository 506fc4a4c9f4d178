import { CourtMessages, type CourtFileKind, type CourtVariant } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/**
 * What a court file really is, from its bytes (magic numbers), never from its name. Hand-written:
 * six kinds, each a few bytes at the start, are easier to read and test than a dependency.
 *
 *   PDF  %PDF-              DOC  D0 CF 11 E0 A1 B1 1A E1 (OLE2 compound file)
 *   PNG  89 50 4E 47 0D 0A 1A 0A                 JPEG FF D8 FF
 *   DOCX PK 03 04 (a ZIP) whose local file headers, within the first DOCX_HEAD_BYTES, name
 *        `[Content_Types].xml` or a `word/` part: a plain ZIP (or an .xlsx) renamed .docx is refused.
 *   TXT  valid UTF-8 with no NUL or other binary control byte, checked over the WHOLE body as it
 *        streams (TextStreamCheck), and not starting like any of the kinds above.
 */
const MAGIC: readonly [Exclude<CourtFileKind, 'docx' | 'txt'> | 'zip', Buffer][] = [
  ['pdf', Buffer.from('%PDF-', 'latin1')],
  ['doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
  ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['jpeg', Buffer.from([0xff, 0xd8, 0xff])],
  ['zip', Buffer.from([0x50, 0x4b, 0x03, 0x04])],
];
/** How much of a ZIP's head is searched for the parts that make it a Word document. */
export const DOCX_HEAD_BYTES = 64 * 1024;
const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

type Magic = (typeof MAGIC)[number][0];

/** The kind the first bytes announce; null when none, 'more' when too few bytes arrived to say. */
export function magicKind(head: Buffer, ended: boolean): Magic | null | 'more' {
  for (const [kind, magic] of MAGIC) if (head.length >= magic.length && head.subarray(0, magic.length).equals(magic)) return kind;
  // A shorter head that could still become one of them waits for more bytes.
  if (!ended && MAGIC.some(([, magic]) => head.length < magic.length && magic.subarray(0, head.length).equals(head))) return 'more';
  return null;
}

/** Names of the ZIP entries whose local file headers lie wholly within `head`. */
export function zipEntryNames(head: Buffer): string[] {
  const names: string[] = [];
  // Local headers are searched for rather than walked: an entry written with a data descriptor has
  // no size in its header, so walking would stop at the first such entry.
  for (let at = head.indexOf(LOCAL_HEADER); at >= 0 && at + 30 <= head.length; at = head.indexOf(LOCAL_HEADER, at + 4)) {
    const nameLength = head.readUInt16LE(at + 26);
    if (at + 30 + nameLength > head.length) break;
    names.push(head.subarray(at + 30, at + 30 + nameLength).toString('utf8'));
  }
  return names;
}

const isWordPart = (name: string) => name === '[Content_Types].xml' || name.startsWith('word/');

const mismatch = () => new DomainError('UNSUPPORTED_MEDIA', CourtMessages.typeMismatch);
const unsupported = (variant: CourtVariant) =>
  new DomainError('UNSUPPORTED_MEDIA', variant === 'journal' ? CourtMessages.journalUnsupportedType : CourtMessages.unsupportedType);

/**
 * The head check of an upload whose name claims `claimed`: true when the first bytes are that kind
 * (the bytes may pass), false when more are needed, and 415 otherwise: typeMismatch when the bytes
 * are another kind we know (a PNG named .pdf), unsupportedType when they are no kind we take (an EXE).
 */
export function checkCourtHead(head: Buffer, ended: boolean, claimed: CourtFileKind, variant: CourtVariant): boolean {
  if (ended && head.length === 0) throw new DomainError('VALIDATION_FAILED', CourtMessages.emptyFile, { fields: { file: CourtMessages.emptyFile } });
  const magic = magicKind(head, ended);
  if (magic === 'more') return false;
  if (claimed === 'txt') {
    if (magic !== null) throw mismatch();
    return true; // the text itself is checked as it streams (TextStreamCheck)
  }
  if (magic === null) throw unsupported(variant);
  if (claimed === 'docx') {
    if (magic !== 'zip') throw mismatch();
    const names = zipEntryNames(head.subarray(0, DOCX_HEAD_BYTES));
    if (names.some(isWordPart)) return true;
    if (!ended && head.length < DOCX_HEAD_BYTES) return false;
    throw mismatch();
  }
  if (magic !== claimed) throw mismatch();
  return true;
}

/** Binary control bytes: everything below 0x20 except tab, line feed, form feed and carriage return, and DEL. */
const isBinaryControl = (byte: number) => (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f;

/**
 * A text file's whole body, checked as it streams: valid UTF-8 (a sequence split across chunks is
 * fine, one cut off at the end is not) with no binary control byte. Memory stays flat: the decoder
 * keeps at most three bytes of an unfinished sequence.
 */
export class TextStreamCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  chunk(chunk: Buffer): void {
    for (const byte of chunk) if (isBinaryControl(byte)) throw mismatch();
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      throw mismatch();
    }
  }

  end(): void {
    try {
      this.decoder.decode();
    } catch {
      throw mismatch();
    }
  }
}
