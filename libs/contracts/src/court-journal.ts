/**
 * Court documents and the Court Journal (owner-core spec, sections 2, 3, 5, 7, 8, 9; issue 11): files
 * a parent keeps as evidence, with the categories, limits and words of the spec. A document is an
 * event stream `court-document-{id}` in the court-journal service; every upload, key-evidence change,
 * deletion, view and export is also an entry of the owner's evidence chain (stream
 * `evidence-{ownerId}`), whose head the service signs with its Ed25519 evidence key.
 *
 * Bytes never travel on NATS: an upload streams browser -> gateway -> court-journal -> object storage
 * over HTTP (like a recording), and previews and downloads come back the same way through short-lived
 * links bound to the owner. Wire shapes (zod): court-journal.schemas.ts.
 */
import { formatCount } from './count-format.js';

/**
 * The one category model of court papers: the Court Journal's six cards (spec, section 2), in the
 * spec's order. Every document belongs to exactly one; the upload form of /court-documents offers
 * these and nothing else, and the cards count and filter the owner's documents by them.
 */
export const COURT_CATEGORIES = [
  'Receipts or Payment Records',
  'Photo Evidence',
  'Emails or Messages',
  'Witness Statements',
  'Timeline of Events',
  'Legal Notices or Orders',
] as const;
export type CourtCategory = (typeof COURT_CATEGORIES)[number];

/**
 * The upload form's old categories (spec, section 3: court_documents.category). No document is filed
 * under them any more; documents filed before are read under a card (courtCategoryOf), and a request
 * from an old page still open in a tab is filed under the card its category maps to.
 */
export const LEGACY_COURT_CATEGORIES = ['Custody', 'Divorce', 'Support', 'Visitation', 'Other'] as const;
export type LegacyCourtCategory = (typeof LEGACY_COURT_CATEGORIES)[number];

/** Which card an old category's document is counted on. "Other" goes by the file: a photo is photo evidence. */
export const LEGACY_CATEGORY_CARDS = {
  Custody: 'Legal Notices or Orders',
  Divorce: 'Legal Notices or Orders',
  Support: 'Receipts or Payment Records',
  Visitation: 'Timeline of Events',
  Other: 'Legal Notices or Orders',
} as const satisfies Record<LegacyCourtCategory, CourtCategory>;

/**
 * Which screen a document was filed from: the upload form of /court-documents ("documents": title,
 * category and file required; no .txt) or a category card of /court-journal ("journal": title and
 * file; .txt also accepted). Both file under the same six cards.
 */
export const COURT_VARIANTS = ['documents', 'journal'] as const;
export type CourtVariant = (typeof COURT_VARIANTS)[number];

export function isCourtCategory(value: unknown): value is CourtCategory {
  return typeof value === 'string' && (COURT_CATEGORIES as readonly string[]).includes(value);
}

export function isLegacyCourtCategory(value: unknown): value is LegacyCourtCategory {
  return typeof value === 'string' && (LEGACY_COURT_CATEGORIES as readonly string[]).includes(value);
}

/**
 * The card of a category as stored (events are immutable: one filed before the one model still says
 * "Custody"), given the file's kind; null for a value that is neither a card nor an old category.
 * Every reader of stored or published categories goes through this.
 */
export function courtCategoryOf(stored: unknown, fileKind?: CourtFileKind | null): CourtCategory | null {
  if (isCourtCategory(stored)) return stored;
  if (!isLegacyCourtCategory(stored)) return null;
  if (stored === 'Other' && (fileKind === 'jpeg' || fileKind === 'png')) return 'Photo Evidence';
  return LEGACY_CATEGORY_CARDS[stored];
}

/** The screen a request came from when it does not say: an old category is the old upload form's, a card a card's. */
export function defaultCourtVariant(category: unknown): CourtVariant {
  return isLegacyCourtCategory(category) ? 'documents' : 'journal';
}

/** 10 MB (spec, section 9), enforced by the SPA before sending and by the service while streaming. */
export const COURT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The kinds of file a court document may be, with the extensions the spec accepts and the content
 * type the file is served with. The service decides the kind from the bytes (magic numbers), never
 * from the name, and refuses a file whose name says another kind.
 */
export const COURT_FILE_KINDS = {
  pdf: { extensions: ['pdf'], contentType: 'application/pdf', previewable: true },
  doc: { extensions: ['doc'], contentType: 'application/msword', previewable: false },
  docx: { extensions: ['docx'], contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', previewable: false },
  jpeg: { extensions: ['jpg', 'jpeg'], contentType: 'image/jpeg', previewable: true },
  png: { extensions: ['png'], contentType: 'image/png', previewable: true },
  txt: { extensions: ['txt'], contentType: 'text/plain; charset=utf-8', previewable: false },
} as const satisfies Record<string, { extensions: readonly string[]; contentType: string; previewable: boolean }>;
export type CourtFileKind = keyof typeof COURT_FILE_KINDS;

/** Extensions accepted per variant (spec, sections 5 and 9: "journal variant also txt"). */
export const COURT_EXTENSIONS: Record<CourtVariant, readonly string[]> = {
  documents: ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'],
  journal: ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png', 'txt'],
};

/** The `accept` attribute of the file inputs. */
export function courtAcceptAttribute(variant: CourtVariant): string {
  return COURT_EXTENSIONS[variant].map((ext) => `.${ext}`).join(',');
}

/** The lower-cased extension of a file name ('' when it has none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** The kind a file name claims, if it is one the variant accepts. */
export function courtKindForName(fileName: string, variant: CourtVariant): CourtFileKind | null {
  const ext = fileExtension(fileName);
  if (!COURT_EXTENSIONS[variant].includes(ext)) return null;
  for (const [kind, spec] of Object.entries(COURT_FILE_KINDS) as [CourtFileKind, (typeof COURT_FILE_KINDS)[CourtFileKind]][]) {
    if ((spec.extensions as readonly string[]).includes(ext)) return kind;
  }
  return null;
}

/** Limits the spec does not state, chosen so a document's words always fit one NATS message. */
export const COURT_TITLE_MAX = 200;
export const COURT_DESCRIPTION_MAX = 2000;
export const COURT_FILE_NAME_MAX = 255;
/** Preview and download links live this long (spec, section 9: signed URLs, 3600 s; downloads need far less). */
export const COURT_LINK_SECONDS = 300;
/** The Court Journal's tip card moves on after this long. */
export const COURT_TIP_ROTATION_MS = 10_000;

/**
 * Tips for the rotating card of /court-journal. The spec names the card but not its words (they
 * are "covered elsewhere"); these are ours, practical and neutral.
 */
export const COURT_JOURNAL_TIPS = [
  'Write things down on the day they happen: dates, times, who was there and what was said.',
  'Keep receipts for every payment you make for your children, even small ones.',
  'Save messages as screenshots or exports that show the sender, the date and the time.',
  'Stick to facts. Describe what happened, not how you felt about it.',
  'Mark the documents that matter most as key evidence so you can find them quickly.',
  'Export an evidence bundle before a hearing: it carries a signature a court can check.',
] as const;

/** The words a person sees about court documents, whichever layer catches the problem (SPA, gateway, service). */
export const CourtMessages = {
  // Spec, section 5 (validation) and 8 (error catalogue), exact.
  missingInformationTitle: 'Missing Information',
  missingInformation: 'Please fill in all required fields and select a file.',
  journalMissing: 'Please provide a title and select a file',
  fileTooLargeTitle: 'File Too Large',
  fileTooLarge: 'Please select a file smaller than 10MB.',
  uploadedTitle: 'Document Uploaded',
  uploaded: 'Your court document has been securely stored.',
  loadFailedTitle: 'Error',
  loadFailed: 'Failed to load court documents.',
  journalLoadFailed: 'Failed to load documents',
  uploadFailedTitle: 'Upload Failed',
  uploadFailed: 'Failed to upload document. Please try again.',
  journalUploadFailed: 'Failed to upload document',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'Failed to download document.',
  journalDownloadFailed: 'Failed to download file',
  updateFailed: 'Failed to update document',
  deleteFailed: 'Failed to delete document',
  notAuthenticated: 'User not authenticated',
  noDocuments: 'No documents uploaded yet',
  previewUnavailable: "This file type can't be previewed directly.",
  previewFailed: 'Unable to load preview.',
  securityNotice: 'Only you and authorised family members holding access keys can view these documents.',
  // Ours: the spec has no words for these refusals.
  unsupportedType: 'This file type is not accepted. Choose a PDF, Word document, JPG or PNG file.',
  journalUnsupportedType: 'This file type is not accepted. Choose a PDF, Word document, JPG, PNG or text file.',
  typeMismatch: "This file's contents do not match its name. Choose the original file and try again.",
  emptyFile: 'This file is empty.',
  uploadIncomplete: 'The file did not arrive complete. Please try again.',
  titleTooLong: `The title can be at most ${COURT_TITLE_MAX} characters.`,
  descriptionTooLong: `The description can be at most ${formatCount(COURT_DESCRIPTION_MAX)} characters.`,
  fileNameTooLong: `The file name can be at most ${COURT_FILE_NAME_MAX} characters.`,
  categoryRequired: 'Choose a category.',
  notFound: 'Document not found',
  linkInvalid: 'This document link is not valid for you, or it has expired.',
  keyEvidenceMarked: 'Marked as key evidence',
  keyEvidenceUnmarked: 'No longer marked as key evidence',
  deleted: 'Document deleted',
  deleteConfirmTitle: 'Delete this document?',
  deleteConfirm: 'The file is removed from your vault. Your evidence record keeps a note that it existed, with its fingerprint, but not its contents.',
  exportFailed: 'Failed to export the evidence bundle. Please try again.',
} as const;

/** Trims and checks the form's fields the way the service does (spec, section 5). */
export function validateCourtUpload(input: { title?: unknown; category?: unknown; variant?: unknown; description?: unknown; fileName?: unknown; size?: unknown }): {
  title: string;
  description: string;
  variant: CourtVariant;
  errors: { title?: string; category?: string; description?: string; file?: string } | null;
} {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const description = typeof input.description === 'string' ? input.description.trim() : '';
  const category = isCourtCategory(input.category) || isLegacyCourtCategory(input.category) ? input.category : null;
  const variant: CourtVariant = input.variant === 'journal' || input.variant === 'documents' ? input.variant : defaultCourtVariant(category);
  const missing = variant === 'journal' ? CourtMessages.journalMissing : CourtMessages.missingInformation;
  const errors: { title?: string; category?: string; description?: string; file?: string } = {};
  if (!title) errors.title = missing;
  else if (Array.from(title).length > COURT_TITLE_MAX) errors.title = CourtMessages.titleTooLong;
  if (!category) errors.category = CourtMessages.missingInformation;
  if (Array.from(description).length > COURT_DESCRIPTION_MAX) errors.description = CourtMessages.descriptionTooLong;
  const fileName = typeof input.fileName === 'string' ? input.fileName.trim() : '';
  if (!fileName) errors.file = missing;
  else if (fileName.length > COURT_FILE_NAME_MAX) errors.file = CourtMessages.fileNameTooLong;
  else if (!courtKindForName(fileName, variant)) errors.file = variant === 'journal' ? CourtMessages.journalUnsupportedType : CourtMessages.unsupportedType;
  else if (typeof input.size === 'number' && input.size > COURT_FILE_MAX_BYTES) errors.file = CourtMessages.fileTooLarge;
  else if (typeof input.size === 'number' && input.size <= 0) errors.file = CourtMessages.emptyFile;
  return { title, description, variant, errors: Object.keys(errors).length ? errors : null };
}

// What leaves the service on JetStream (ids, categories, sizes, hashes and times; never a title,
// description or file name): CourtJournalEvents, court-journal.messaging.ts.

/** The kinds of entry in an owner's evidence chain (issue 11: upload, key-evidence change, deletion, view, export). */
export const EVIDENCE_ACTIONS = ['uploaded', 'key-evidence-marked', 'key-evidence-unmarked', 'deleted', 'viewed', 'exported'] as const;
export type EvidenceAction = (typeof EVIDENCE_ACTIONS)[number];

/** `npm run verify-evidence -- <bundle.zip>` (printed in every bundle's README). */
export const VERIFY_EVIDENCE_COMMAND = 'npm run verify-evidence -- <bundle.zip>';
/** Where the evidence public keys are published (public, stable; the gateway serves it). */
export const EVIDENCE_KEYS_PATH = '/api/court/evidence/keys';
