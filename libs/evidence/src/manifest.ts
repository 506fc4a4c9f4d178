import { COURT_CATEGORIES, courtCategoryOf, courtKindForName, evidencePublicKeysSchema, type EvidencePublicKeys, type SignedEvidenceHead } from '@lv/contracts';
import type { ChainDocument, EvidenceEntry } from './chain.js';

/** v2: documents grouped by Court Journal card (in the manifest and under files/<card>/). */
export const EVIDENCE_BUNDLE_FORMAT = 'legacy-vault/evidence-bundle/v2';
/** Bundles exported before the cards: one flat files/ folder. Still verified, as they were written. */
export const EVIDENCE_BUNDLE_FORMAT_V1 = 'legacy-vault/evidence-bundle/v1';
export const EVIDENCE_BUNDLE_FORMATS = [EVIDENCE_BUNDLE_FORMAT, EVIDENCE_BUNDLE_FORMAT_V1] as const;
export type EvidenceBundleFormat = (typeof EVIDENCE_BUNDLE_FORMATS)[number];
export const EVIDENCE_CHAIN_FORMAT = 'legacy-vault/evidence-chain/v1';

/** The fixed files of a bundle, in the order they are written. Documents follow under files/. */
export const BUNDLE_FILES = {
  readme: 'README.txt',
  manifest: 'manifest.json',
  chain: 'chain.json',
  head: 'head.json',
  headBytes: 'head.bin',
  headSignature: 'head.sig',
  signingKey: 'key.pem',
  keys: 'keys.json',
} as const;
export const BUNDLE_FILES_DIR = 'files/';

/** One document of manifest.json: everything the chain says about it, and where its file is. */
export interface ManifestDocument {
  documentId: string;
  title: string;
  /** As the upload entry recorded it (an old document's may be an old category: Custody, Support...). */
  category: string;
  /** v2: the Court Journal card the document is counted on (the category read through courtCategoryOf). */
  card?: string;
  fileName: string;
  size: number;
  sha256: string;
  uploadedAt: string;
  uploadEntry: number;
  isKeyEvidence: boolean;
  /** "present" (the original is in the bundle at `path`) or "deleted" (only its record remains). */
  status: 'present' | 'deleted';
  deletedAt: string | null;
  deleteEntry: number | null;
  path: string | null;
}

export interface EvidenceManifest {
  format: EvidenceBundleFormat;
  ownerId: string;
  head: { sequence: number; headHash: string; keyId: string; signedAt: string };
  entries: number;
  documents: ManifestDocument[];
}

export interface EvidenceChainFile {
  format: typeof EVIDENCE_CHAIN_FORMAT;
  ownerId: string;
  entries: EvidenceEntry[];
}

/** A file name any file system accepts, keeping the extension: letters, digits, dot, dash, underscore. */
export function safeFileName(fileName: string): string {
  const cleaned = fileName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').replace(/_+/g, '_');
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 ? cleaned.slice(dot).slice(0, 10) : '';
  const stem = (dot > 0 ? cleaned.slice(0, dot) : cleaned).slice(0, 80) || 'file';
  return `${stem}${ext}`;
}

/** The Court Journal card of a chain's document (its recorded category, an old one mapped; an unknown one as it is). */
export function documentCard(doc: Pick<ChainDocument, 'category' | 'fileName'>): string {
  return courtCategoryOf(doc.category, courtKindForName(doc.fileName, 'journal')) ?? doc.category;
}

/** A card as a folder name: "Receipts or Payment Records" -> "receipts-or-payment-records". */
export const cardFolder = (card: string) => card.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'other';

/** Where a document's original sits in the bundle: files/<card>/<upload entry>-<safe file name> (v1: files/<upload entry>-<safe file name>). */
export function bundleFilePath(doc: Pick<ChainDocument, 'uploadSequence' | 'fileName' | 'category'>, format: EvidenceBundleFormat = EVIDENCE_BUNDLE_FORMAT): string {
  const folder = format === EVIDENCE_BUNDLE_FORMAT_V1 ? '' : `${cardFolder(documentCard(doc))}/`;
  return `${BUNDLE_FILES_DIR}${folder}${doc.uploadSequence}-${safeFileName(doc.fileName)}`;
}

const cardRank = (card: string) => {
  const i = (COURT_CATEGORIES as readonly string[]).indexOf(card);
  return i === -1 ? COURT_CATEGORIES.length : i;
};

/**
 * The manifest's documents, derived from the chain alone (the verifier derives them again and
 * compares). v2 groups them by card, in the Court Journal's order, each card's in upload order.
 */
export function manifestDocuments(documents: readonly ChainDocument[], format: EvidenceBundleFormat = EVIDENCE_BUNDLE_FORMAT): ManifestDocument[] {
  const v1 = format === EVIDENCE_BUNDLE_FORMAT_V1;
  const ordered = v1 ? documents : [...documents].sort((a, b) => cardRank(documentCard(a)) - cardRank(documentCard(b)) || a.uploadSequence - b.uploadSequence);
  return ordered.map((d) => ({
    documentId: d.documentId,
    title: d.title,
    category: d.category,
    ...(v1 ? {} : { card: documentCard(d) }),
    fileName: d.fileName,
    size: d.size,
    sha256: d.sha256,
    uploadedAt: d.uploadedAt,
    uploadEntry: d.uploadSequence,
    isKeyEvidence: d.isKeyEvidence,
    status: d.deleteSequence === null ? 'present' : 'deleted',
    deletedAt: d.deletedAt,
    deleteEntry: d.deleteSequence,
    path: d.deleteSequence === null ? bundleFilePath(d, format) : null,
  }));
}

/**
 * manifest.json, derived from the chain and its signed head only, so that a verifier can derive it
 * again and demand the same bytes (nothing in it is unsigned free text).
 */
export function buildManifest(input: { ownerId: string; head: SignedEvidenceHead; documents: readonly ChainDocument[]; format?: EvidenceBundleFormat }): EvidenceManifest {
  const format = input.format ?? EVIDENCE_BUNDLE_FORMAT;
  return {
    format,
    ownerId: input.ownerId,
    head: { sequence: input.head.sequence, headHash: input.head.headHash, keyId: input.head.keyId, signedAt: input.head.signedAt },
    entries: input.head.sequence,
    documents: manifestDocuments(input.documents, format),
  };
}

/** How the bundle's JSON files are laid out: two-space indentation and a final newline, nothing else. */
export function bundleJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** head.json: the signed head's fields in the schema's order. */
export function headJson(head: SignedEvidenceHead): string {
  const { ownerId, sequence, headHash, signedAt, keyId, signature } = head;
  return bundleJson({ ownerId, sequence, headHash, signedAt, keyId, signature });
}

/** keys.json: the published keys as the schema orders them. */
export function keysJson(keys: EvidencePublicKeys): string {
  return bundleJson(evidencePublicKeysSchema.parse(keys));
}
