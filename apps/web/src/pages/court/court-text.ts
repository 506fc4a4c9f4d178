import { COURT_FILE_MAX_BYTES, CourtMessages, validateCourtUpload, type CourtCategory, type CourtDocument, type CourtVariant } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { formatDate, formatDayHeading, localDay } from '../../lib/dates.js';

/** The spec's words that differ between /court-documents and the Court Journal (section 8). */
export function courtTexts(variant: CourtVariant) {
  const journal = variant === 'journal';
  return {
    loadFailed: journal ? CourtMessages.journalLoadFailed : CourtMessages.loadFailed,
    uploadFailed: journal ? CourtMessages.journalUploadFailed : CourtMessages.uploadFailed,
    downloadFailed: journal ? CourtMessages.journalDownloadFailed : CourtMessages.downloadFailed,
  };
}

/** A toast: its title and the line under it. */
export interface Notice {
  title: string;
  description: string;
}

/**
 * The checks made before any request (spec, section 5), as the toast to show, or null when the form
 * may be sent. Missing fields first, then the file's size, then its type (by name: the service checks
 * the bytes again).
 */
export function checkCourtForm(input: { variant: CourtVariant; title: string; category: CourtCategory | ''; description?: string; file: File | null }): Notice | null {
  const missing = input.variant === 'journal' ? CourtMessages.journalMissing : CourtMessages.missingInformation;
  if (!input.title.trim() || !input.category || !input.file) return { title: CourtMessages.missingInformationTitle, description: missing };
  if (input.file.size > COURT_FILE_MAX_BYTES) return { title: CourtMessages.fileTooLargeTitle, description: CourtMessages.fileTooLarge };
  const { errors } = validateCourtUpload({ title: input.title, category: input.category, variant: input.variant, description: input.description ?? '', fileName: input.file.name, size: input.file.size });
  const first = errors ? (errors.title ?? errors.category ?? errors.file ?? errors.description) : undefined;
  if (!first) return null;
  if (first === CourtMessages.fileTooLarge) return { title: CourtMessages.fileTooLargeTitle, description: first };
  if (first === missing || first === CourtMessages.missingInformation) return { title: CourtMessages.missingInformationTitle, description: missing };
  return { title: CourtMessages.uploadFailedTitle, description: first };
}

const isStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;
export const isUnauthenticated = (error: unknown) => isStatus(error, 401);
export const isNotFound = (error: unknown) => isStatus(error, 404);

/**
 * What a failed upload says: the server's own words when it refused the file (a type that does not
 * match the bytes, too large, a bad field), "User not authenticated" without a session, and the
 * spec's generic words for anything else (a crash, no connection).
 */
export function uploadFailure(error: unknown, variant: CourtVariant): Notice {
  const title = CourtMessages.uploadFailedTitle;
  if (isUnauthenticated(error)) return { title, description: CourtMessages.notAuthenticated };
  if (error instanceof ApiError && error.isClientError && error.body.message) return { title, description: error.body.message };
  return { title, description: courtTexts(variant).uploadFailed };
}

/** "2.4 MB", "310 KB", "18 bytes". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const formatCourtDate = (iso: string) => formatDate(iso);
/** The heading of a day of the journal timeline (a local YYYY-MM-DD). */
export { formatDayHeading };

export interface CourtDay {
  /** Local calendar day, YYYY-MM-DD. */
  day: string;
  documents: CourtDocument[];
}

/** Documents by the local day they were uploaded, newest day first, newest document first within a day. */
export function groupDocumentsByDay(documents: readonly CourtDocument[]): CourtDay[] {
  const sorted = [...documents].sort((a, b) => Date.parse(b.upload_date) - Date.parse(a.upload_date) || b.id.localeCompare(a.id));
  const days: CourtDay[] = [];
  for (const document of sorted) {
    const day = localDay(document.upload_date);
    const last = days.at(-1);
    if (last?.day === day) last.documents.push(document);
    else days.push({ day, documents: [document] });
  }
  return days;
}
