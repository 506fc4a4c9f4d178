import { z } from 'zod';
import {
  COURT_CATEGORIES, COURT_VARIANTS, LEGACY_COURT_CATEGORIES, COURT_DESCRIPTION_MAX, COURT_FILE_KINDS, COURT_FILE_MAX_BYTES, COURT_FILE_NAME_MAX, COURT_TITLE_MAX,
  CourtMessages, EVIDENCE_ACTIONS,
} from './court-journal.js';
import { SHA256_HEX } from './media.js';
import { fileNameText, safeText } from './text.schemas.js';

// Court documents on the wire, as zod schemas (types inferred). Kept apart from court-journal.ts so
// the SPA, which imports only types and constants from here, never bundles zod.
//
//   POST   /api/court/uploads                   StartCourtUploadRequest -> 201 CourtUploadTicket | 400 (the spec's words)
//   PUT    /api/court/uploads/:id               the file's raw bytes    -> 201 CourtDocument | 413 | 415 | 400 UPLOAD_INCOMPLETE
//   GET    /api/court/documents?category=       -> CourtDocument[] (newest first)
//   PATCH  /api/court/documents/:id             { is_key_evidence }     -> CourtDocument
//   DELETE /api/court/documents/:id             -> 204
//   POST   /api/court/documents/:id/link        { disposition }         -> CourtFileLink (and the owner-binding cookie)
//   GET    /api/court/files/:id?d&u&exp&sig     -> the bytes (inline for a preview, attachment for a download), nosniff
//   GET    /api/court/evidence/head             -> SignedEvidenceHead
//   POST   /api/court/evidence/bundle-link      -> CourtFileLink to the bundle
//   GET    /api/court/evidence/bundle?u&exp&sig -> application/zip (the files, manifest, chain, signed head, README)
//   GET    /api/court/evidence/keys             -> EvidencePublicKeys (public)

const kinds = Object.keys(COURT_FILE_KINDS) as [keyof typeof COURT_FILE_KINDS, ...(keyof typeof COURT_FILE_KINDS)[]];

/** POST /api/court/uploads, validated by the gateway; the service checks again (court-journal.ts: validateCourtUpload). */
export const startCourtUploadBodySchema = z.object({
  title: safeText({ error: CourtMessages.missingInformation })
    .trim()
    .min(1, CourtMessages.missingInformation)
    .refine((t) => Array.from(t).length <= COURT_TITLE_MAX, CourtMessages.titleTooLong)
    .meta({ example: 'Child maintenance receipts, March', maxLength: COURT_TITLE_MAX }),
  /** One of the Court Journal's six cards. An old category (Custody, Divorce, Support, Visitation, Other) from a page loaded before is filed under its card. */
  category: z.enum([...COURT_CATEGORIES, ...LEGACY_COURT_CATEGORIES], { error: CourtMessages.categoryRequired }),
  /** The screen the file is sent from: the upload form of /court-documents, or a card of /court-journal (which also takes .txt). */
  variant: z.enum(COURT_VARIANTS, { error: 'variant is documents or journal.' }).optional(),
  description: safeText()
    .trim()
    .refine((t) => Array.from(t).length <= COURT_DESCRIPTION_MAX, CourtMessages.descriptionTooLong)
    .optional()
    .meta({ maxLength: COURT_DESCRIPTION_MAX }),
  /** The name of the file as chosen in the browser: its extension must be one the category's variant accepts. */
  fileName: fileNameText({ error: CourtMessages.missingInformation })
    .min(1, CourtMessages.missingInformation)
    .max(COURT_FILE_NAME_MAX, CourtMessages.fileNameTooLong)
    .meta({ example: 'receipts-march.pdf' }),
  /** Bytes the PUT will send (the service enforces the limit again while streaming). */
  size: z.number({ error: CourtMessages.missingInformation }).int().positive(CourtMessages.emptyFile).max(COURT_FILE_MAX_BYTES, CourtMessages.fileTooLarge),
});
export type StartCourtUploadRequest = z.input<typeof startCourtUploadBodySchema>;

export const courtUploadTicketSchema = z.object({
  uploadId: z.uuid(),
  /** Where to PUT the bytes (through the gateway). */
  uploadUrl: z.string().meta({ example: '/api/court/uploads/0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e' }),
  maxBytes: z.number().int(),
});
export type CourtUploadTicket = z.infer<typeof courtUploadTicketSchema>;

/** One court document (spec, section 3: court_documents), as the owner sees it. */
export const courtDocumentSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  /** The Court Journal card the document is counted on (one filed under an old category: its card). */
  category: z.enum(COURT_CATEGORIES),
  variant: z.enum(COURT_VARIANTS),
  file_name: z.string(),
  /** The kind the service found in the bytes (never the name's claim). */
  file_kind: z.enum(kinds),
  file_type: z.string().meta({ description: 'The content type the file is served with.' }),
  /** Object key in the courtjournals bucket. */
  file_path: z.string(),
  size: z.number().int(),
  /** SHA-256 of the file, computed while it streamed in (hex). */
  sha256: z.string().regex(SHA256_HEX),
  previewable: z.boolean(),
  is_key_evidence: z.boolean(),
  upload_date: z.iso.datetime(),
  created_at: z.iso.datetime(),
});
export type CourtDocument = z.infer<typeof courtDocumentSchema>;

/** GET /api/court/documents?category= */
export const listCourtDocumentsQuerySchema = z.object({ category: z.enum(COURT_CATEGORIES, { error: CourtMessages.categoryRequired }).optional() });

/** PATCH /api/court/documents/:id */
export const setKeyEvidenceBodySchema = z.object({ is_key_evidence: z.boolean({ error: 'is_key_evidence must be true or false.' }) });

/** POST /api/court/documents/:id/link: a preview shows inline, a download saves as an attachment. */
export const courtFileLinkBodySchema = z.object({ disposition: z.enum(['inline', 'attachment'], { error: 'disposition is inline or attachment.' }) });

export const courtFileLinkSchema = z.object({
  /** Same-origin path of the gateway, signed for you and this file only. */
  url: z.string(),
  /** Epoch milliseconds. */
  expiresAt: z.number(),
});
export type CourtFileLink = z.infer<typeof courtFileLinkSchema>;
/** What the court-journal RPC answers to the gateway: the link and the owner binding it puts in a cookie. */
export const courtFileGrantSchema = courtFileLinkSchema.extend({ binding: z.object({ value: z.string(), maxAgeSeconds: z.number().int() }) });
export type CourtFileGrant = z.infer<typeof courtFileGrantSchema>;

/** The signed head of an owner's evidence chain. */
export const signedEvidenceHeadSchema = z.object({
  ownerId: z.uuid(),
  /** Entries in the chain (the head is entry `sequence`, counted from 1); 0 when the chain is empty. */
  sequence: z.number().int().min(0),
  /** SHA-256 (hex) of the last entry, or 64 zeros for an empty chain. */
  headHash: z.string().regex(SHA256_HEX),
  signedAt: z.iso.datetime(),
  keyId: z.string(),
  /** Ed25519 signature (base64url) over the head's canonical bytes (libs/evidence). */
  signature: z.string(),
});
export type SignedEvidenceHead = z.infer<typeof signedEvidenceHeadSchema>;

/** The service's evidence public keys: the current one and those still honoured (rotation with overlap). */
export const evidencePublicKeysSchema = z.object({
  keys: z.array(z.object({
    keyId: z.string(),
    algorithm: z.literal('Ed25519'),
    /** SPKI, PEM. */
    publicKeyPem: z.string(),
    /** From when the key signs (ISO), and until when heads it signed are honoured (null: current). */
    validFrom: z.iso.datetime(),
    validUntil: z.iso.datetime().nullable(),
  })),
});
export type EvidencePublicKeys = z.infer<typeof evidencePublicKeysSchema>;

/** One entry of an evidence chain as the owner's screen lists it (the full entry is in libs/evidence). */
export const evidenceEntrySummarySchema = z.object({
  sequence: z.number().int().min(1),
  action: z.enum(EVIDENCE_ACTIONS),
  documentId: z.uuid().nullable(),
  sha256: z.string().regex(SHA256_HEX).nullable(),
  at: z.iso.datetime(),
  hash: z.string().regex(SHA256_HEX),
});
export type EvidenceEntrySummary = z.infer<typeof evidenceEntrySummarySchema>;

// RPC payloads (rpc.court-journal.*, CourtJournalRpc in court-journal.messaging.ts), checked by the service too (it
// does not trust its callers).
export const startCourtUploadPayloadSchema = z.object({
  title: safeText().max(1000),
  category: safeText().max(100),
  variant: z.enum(COURT_VARIANTS).optional(),
  description: safeText().max(10_000).optional(),
  fileName: fileNameText().max(1000),
  size: z.number(),
});
export const listCourtDocumentsPayloadSchema = z.object({ category: safeText().max(100).optional() });
export const courtDocumentByIdPayloadSchema = z.object({ id: safeText().max(64) });
export const setKeyEvidencePayloadSchema = z.object({ id: safeText().max(64), isKeyEvidence: z.boolean() });
export const courtFileLinkPayloadSchema = z.object({ id: safeText().max(64), disposition: z.enum(['inline', 'attachment']) });
export const deleteCourtDocumentReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeleteCourtDocumentReply = z.infer<typeof deleteCourtDocumentReplySchema>;
