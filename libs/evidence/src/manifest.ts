import { evidencePublicKeysSchema, type EvidencePublicKeys, type SignedEvidenceHead } from '@lv/contracts';
import type { ChainDocument, EvidenceEntry } from './chain.js';

export const EVIDENCE_BUNDLE_FORMAT = 'legacy-vault/evidence-bundle/v1';
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
  category: string;
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
  format: typeof EVIDENCE_BUNDLE_FORMAT;
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

/** Where a document's original sits in the bundle: files/<upload entry>-<safe file name>. */
export function bundleFilePath(doc: Pick<ChainDocument, 'uploadSequence' | 'fileName'>): string {
  return `${BUNDLE_FILES_DIR}${doc.uploadSequence}-${safeFileName(doc.fileName)}`;
}

/** The manifest's documents, derived from the chain alone (the verifier derives them again and compares). */
export function manifestDocuments(documents: readonly ChainDocument[]): ManifestDocument[] {
  return documents.map((d) => ({
    documentId: d.documentId,
    title: d.title,
    category: d.category,
    fileName: d.fileName,
    size: d.size,
    sha256: d.sha256,
    uploadedAt: d.uploadedAt,
    uploadEntry: d.uploadSequence,
    isKeyEvidence: d.isKeyEvidence,
    status: d.deleteSequence === null ? 'present' : 'deleted',
    deletedAt: d.deletedAt,
    deleteEntry: d.deleteSequence,
    path: d.deleteSequence === null ? bundleFilePath(d) : null,
  }));
}

/**
 * manifest.json, derived from the chain and its signed head only, so that a verifier can derive it
 * again and demand the same bytes (nothing in it is unsigned free text).
 */
export function buildManifest(input: { ownerId: string; head: SignedEvidenceHead; documents: readonly ChainDocument[] }): EvidenceManifest {
  return {
    format: EVIDENCE_BUNDLE_FORMAT,
    ownerId: input.ownerId,
    head: { sequence: input.head.sequence, headHash: input.head.headHash, keyId: input.head.keyId, signedAt: input.head.signedAt },
    entries: input.head.sequence,
    documents: manifestDocuments(input.documents),
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
