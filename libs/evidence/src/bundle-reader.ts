import { readFile } from 'node:fs/promises';
import { createPublicKey } from 'node:crypto';
import { unzipSync } from 'fflate';
import { evidencePublicKeysSchema, signedEvidenceHeadSchema, type EvidencePublicKeys, type SignedEvidenceHead } from '@lv/contracts';
import { sha256Hex } from './canonical.js';
import { replayChain, type ChainDocument, type EvidenceEntry } from './chain.js';
import { canonicalHeadBytes, keyFingerprint, verifyHead } from './keys.js';
import { BUNDLE_FILES, BUNDLE_FILES_DIR, buildManifest, bundleJson, EVIDENCE_BUNDLE_FORMAT, EVIDENCE_BUNDLE_FORMATS, EVIDENCE_CHAIN_FORMAT, type EvidenceBundleFormat, headJson, keysJson, manifestDocuments, type ManifestDocument } from './manifest.js';
import { bundleReadme } from './readme.js';

/** Something that does not hold: `where` is "entry N", a file's path in the ZIP, "head" or "bundle". */
export interface BundleFailure {
  where: string;
  reason: string;
}

export interface VerifyBundleOptions {
  /** Keys to trust instead of the bundle's own keys.json (the keys published at EVIDENCE_KEYS_PATH, or one pinned key). */
  trustedKeys?: EvidencePublicKeys;
}

export interface BundleFileReport {
  path: string;
  documentId: string;
  sha256: string;
  size: number;
}

interface BundleFacts {
  ownerId: string | null;
  head: SignedEvidenceHead | null;
  /** The key the head's signature was checked against, and whether it came from the caller or the bundle. */
  key: { keyId: string; fingerprint: string; source: 'pinned' | 'bundle' } | null;
}

export type BundleVerdict =
  | (BundleFacts & { ok: true; entries: EvidenceEntry[]; files: BundleFileReport[]; deletedDocuments: number })
  | (BundleFacts & { ok: false; failures: BundleFailure[] });

// Far above any real member (documents are at most 10 MB), low enough that a ZIP bomb cannot exhaust memory.
const MEMBER_MAX_BYTES = 512 * 1024 * 1024;
const FIXED = new Set<string>(Object.values(BUNDLE_FILES));
// files/<name> (v1) or files/<card>/<name> (v2): one folder level at most, no dot-led card folder.
const SAFE_MEMBER = /^files\/(?:[a-z0-9][a-z0-9-]*\/)?[A-Za-z0-9._-]+$/;

/** Pins one public key (PEM) as the only trusted evidence key, whatever its validity window. */
export function pinnedKeys(publicKeyPem: string): EvidencePublicKeys {
  const fingerprint = keyFingerprint(createPublicKey(publicKeyPem));
  const pem = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  return { keys: [{ keyId: fingerprint.slice(0, 16), algorithm: 'Ed25519', publicKeyPem: pem, validFrom: '1970-01-01T00:00:00.000Z', validUntil: null }] };
}

/**
 * Verifies an evidence bundle (the ZIP's bytes, or its path) without any service: every file against
 * the chain, the chain entry by entry, the manifest against the chain, the head against the chain
 * (a shorter chain is truncated; another last hash means it was rebuilt) and the head's signature
 * against `trustedKeys`, or, without them, against the keys the bundle carries (report.key.source
 * says which). Reports every failure found, not just the first.
 */
export async function verifyEvidenceBundle(input: Uint8Array | string, options: VerifyBundleOptions = {}): Promise<BundleVerdict> {
  const bytes = typeof input === 'string' ? new Uint8Array(await readFile(input)) : input;
  const failures: BundleFailure[] = [];
  const facts: BundleFacts = { ownerId: null, head: null, key: null };
  const fail = (where: string, reason: string) => failures.push({ where, reason });
  const done = (): BundleVerdict => ({ ...facts, ok: false, failures });

  // 1. The archive: each name once, nothing outside the layout, nothing compressed oddly or huge.
  const seen = new Set<string>();
  const members = new Set<string>();
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (info) => {
        if (info.name.endsWith('/')) return false;
        if (seen.has(info.name)) fail(info.name, 'appears twice in the ZIP: a reader could be shown either copy');
        seen.add(info.name);
        if (!FIXED.has(info.name) && !SAFE_MEMBER.test(info.name)) {
          fail(info.name, 'unexpected file: not part of an evidence bundle');
          return false;
        }
        if (info.compression !== 0 && info.compression !== 8) {
          fail(info.name, `uses ZIP compression method ${info.compression}, which a bundle never does`);
          return false;
        }
        if (info.originalSize > MEMBER_MAX_BYTES) {
          fail(info.name, `claims ${info.originalSize} bytes, more than any evidence file`);
          return false;
        }
        members.add(info.name);
        return true;
      },
    });
  } catch (error) {
    fail('bundle', `not a readable ZIP file (${(error as Error).message})`);
    return done();
  }
  // A member by name (never an Object.prototype property such as "constructor").
  const member = (name: string): Uint8Array | undefined => (Object.hasOwn(files, name) ? files[name] : undefined);
  const text = (name: string) => { const m = member(name); return m ? Buffer.from(m).toString('utf8') : null; };
  for (const name of FIXED) if (!members.has(name)) fail(name, 'missing from the bundle');

  // 2. The chain, entry by entry.
  let entries: unknown[] | null = null;
  let chainDocs: ChainDocument[] | null = null;
  const chainText = text(BUNDLE_FILES.chain);
  if (chainText !== null) {
    const chain = parseJson(chainText) as { format?: unknown; ownerId?: unknown; entries?: unknown } | undefined;
    if (!chain || typeof chain !== 'object' || chain.format !== EVIDENCE_CHAIN_FORMAT || !Array.isArray(chain.entries)) {
      fail(BUNDLE_FILES.chain, `is not an evidence chain (${EVIDENCE_CHAIN_FORMAT})`);
    } else {
      entries = chain.entries as unknown[];
      facts.ownerId = typeof chain.ownerId === 'string' ? chain.ownerId : null;
      const replay = replayChain(entries);
      if (replay.ok) chainDocs = replay.documents;
      else fail(`entry ${replay.sequence}`, replay.reason);
      if (chainText !== bundleJson({ format: chain.format, ownerId: chain.ownerId, entries: chain.entries })) fail(BUNDLE_FILES.chain, EDITED);
    }
  }

  // 3. The head: well formed, its raw files agree with it, signed by a trusted key, and the head of this chain.
  const headText = text(BUNDLE_FILES.head);
  const parsedHead = headText === null ? null : signedEvidenceHeadSchema.safeParse(parseJson(headText));
  if (parsedHead && !parsedHead.success) fail(BUNDLE_FILES.head, 'is not a signed evidence head');
  const head = parsedHead?.success ? parsedHead.data : null;
  if (head && headText !== headJson(head)) fail(BUNDLE_FILES.head, EDITED);
  facts.head = head;
  let bundleKeys: EvidencePublicKeys | null = null;
  let signingKey: { keyId: string; fingerprint: string; publicKeyPem: string } | null = null;
  const keysText = text(BUNDLE_FILES.keys);
  if (keysText !== null) {
    const parsed = evidencePublicKeysSchema.safeParse(parseJson(keysText));
    if (parsed.success) {
      bundleKeys = parsed.data;
      if (keysText !== keysJson(bundleKeys)) fail(BUNDLE_FILES.keys, EDITED);
    } else fail(BUNDLE_FILES.keys, 'is not a list of evidence public keys');
  }
  if (head) {
    if (facts.ownerId !== null && head.ownerId !== facts.ownerId) fail('head', `signed for owner ${head.ownerId}, but the chain is owner ${facts.ownerId}'s`);
    facts.ownerId ??= head.ownerId;
    const trusted = options.trustedKeys ?? bundleKeys;
    if (trusted) {
      const verdict = verifyHead(head, trusted);
      if (verdict.ok) {
        facts.key = { keyId: verdict.keyId, fingerprint: verdict.fingerprint, source: options.trustedKeys ? 'pinned' : 'bundle' };
        signingKey = verdict;
        const pem = text(BUNDLE_FILES.signingKey);
        if (pem !== null && !sameKey(pem, verdict.fingerprint)) fail(BUNDLE_FILES.signingKey, `is not the key that signed the head (${verdict.keyId})`);
        else if (pem !== null && pem !== verdict.publicKeyPem) fail(BUNDLE_FILES.signingKey, EDITED);
      } else {
        fail('head', verdict.reason);
      }
    }
    const headBin = member(BUNDLE_FILES.headBytes);
    if (headBin && !Buffer.from(headBin).equals(canonicalHeadBytes(head))) fail(BUNDLE_FILES.headBytes, `is not the canonical form of ${BUNDLE_FILES.head}`);
    const headSig = member(BUNDLE_FILES.headSignature);
    if (headSig && !Buffer.from(headSig).equals(Buffer.from(head.signature, 'base64url'))) fail(BUNDLE_FILES.headSignature, `is not the signature in ${BUNDLE_FILES.head}`);
    if (entries) {
      if (entries.length < head.sequence) {
        fail(`entry ${entries.length + 1}`, `missing: the signed head covers ${head.sequence} entries but the chain has only ${entries.length} (it was cut short)`);
      } else if (entries.length > head.sequence) {
        fail(`entry ${head.sequence + 1}`, `not covered by the signed head, which ends at entry ${head.sequence}`);
      } else {
        const last = entries[entries.length - 1] as { hash?: unknown } | undefined;
        const lastHash = last ? last.hash : '0'.repeat(64);
        if (lastHash !== head.headHash) {
          fail('head', `the signed headHash ${head.headHash} is not the hash of entry ${entries.length} (${String(lastHash)}): the chain was changed or rebuilt after it was signed`);
        }
      }
    }
  }

  // 4. The manifest says what the chain says.
  const manifestText = text(BUNDLE_FILES.manifest);
  let manifestDocs: ManifestDocument[] | null = null;
  // A bundle is checked in the layout of its own format (one exported before the cards is flat).
  let format: EvidenceBundleFormat = EVIDENCE_BUNDLE_FORMAT;
  if (manifestText !== null) {
    const manifest = parseJson(manifestText) as Record<string, unknown> | undefined;
    const known = EVIDENCE_BUNDLE_FORMATS.find((f) => f === manifest?.format);
    if (!manifest || typeof manifest !== 'object' || !known || !Array.isArray(manifest.documents)) {
      fail(BUNDLE_FILES.manifest, `is not a bundle manifest (${EVIDENCE_BUNDLE_FORMATS.join(' or ')})`);
    } else {
      format = known;
      manifestDocs = manifest.documents as ManifestDocument[];
      if (facts.ownerId !== null && manifest.ownerId !== facts.ownerId) fail(BUNDLE_FILES.manifest, `ownerId says ${String(manifest.ownerId)}, the chain ${facts.ownerId}`);
      if (head) {
        const h = manifest.head as Record<string, unknown> | undefined;
        for (const k of ['sequence', 'headHash', 'keyId', 'signedAt'] as const) {
          if (h?.[k] !== head[k]) fail(BUNDLE_FILES.manifest, `head.${k} says ${JSON.stringify(h?.[k])}, the signed head ${JSON.stringify(head[k])}`);
        }
      }
      if (entries && manifest.entries !== entries.length) fail(BUNDLE_FILES.manifest, `entries says ${JSON.stringify(manifest.entries)}, the chain has ${entries.length}`);
      if (chainDocs) {
        const before = failures.length;
        compareManifest(manifestDocs, manifestDocuments(chainDocs, format), fail);
        if (head && facts.ownerId !== null) {
          const derived = buildManifest({ ownerId: facts.ownerId, head, documents: chainDocs, format });
          if (failures.length === before && manifestText !== bundleJson(derived)) fail(BUNDLE_FILES.manifest, `${EDITED}: it is not the manifest the chain gives`);
          // The README a court reads must be the one the vault wrote: same facts, same key, same fingerprint.
          const readme = text(BUNDLE_FILES.readme);
          if (signingKey && readme !== null && readme !== bundleReadme({ manifest: derived, head, signingKey })) {
            fail(BUNDLE_FILES.readme, 'differs from the README the vault writes for this record and key: it was edited');
          }
        }
      }
    }
  }

  // 5. Every original the chain says exists is there, byte for byte; nothing else is.
  const expected = chainDocs ? manifestDocuments(chainDocs, format) : (manifestDocs ?? []).filter((d) => d && typeof d === 'object');
  const reports: BundleFileReport[] = [];
  const expectedPaths = new Set<string>();
  for (const doc of expected) {
    if (doc.status !== 'present' || typeof doc.path !== 'string') continue;
    expectedPaths.add(doc.path);
    const body = member(doc.path);
    if (!body) {
      if (!seen.has(doc.path)) fail(doc.path, `missing: document ${doc.documentId} (uploaded in entry ${doc.uploadEntry}) was not deleted, so its original belongs here`);
      continue;
    }
    const sha256 = sha256Hex(body);
    if (sha256 !== doc.sha256) fail(doc.path, `SHA-256 is ${sha256}, but entry ${doc.uploadEntry} recorded ${doc.sha256}: the file was changed`);
    else if (body.length !== doc.size) fail(doc.path, `is ${body.length} bytes, but entry ${doc.uploadEntry} recorded ${doc.size}`);
    else reports.push({ path: doc.path, documentId: doc.documentId, sha256, size: body.length });
  }
  for (const name of members) {
    if (name.startsWith(BUNDLE_FILES_DIR) && !expectedPaths.has(name)) fail(name, 'unexpected file: no live document of the chain is stored here');
  }

  if (failures.length || !entries || !chainDocs || !head || !facts.key) {
    if (!failures.length) fail('bundle', 'incomplete: the chain, the head or the keys could not be checked');
    return done();
  }
  return {
    ...facts,
    ok: true,
    entries: entries as EvidenceEntry[],
    files: reports,
    deletedDocuments: chainDocs.filter((d) => d.deleteSequence !== null).length,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sameKey(pem: string, fingerprint: string): boolean {
  try {
    return keyFingerprint(createPublicKey(pem)) === fingerprint;
  } catch {
    return false;
  }
}

const EDITED = 'is not byte for byte what the vault wrote (its content or layout was edited)';
const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

function compareManifest(actual: ManifestDocument[], expected: ManifestDocument[], fail: (where: string, reason: string) => void): void {
  const byId = new Map<string, ManifestDocument>();
  for (const doc of actual) {
    const id = doc && typeof doc === 'object' ? doc.documentId : undefined;
    if (typeof id !== 'string' || byId.has(id)) {
      fail(BUNDLE_FILES.manifest, `lists a document ${typeof id === 'string' ? `${id} twice` : 'without a documentId'}`);
      continue;
    }
    byId.set(id, doc);
  }
  for (const want of expected) {
    const got = byId.get(want.documentId);
    const where = `${BUNDLE_FILES.manifest} (document ${want.documentId})`;
    if (!got) {
      fail(where, `missing: entry ${want.uploadEntry} of the chain uploaded it`);
      continue;
    }
    byId.delete(want.documentId);
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const w = (want as unknown as Record<string, unknown>)[key];
      const g = (got as unknown as Record<string, unknown>)[key];
      if (JSON.stringify(w) !== JSON.stringify(g)) fail(where, `${key} says ${show(g)}, but the chain (entry ${want.uploadEntry}${want.deleteEntry ? ` and ${want.deleteEntry}` : ''}) says ${show(w)}`);
    }
  }
  for (const id of byId.keys()) fail(`${BUNDLE_FILES.manifest} (document ${id})`, 'not in the chain: no entry uploaded it');
}
