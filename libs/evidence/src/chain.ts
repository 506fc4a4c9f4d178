import { EVIDENCE_ACTIONS, type EvidenceAction } from '@lv/contracts';
import { canonicalBytes, sha256Hex, SHA256_HEX_PATTERN, ZERO_HASH, type CanonicalValue } from './canonical.js';

/** Who did it: the vault's owner, or a family member reading through an access key (`id`: the viewer's). */
export interface EvidenceActor {
  role: 'owner' | 'viewer';
  id?: string | null;
}

/** What the service knows when something happens to a document; the chain adds the rest. */
export interface EvidenceFacts {
  action: EvidenceAction;
  documentId: string | null;
  title: string | null;
  category: string | null;
  fileName: string | null;
  /** SHA-256 (hex) of the file's bytes, computed while they streamed in. */
  sha256: string | null;
  size: number | null;
  /** ISO 8601, UTC (`Date.toISOString()`). */
  at: string;
  actor: EvidenceActor;
}

/** One entry of an owner's evidence chain. */
export interface EvidenceEntry extends EvidenceFacts {
  /** 1..n, no gaps. */
  sequence: number;
  /** `hash` of the entry before (64 zeros for the first). */
  prevHash: string;
  /** SHA-256 (hex) of canonicalEntryBytes(this entry). */
  hash: string;
}

export type ChainVerdict = { ok: true } | { ok: false; sequence: number; reason: string };

const ENTRY_KEYS = ['action', 'actor', 'at', 'category', 'documentId', 'fileName', 'hash', 'prevHash', 'sequence', 'sha256', 'size', 'title'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const TEXT_MAX = 4096;

/**
 * The bytes an entry's hash is taken over: the canonical JSON (canonical.ts) of every field of the
 * entry except `hash` itself, `actor` included as `{"id":...,"role":...}`.
 */
export function canonicalEntryBytes(entry: Omit<EvidenceEntry, 'hash'> & { hash?: string }): Buffer {
  const { hash: _hash, ...fields } = entry;
  return canonicalBytes({ ...fields, actor: { role: fields.actor.role, id: fields.actor.id } } as unknown as CanonicalValue);
}

export function entryHash(entry: Omit<EvidenceEntry, 'hash'> & { hash?: string }): string {
  return sha256Hex(canonicalEntryBytes(entry));
}

const nullableText = (v: unknown) => v === null || (typeof v === 'string' && v.length > 0 && v.length <= TEXT_MAX);

/**
 * Why an entry (or the facts of one) is malformed, or null. Also the per-action rules: an upload
 * names the document, its title, category, file name, hash and size; an export is about no single
 * document; every other action names a document.
 */
export function entryProblem(entry: unknown, withChainFields = true): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not an object';
  const e = entry as Record<string, unknown>;
  const expected = withChainFields ? ENTRY_KEYS : ENTRY_KEYS.filter((k) => !['hash', 'prevHash', 'sequence'].includes(k));
  const keys = Object.keys(e).sort();
  const extra = keys.filter((k) => !expected.includes(k));
  const missing = expected.filter((k) => !(k in e));
  if (extra.length) return `has unexpected field(s) ${extra.join(', ')}`;
  if (missing.length) return `lacks field(s) ${missing.join(', ')}`;
  if (withChainFields) {
    if (!Number.isSafeInteger(e.sequence) || (e.sequence as number) < 1) return 'sequence is not a positive integer';
    if (typeof e.prevHash !== 'string' || !SHA256_HEX_PATTERN.test(e.prevHash)) return 'prevHash is not 64 lower-case hex digits';
    if (typeof e.hash !== 'string' || !SHA256_HEX_PATTERN.test(e.hash)) return 'hash is not 64 lower-case hex digits';
  }
  if (!(EVIDENCE_ACTIONS as readonly unknown[]).includes(e.action)) return `action ${JSON.stringify(e.action)} is not one of ${EVIDENCE_ACTIONS.join(', ')}`;
  for (const k of ['documentId', 'title', 'category', 'fileName'] as const) {
    if (!nullableText(e[k])) return `${k} is neither null nor a non-empty string of at most ${TEXT_MAX} characters`;
  }
  if (e.sha256 !== null && (typeof e.sha256 !== 'string' || !SHA256_HEX_PATTERN.test(e.sha256))) return 'sha256 is neither null nor 64 lower-case hex digits';
  if (e.size !== null && (!Number.isSafeInteger(e.size) || (e.size as number) < 0)) return 'size is neither null nor a non-negative integer';
  if (typeof e.at !== 'string' || !ISO_UTC.test(e.at) || Number.isNaN(Date.parse(e.at))) return 'at is not an ISO 8601 UTC time';
  const actor = e.actor as Record<string, unknown> | null;
  if (typeof actor !== 'object' || actor === null || Array.isArray(actor)) return 'actor is not an object';
  if (Object.keys(actor).sort().join(',') !== 'id,role') return 'actor must have exactly the fields role and id';
  if (actor.role !== 'owner' && actor.role !== 'viewer') return 'actor.role is neither owner nor viewer';
  if (!nullableText(actor.id)) return 'actor.id is neither null nor a non-empty string';
  if (e.action === 'uploaded') {
    for (const k of ['documentId', 'title', 'category', 'fileName', 'sha256', 'size'] as const) if (e[k] === null) return `an upload needs ${k}`;
  } else if (e.action === 'exported') {
    if (e.documentId !== null) return 'an export is about the whole chain, not one document (documentId must be null)';
  } else if (e.documentId === null) {
    return `a ${e.action as EvidenceAction} entry needs documentId`;
  }
  return null;
}

/**
 * The entry that follows `prev` (null: the first of the chain) with these facts. Throws when the
 * facts are malformed, so the service can never write an entry the verifier would refuse.
 */
export function nextEntry(prev: EvidenceEntry | null, facts: EvidenceFacts): EvidenceEntry {
  // Only the fields of an entry are taken, whatever else the caller's object carries.
  const picked = {
    action: facts.action,
    documentId: facts.documentId,
    title: facts.title,
    category: facts.category,
    fileName: facts.fileName,
    sha256: facts.sha256,
    size: facts.size,
    at: facts.at,
    actor: facts.actor && typeof facts.actor === 'object' ? { role: facts.actor.role, id: facts.actor.id ?? null } : facts.actor,
  };
  const problem = entryProblem(picked, false);
  if (problem) throw new TypeError(`evidence entry ${problem}`);
  const body = { sequence: prev ? prev.sequence + 1 : 1, ...picked, prevHash: prev ? prev.hash : ZERO_HASH };
  return { ...body, hash: entryHash(body) };
}

/** What the chain says about one document (manifest.ts builds the bundle's manifest from this). */
export interface ChainDocument {
  documentId: string;
  title: string;
  category: string;
  fileName: string;
  sha256: string;
  size: number;
  uploadedAt: string;
  uploadSequence: number;
  isKeyEvidence: boolean;
  deletedAt: string | null;
  deleteSequence: number | null;
}

/**
 * Checks a whole chain, first entry to last, and names the first entry that fails: malformed,
 * out of order / missing / duplicated (sequence), not linked to the entry before (prevHash), changed
 * after it was written (hash), or inconsistent with the documents before it (an action on a document
 * never uploaded or already deleted, a second upload of one id, a hash that differs from the upload's).
 */
export function verifyChain(entries: readonly unknown[]): ChainVerdict {
  const result = replayChain(entries);
  return result.ok ? { ok: true } : result;
}

/** verifyChain, and on success the documents the chain describes, in upload order. */
export function replayChain(entries: readonly unknown[]): { ok: true; documents: ChainDocument[] } | { ok: false; sequence: number; reason: string } {
  const documents = new Map<string, ChainDocument>();
  let prevHash = ZERO_HASH;
  for (const [index, raw] of entries.entries()) {
    const expected = index + 1;
    const problem = entryProblem(raw);
    if (problem) return { ok: false, sequence: sequenceOf(raw, expected), reason: `entry ${problem}` };
    const entry = raw as EvidenceEntry;
    if (entry.sequence !== expected) {
      return { ok: false, sequence: expected, reason: `expected entry ${expected} here but found entry ${entry.sequence}: entries are missing, duplicated or out of order` };
    }
    if (entry.prevHash !== prevHash) {
      return { ok: false, sequence: expected, reason: `prevHash does not match the hash of entry ${expected - 1}: the chain is broken here` };
    }
    if (entryHash(entry) !== entry.hash) {
      return { ok: false, sequence: expected, reason: 'hash does not match the entry: it was changed after it was written' };
    }
    const docProblem = applyToDocuments(documents, entry);
    if (docProblem) return { ok: false, sequence: expected, reason: docProblem };
    prevHash = entry.hash;
  }
  return { ok: true, documents: [...documents.values()] };
}

function sequenceOf(raw: unknown, fallback: number): number {
  const s = (raw as { sequence?: unknown } | null)?.sequence;
  return Number.isSafeInteger(s) ? (s as number) : fallback;
}

function applyToDocuments(documents: Map<string, ChainDocument>, e: EvidenceEntry): string | null {
  if (e.action === 'exported') return null;
  const id = e.documentId!;
  const doc = documents.get(id);
  if (e.action === 'uploaded') {
    if (doc) return `document ${id} was already uploaded in entry ${doc.uploadSequence}`;
    documents.set(id, {
      documentId: id, title: e.title!, category: e.category!, fileName: e.fileName!, sha256: e.sha256!, size: e.size!,
      uploadedAt: e.at, uploadSequence: e.sequence, isKeyEvidence: false, deletedAt: null, deleteSequence: null,
    });
    return null;
  }
  if (!doc) return `${e.action} names document ${id}, which no earlier entry uploaded`;
  if (doc.deleteSequence !== null) return `${e.action} names document ${id}, deleted in entry ${doc.deleteSequence}`;
  if (e.sha256 !== null && e.sha256 !== doc.sha256) return `sha256 differs from the one document ${id} was uploaded with (entry ${doc.uploadSequence})`;
  if (e.action === 'key-evidence-marked') doc.isKeyEvidence = true;
  else if (e.action === 'key-evidence-unmarked') doc.isKeyEvidence = false;
  else if (e.action === 'deleted') {
    doc.deletedAt = e.at;
    doc.deleteSequence = e.sequence;
  }
  return null;
}

/** The head of a chain: how many entries and the hash of the last (64 zeros when empty). */
export function chainHead(entries: readonly EvidenceEntry[]): { sequence: number; headHash: string } {
  const last = entries[entries.length - 1];
  return { sequence: entries.length, headHash: last ? last.hash : ZERO_HASH };
}
