import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { EvidencePublicKeys, SignedEvidenceHead } from '@lv/contracts';
import { canonicalHeadBytes, verifyHead } from './keys.js';
import { chainHead, replayChain, type EvidenceEntry } from './chain.js';
import { BUNDLE_FILES, buildManifest, bundleJson, headJson, keysJson, EVIDENCE_CHAIN_FORMAT, type EvidenceChainFile } from './manifest.js';
import { bundleReadme } from './readme.js';

/** A document's original: bytes, a stream, or a function that opens the stream when the ZIP reaches it. */
export type EvidenceFileContent = Uint8Array | Readable | (() => Readable | Promise<Readable>);

export interface EvidenceBundleInput {
  ownerId: string;
  /** The owner's whole chain, first entry to last, deleted documents included. */
  chain: readonly EvidenceEntry[];
  /** The head of exactly this chain, signed. */
  signedHead: SignedEvidenceHead;
  /** What EVIDENCE_KEYS_PATH publishes; the head must verify against it. */
  publicKeys: EvidencePublicKeys;
  /** The original of every document the chain says still exists (no more, no fewer). */
  documents: readonly { documentId: string; content: EvidenceFileContent }[];
  /** When the bundle is made: the ZIP's file times (the signed record's own times are in the chain and head). */
  generatedAt: string;
}

/** The bundle cannot be written: the input contradicts itself (a bug in the caller, never the owner's doing). */
export class EvidenceBundleError extends Error {
  override name = 'EvidenceBundleError';
}

// A ZIP without ZIP64 records ends at 4 GiB and 65,535 members; refuse rather than write a broken archive.
const ZIP32_LIMIT = 0xffff_ffff - 64 * 1024 * 1024;
const ZIP32_MEMBERS = 65_000;

/**
 * Writes an evidence bundle as a ZIP stream. Checks first (throwing EvidenceBundleError) that the
 * chain verifies, that the head is its head and verifies against `publicKeys`, and that `documents`
 * are exactly the chain's live documents. Then streams: one file at a time, originals stored as they
 * are (they are PDFs, images and Office files, already compressed), with the reader's backpressure
 * honoured, so memory stays flat whatever the number of files. A file whose bytes do not hash to what
 * the chain recorded destroys the stream with an EvidenceBundleError.
 */
export function writeEvidenceBundle(input: EvidenceBundleInput): Readable {
  const replay = replayChain(input.chain);
  if (!replay.ok) throw new EvidenceBundleError(`the chain does not verify at entry ${replay.sequence}: ${replay.reason}`);
  const head = chainHead(input.chain);
  const signed = input.signedHead;
  if (signed.ownerId !== input.ownerId) throw new EvidenceBundleError('the signed head belongs to another owner');
  if (signed.sequence !== head.sequence || signed.headHash !== head.headHash) {
    throw new EvidenceBundleError(`the signed head (entry ${signed.sequence}) is not the head of this chain (entry ${head.sequence})`);
  }
  const headCheck = verifyHead(signed, input.publicKeys);
  if (!headCheck.ok) throw new EvidenceBundleError(`the signed head does not verify against the published keys: ${headCheck.reason}`);

  const manifest = buildManifest({ ownerId: input.ownerId, head: signed, documents: replay.documents });
  const live = new Map(manifest.documents.filter((d) => d.status === 'present').map((d) => [d.documentId, d]));
  const given = new Map<string, EvidenceFileContent>();
  for (const doc of input.documents) {
    if (!live.has(doc.documentId)) throw new EvidenceBundleError(`document ${doc.documentId} is not a live document of the chain`);
    if (given.has(doc.documentId)) throw new EvidenceBundleError(`document ${doc.documentId} is given twice`);
    given.set(doc.documentId, doc.content);
  }
  const missing = [...live.keys()].filter((id) => !given.has(id));
  if (missing.length) throw new EvidenceBundleError(`the original of document(s) ${missing.join(', ')} is missing`);
  const total = manifest.documents.reduce((n, d) => n + (d.status === 'present' ? d.size : 0), 0);
  if (total > ZIP32_LIMIT || live.size > ZIP32_MEMBERS) throw new EvidenceBundleError('the documents exceed what one ZIP file can hold (4 GiB, 65,000 files)');

  const chainFile: EvidenceChainFile = { format: EVIDENCE_CHAIN_FORMAT, ownerId: input.ownerId, entries: [...input.chain] };
  const texts: [string, Uint8Array][] = [
    [BUNDLE_FILES.readme, Buffer.from(bundleReadme({ manifest, head: signed, signingKey: headCheck }))],
    [BUNDLE_FILES.manifest, Buffer.from(bundleJson(manifest))],
    [BUNDLE_FILES.chain, Buffer.from(bundleJson(chainFile))],
    [BUNDLE_FILES.head, Buffer.from(headJson(signed))],
    [BUNDLE_FILES.headBytes, canonicalHeadBytes(signed)],
    [BUNDLE_FILES.headSignature, Buffer.from(signed.signature, 'base64url')],
    [BUNDLE_FILES.signingKey, Buffer.from(headCheck.publicKeyPem)],
    [BUNDLE_FILES.keys, Buffer.from(keysJson(input.publicKeys))],
  ];

  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const mtime = new Date(input.generatedAt);
  const zip = new Zip((error, chunk, final) => {
    if (out.destroyed) return;
    if (error) out.destroy(error);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  // Waits while the reader is behind; gives up when it went away (a cancelled download).
  const drained = () => new Promise<void>((resolve, reject) => {
    if (out.destroyed) return reject(new EvidenceBundleError('the bundle stream was closed before it was complete'));
    if (!out.writableNeedDrain) return resolve();
    const onDrain = () => { out.off('close', onClose); resolve(); };
    const onClose = () => { out.off('drain', onDrain); reject(new EvidenceBundleError('the bundle stream was closed before it was complete')); };
    out.once('drain', onDrain);
    out.once('close', onClose);
  });

  const pump = async () => {
    for (const [name, bytes] of texts) {
      const file = new ZipDeflate(name, { level: 9 });
      file.mtime = mtime;
      zip.add(file);
      file.push(bytes, true);
      await drained();
    }
    for (const doc of manifest.documents) {
      if (doc.status !== 'present') continue;
      const file = new ZipPassThrough(doc.path!);
      file.mtime = mtime;
      zip.add(file);
      const hash = createHash('sha256');
      let size = 0;
      const content = given.get(doc.documentId)!;
      const source = content instanceof Uint8Array ? Readable.from([content]) : typeof content === 'function' ? await content() : content;
      try {
        for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          hash.update(bytes);
          size += bytes.length;
          if (size > doc.size) break;
          file.push(bytes, false);
          await drained();
        }
      } finally {
        source.destroy();
      }
      if (size !== doc.size || hash.digest('hex') !== doc.sha256) {
        throw new EvidenceBundleError(`the original of document ${doc.documentId} does not match its upload entry ${doc.uploadEntry} (size or SHA-256 differ)`);
      }
      file.push(new Uint8Array(0), true);
      await drained();
    }
    zip.end();
  };
  pump().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
