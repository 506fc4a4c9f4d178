import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { nextEntry, type EvidenceEntry, type EvidenceFacts } from '../chain.js';
import { generateEvidenceKey, loadEvidenceKeyRing, type EvidenceKeyRing } from '../keys.js';
import { writeEvidenceBundle } from '../bundle-writer.js';

export const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
export const OWNER = '6f1c1f6e-2b7a-4c39-9d0e-3f4a5b6c7d8e';

/** A PDF-looking and a PNG-looking file with random bodies (contents are never parsed here). */
export function sampleFiles() {
  return {
    pdf: Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(40_000)]),
    png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(3_000)]),
    txt: Buffer.from('14 March: he collected the children at 18:40, not 17:00 as agreed.\n'),
  };
}

export interface SampleRecord {
  ring: EvidenceKeyRing;
  privateKeyPem: string;
  chain: EvidenceEntry[];
  /** The originals of the documents still live, by id. */
  originals: Map<string, Buffer>;
  ids: { pdf: string; png: string; txt: string };
}

/**
 * An owner's record: three uploads (one with a non-ASCII title), a key-evidence mark, a family
 * member's view, a deletion and an export: every kind of entry.
 */
export function sampleRecord(): SampleRecord {
  const key = generateEvidenceKey(new Date('2026-01-01T00:00:00.000Z'));
  const ring = loadEvidenceKeyRing({ current: { pem: key.privateKeyPem, validFrom: key.createdAt } });
  const files = sampleFiles();
  const ids = { pdf: randomUUID(), png: randomUUID(), txt: randomUUID() };
  const owner = { role: 'owner' as const, id: null };
  const upload = (id: string, title: string, category: string, fileName: string, bytes: Buffer, at: string): EvidenceFacts => ({
    action: 'uploaded', documentId: id, title, category, fileName, sha256: sha(bytes), size: bytes.length, at, actor: owner,
  });
  const on = (action: EvidenceFacts['action'], id: string | null, at: string, actor: EvidenceFacts['actor'] = owner, sha256: string | null = null): EvidenceFacts => ({
    action, documentId: id, title: null, category: null, fileName: null, sha256, size: null, at, actor,
  });
  const facts: EvidenceFacts[] = [
    upload(ids.pdf, 'Custody order — Familiengericht München', 'Custody', 'Beschluss März 2026.pdf', files.pdf, '2026-03-01T09:00:00.000Z'),
    upload(ids.png, 'Bank transfer, child support March', 'Receipts or Payment Records', 'transfer.png', files.png, '2026-03-02T10:15:30.250Z'),
    on('key-evidence-marked', ids.pdf, '2026-03-02T11:00:00.000Z'),
    upload(ids.txt, 'Late pick-up, 14 March', 'Timeline of Events', 'pickup notes.txt', files.txt, '2026-03-14T20:00:00.000Z'),
    on('viewed', ids.png, '2026-03-15T08:00:00.000Z', { role: 'viewer', id: 'access-key-42' }, sha(files.png)),
    on('deleted', ids.txt, '2026-03-16T08:00:00.000Z', owner, sha(files.txt)),
    on('exported', null, '2026-03-20T12:00:00.000Z'),
  ];
  const chain: EvidenceEntry[] = [];
  for (const f of facts) chain.push(nextEntry(chain[chain.length - 1] ?? null, f));
  return { ring, privateKeyPem: key.privateKeyPem, chain, originals: new Map([[ids.pdf, files.pdf], [ids.png, files.png]]), ids };
}

export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The sample record as a bundle ZIP (its head signed at the export's time). */
export async function sampleBundle(record: SampleRecord = sampleRecord()): Promise<Buffer> {
  const last = record.chain[record.chain.length - 1]!;
  const signedHead = record.ring.sign({ ownerId: OWNER, sequence: record.chain.length, headHash: last.hash, signedAt: last.at });
  return collect(writeEvidenceBundle({
    ownerId: OWNER,
    chain: record.chain,
    signedHead,
    publicKeys: record.ring.publicKeys,
    documents: [...record.originals].map(([documentId, bytes]) => ({ documentId, content: () => Readable.from([bytes]) })),
    generatedAt: '2026-03-20T12:00:01.000Z',
  }));
}

/** The bundle's members, by name. */
export function members(zip: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(zip);
}

/** The same ZIP with one member changed (or removed, with `undefined`), rebuilt as an attacker would. */
export function rezip(zip: Uint8Array, change: (files: Record<string, Uint8Array>) => void): Buffer {
  const files = unzipSync(zip);
  change(files);
  const out: Zippable = {};
  for (const [name, bytes] of Object.entries(files)) if (bytes) out[name] = bytes;
  return Buffer.from(zipSync(out));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- specs poke at the parsed JSON like an attacker would
export function json(bytes: Uint8Array): any {
  return JSON.parse(Buffer.from(bytes).toString('utf8'));
}

export function pretty(value: unknown): Uint8Array {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
}

