// court-journal's subjects: its RPC (documents, previews, the evidence chain) and its events.
import { z } from 'zod';
import {
  courtDocumentByIdPayloadSchema, courtDocumentSchema, courtFileGrantSchema, courtFileLinkPayloadSchema, courtUploadTicketSchema, deleteCourtDocumentReplySchema,
  evidenceEntrySummarySchema, evidencePublicKeysSchema, listCourtDocumentsPayloadSchema, setKeyEvidencePayloadSchema, signedEvidenceHeadSchema,
  startCourtUploadPayloadSchema,
} from './court-journal.schemas.js';
import { emptyPayload, healthRpc, rebuildRpc, replayErasuresRpc, rpc, statsRpc } from './rpc.js';
import { titlesPayloadSchema, titlesReplySchema } from './timeline.schemas.js';
import { viewerDocumentGrantSchema, viewerItemPayloadSchema } from './viewer-links.schemas.js';
import { COURT_CATEGORIES, COURT_VARIANTS, LEGACY_COURT_CATEGORIES } from './court-journal.js';
import { event, type EventData } from './events.js';

/**
 * Court documents and the evidence chain (court-journal.ts). Bytes (uploads, previews, downloads, the
 * evidence bundle) go over court-journal's own HTTP listener, through the gateway; these carry the rest.
 */
export const CourtJournalRpc = {
  health: healthRpc('court-journal'),
  /** activeDays: the days documents were filed. */
  stats: statsRpc('court-journal'),
  startUpload: rpc('rpc.court-journal.start-upload', { payload: startCourtUploadPayloadSchema, reply: courtUploadTicketSchema }),
  list: rpc('rpc.court-journal.list', { payload: listCourtDocumentsPayloadSchema, reply: z.array(courtDocumentSchema) }),
  setKeyEvidence: rpc('rpc.court-journal.set-key-evidence', { payload: setKeyEvidencePayloadSchema, reply: courtDocumentSchema }),
  delete: rpc('rpc.court-journal.delete', { payload: courtDocumentByIdPayloadSchema, reply: deleteCourtDocumentReplySchema }),
  /** A short-lived, owner-bound link to preview (inline) or download (attachment) a file; recorded as a view in the chain. */
  fileLink: rpc('rpc.court-journal.file-link', { payload: courtFileLinkPayloadSchema, reply: courtFileGrantSchema }),
  /** A family viewer's link to one court document, signed for its view session. */
  viewerLink: rpc('rpc.court-journal.viewer-link', { payload: viewerItemPayloadSchema, reply: viewerDocumentGrantSchema }),
  /** The caller's evidence chain: its signed head, and its entries. */
  evidenceHead: rpc('rpc.court-journal.evidence-head', { payload: emptyPayload, reply: signedEvidenceHeadSchema }),
  evidenceEntries: rpc('rpc.court-journal.evidence-entries', { payload: emptyPayload, reply: z.array(evidenceEntrySummarySchema) }),
  /** A short-lived, owner-bound link to the evidence bundle (ZIP); recorded as an export in the chain. */
  bundleLink: rpc('rpc.court-journal.bundle-link', { payload: emptyPayload, reply: courtFileGrantSchema }),
  /** Public: the evidence keys anyone may use to check a bundle's signature. */
  publicKeys: rpc('rpc.court-journal.public-keys', { payload: emptyPayload, reply: evidencePublicKeysSchema }),
  /** The timeline's batch title lookup: the titles of the reader's own documents among the ids. */
  titles: rpc('rpc.court-journal.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('court-journal'),
  replayErasures: replayErasuresRpc('court-journal'),
} as const;


/** Published payloads carry ids, categories, sizes, hashes and times only; titles, descriptions and file names stay in court-journal. */
export const CourtJournalEvents = {
  /** `category` is a card; a message published before the one category model may carry an old category: read it with courtCategoryOf. */
  CourtDocumentUploaded: event('court-journal.document.uploaded.v1', z.object({
    documentId: z.string(), ownerId: z.string(), category: z.enum([...COURT_CATEGORIES, ...LEGACY_COURT_CATEGORIES]), variant: z.enum(COURT_VARIANTS), size: z.number().int().min(0), sha256: z.string(), uploadedAt: z.string(),
  })),
  CourtDocumentKeyEvidenceChanged: event('court-journal.document.key-evidence-changed.v1', z.object({ documentId: z.string(), ownerId: z.string(), isKeyEvidence: z.boolean(), changedAt: z.string() })),
  CourtDocumentDeleted: event('court-journal.document.deleted.v1', z.object({ documentId: z.string(), ownerId: z.string(), sha256: z.string(), deletedAt: z.string() })),
  /** The head of an owner's evidence chain moved (an entry was appended and the new head signed). */
  EvidenceHeadSigned: event('court-journal.evidence.head-signed.v1', z.object({ ownerId: z.string(), sequence: z.number().int().min(0), headHash: z.string(), keyId: z.string(), signedAt: z.string() })),
} as const;

export type CourtDocumentUploadedV1 = EventData<typeof CourtJournalEvents.CourtDocumentUploaded>;
