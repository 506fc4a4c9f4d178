import {
  COURT_FILE_KINDS, COURT_FILE_MAX_BYTES, courtCategoryOf, courtKindForName, CourtMessages, validateCourtUpload,
  type CourtCategory, type CourtFileKind, type CourtVariant, type PayloadOf, type CourtJournalRpc,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';

/** An upload form the service accepted: what its ticket keeps until the bytes arrive. */
export interface AcceptedUploadForm {
  title: string;
  description: string | null;
  /** The card: an old category from a page loaded before the one model is filed under its card here. */
  category: CourtCategory;
  variant: CourtVariant;
  fileName: string;
  declaredSize: number;
}

/** The form's words judged with the spec's messages; the first problem is the error's message. */
export function acceptUploadForm(request: PayloadOf<typeof CourtJournalRpc.startUpload>): AcceptedUploadForm {
  const { title, description, variant, errors } = validateCourtUpload(request);
  if (errors) throw validationError(errors, Object.values(errors)[0]);
  if (!Number.isSafeInteger(request.size)) throw validationError({ file: CourtMessages.missingInformation }, CourtMessages.missingInformation);
  const fileName = request.fileName.trim();
  // validateCourtUpload accepted the category and the name's kind, so both are known here.
  const category = courtCategoryOf(request.category, courtKindForName(fileName, variant))!;
  return { title, description: description || null, category, variant, fileName, declaredSize: request.size };
}

/** What the bytes of a ticket must be, judged before storage is touched. */
export interface ExpectedUpload {
  variant: CourtVariant;
  kind: CourtFileKind;
  contentType: string;
  declaredSize: number;
}

export const fileTooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', CourtMessages.fileTooLarge);
export const uploadIncomplete = () => new DomainError('UPLOAD_INCOMPLETE', CourtMessages.uploadIncomplete);

/**
 * A request's body for a ticket: refused when it announces more than the 10 MB limit, or when the
 * ticket's file name names no kind its screen takes; otherwise the kind the bytes must prove.
 */
export function expectUpload(ticket: { variant: CourtVariant; file_name: string; declared_size: string | number }, contentLength: number | undefined): ExpectedUpload {
  if (contentLength !== undefined && contentLength > COURT_FILE_MAX_BYTES) throw fileTooLarge();
  const variant = ticket.variant;
  const kind = courtKindForName(ticket.file_name, variant);
  if (!kind) throw new DomainError('UNSUPPORTED_MEDIA', CourtMessages.unsupportedType);
  return { variant, kind, contentType: COURT_FILE_KINDS[kind].contentType, declaredSize: Number(ticket.declared_size) };
}
