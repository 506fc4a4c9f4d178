import {
  COURT_FILE_KINDS, COURT_FILE_MAX_BYTES, courtKindForName, courtVariantOf, CourtMessages, validateCourtUpload,
  type CourtCategory, type CourtFileKind, type CourtVariant, type PayloadOf, type CourtJournalRpc,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';

/** An upload form the service accepted: what its ticket keeps until the bytes arrive. */
export interface AcceptedUploadForm {
  title: string;
  description: string | null;
  category: CourtCategory;
  fileName: string;
  declaredSize: number;
}

/** The form's words judged with the spec's messages; the first problem is the error's message. */
export function acceptUploadForm(request: PayloadOf<typeof CourtJournalRpc.startUpload>): AcceptedUploadForm {
  const { title, description, errors } = validateCourtUpload(request);
  if (errors) throw validationError(errors, Object.values(errors)[0]);
  if (!Number.isSafeInteger(request.size)) throw validationError({ file: CourtMessages.missingInformation }, CourtMessages.missingInformation);
  return { title, description: description || null, category: request.category as CourtCategory, fileName: request.fileName.trim(), declaredSize: request.size };
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
 * ticket's file name names no kind its category takes; otherwise the kind the bytes must prove.
 */
export function expectUpload(ticket: { category: CourtCategory; file_name: string; declared_size: string | number }, contentLength: number | undefined): ExpectedUpload {
  if (contentLength !== undefined && contentLength > COURT_FILE_MAX_BYTES) throw fileTooLarge();
  const variant = courtVariantOf(ticket.category);
  const kind = courtKindForName(ticket.file_name, variant);
  if (!kind) throw new DomainError('UNSUPPORTED_MEDIA', CourtMessages.unsupportedType);
  return { variant, kind, contentType: COURT_FILE_KINDS[kind].contentType, declaredSize: Number(ticket.declared_size) };
}
