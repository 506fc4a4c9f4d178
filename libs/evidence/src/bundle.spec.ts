import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Zip, ZipPassThrough } from 'fflate';
import { EVIDENCE_KEYS_PATH, VERIFY_EVIDENCE_COMMAND } from '@lv/contracts';
import { entryHash, nextEntry, type EvidenceEntry, replayChain } from './chain.js';
import { canonicalHeadBytes, generateEvidenceKey, keyFingerprint, loadEvidenceKeyRing } from './keys.js';
import { buildManifest, bundleJson } from './manifest.js';
import { bundleReadme } from './readme.js';
import { EvidenceBundleError, writeEvidenceBundle } from './bundle-writer.js';
import { pinnedKeys, verifyEvidenceBundle, type BundleVerdict } from './bundle-reader.js';
import { collect, json, members, OWNER, pretty, rezip, sampleBundle, sampleRecord, type SampleRecord } from './test-support/fixtures.js';

function failuresOf(verdict: BundleVerdict) {
  if (verdict.ok) throw new Error('expected the bundle to fail verification, but it verified');
  return verdict.failures;
}

/** Rebuilds chain.json's entries from `from` on (hashes and links), as a forger without the key would. */
function forge(entries: EvidenceEntry[], from: number): EvidenceEntry[] {
  const out = entries.map((e) => ({ ...e }));
  for (let i = from; i < out.length; i++) {
    out[i]!.prevHash = i === 0 ? '0'.repeat(64) : out[i - 1]!.hash;
    out[i]!.hash = entryHash(out[i]!);
  }
  return out;
}

describe('evidence bundle', () => {
  let record: SampleRecord;
  let zip: Buffer;
  beforeAll(async () => {
    record = sampleRecord();
    zip = await sampleBundle(record);
  });

  it('holds the originals, manifest, chain, signed head and keys, and verifies', async () => {
    const files = members(zip);
    expect(Object.keys(files).sort()).toEqual([
      'README.txt', 'chain.json', 'files/legal-notices-or-orders/1-Beschluss_Marz_2026.pdf', 'files/receipts-or-payment-records/2-transfer.png', 'head.bin', 'head.json', 'head.sig', 'key.pem', 'keys.json', 'manifest.json',
    ]);
    expect(Buffer.from(files['files/legal-notices-or-orders/1-Beschluss_Marz_2026.pdf']!).equals(record.originals.get(record.ids.pdf)!)).toBe(true);
    const manifest = json(files['manifest.json']!);
    // Grouped by Court Journal card, in the journal's order; an old category ("Custody") counts on its card.
    expect(manifest.format).toBe('legacy-vault/evidence-bundle/v2');
    expect(manifest.documents.map((d: { title: string; category: string; card: string; status: string; isKeyEvidence: boolean }) => [d.title, d.category, d.card, d.status, d.isKeyEvidence])).toEqual([
      ['Bank transfer, child support March', 'Receipts or Payment Records', 'Receipts or Payment Records', 'present', false],
      ['Late pick-up, 14 March', 'Timeline of Events', 'Timeline of Events', 'deleted', false],
      ['Custody order — Familiengericht München', 'Custody', 'Legal Notices or Orders', 'present', true],
    ]);
    // The deleted document keeps its fingerprint, not its content.
    expect(manifest.documents[1]).toMatchObject({ sha256: record.chain[3]!.sha256, path: null, deleteEntry: 6 });
    expect(Buffer.from(zip).includes(Buffer.from('14 March: he collected'))).toBe(false);
    expect(json(files['chain.json']!).entries).toEqual(record.chain);

    const verdict = await verifyEvidenceBundle(zip);
    expect(verdict).toMatchObject({ ok: true, ownerId: OWNER, deletedDocuments: 1, key: { keyId: record.ring.keyId, source: 'bundle' } });
    if (!verdict.ok) return;
    expect(verdict.entries).toHaveLength(7);
    expect(verdict.files.map((f) => f.path)).toEqual(['files/receipts-or-payment-records/2-transfer.png', 'files/legal-notices-or-orders/1-Beschluss_Marz_2026.pdf']);
    expect(verdict.head).toMatchObject({ sequence: 7, headHash: record.chain[6]!.hash });
  });

  it('prints the public key, its fingerprint, the published path and both ways to verify in the README', () => {
    const readme = Buffer.from(members(zip)['README.txt']!).toString('utf8');
    const pem = record.ring.publicKeys.keys[0]!.publicKeyPem;
    for (const line of pem.trim().split('\n')) expect(readme).toContain(`  ${line}`);
    expect(readme).toContain(keyFingerprint(pem));
    expect(readme).toContain(EVIDENCE_KEYS_PATH);
    expect(readme).toContain(VERIFY_EVIDENCE_COMMAND);
    expect(readme).toContain('openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in head.bin -sigfile head.sig');
    expect(readme).toContain('sha256sum');
    expect(readme).toContain('Present, by card:\n  Receipts or Payment Records: 1\n  Legal Notices or Orders: 1\n');
    expect(readme).toContain('files/<card>/<entry>-<name>');
  });

  it('still verifies a bundle exported before the cards (v1, one flat folder), and refuses it with a file moved', async () => {
    const v2 = json(members(zip)['manifest.json']!);
    const replay = replayChain(record.chain);
    if (!replay.ok) throw new Error('sample chain does not verify');
    const head = json(members(zip)['head.json']!);
    const v1 = buildManifest({ ownerId: OWNER, head, documents: replay.documents, format: 'legacy-vault/evidence-bundle/v1' });
    expect(v1.documents.map((d) => d.path)).toEqual(['files/1-Beschluss_Marz_2026.pdf', 'files/2-transfer.png', null]);
    expect(v1.documents.some((d) => 'card' in d)).toBe(false);
    const signingKey = { keyId: record.ring.keyId, fingerprint: keyFingerprint(record.ring.publicKeys.keys[0]!.publicKeyPem), publicKeyPem: record.ring.publicKeys.keys[0]!.publicKeyPem };
    const old = rezip(zip, (f) => {
      for (const d of v2.documents as { path: string | null }[]) if (d.path) delete f[d.path];
      f['files/1-Beschluss_Marz_2026.pdf'] = record.originals.get(record.ids.pdf)!;
      f['files/2-transfer.png'] = record.originals.get(record.ids.png)!;
      f['manifest.json'] = Buffer.from(bundleJson(v1));
      f['README.txt'] = Buffer.from(bundleReadme({ manifest: v1, head, signingKey }));
    });
    expect(await verifyEvidenceBundle(old)).toMatchObject({ ok: true, files: [{ path: 'files/1-Beschluss_Marz_2026.pdf' }, { path: 'files/2-transfer.png' }] });
    const moved = rezip(old, (f) => {
      f['files/x/2-transfer.png'] = f['files/2-transfer.png']!;
      delete f['files/2-transfer.png'];
    });
    expect(failuresOf(await verifyEvidenceBundle(moved)).map((x) => x.where).sort()).toEqual(['files/2-transfer.png', 'files/x/2-transfer.png']);
  });

  it('can be checked by hand with unzip, sha256sum, jq and openssl, exactly as its README says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-bundle-'));
    try {
      writeFileSync(join(dir, 'bundle.zip'), zip);
      const sh = (cmd: string) => execSync(cmd, { cwd: join(dir, 'x'), shell: '/bin/bash', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      // unzip -t checks every member's CRC: the streamed ZIP is a well-formed archive.
      expect(execFileSync('unzip', ['-t', 'bundle.zip'], { cwd: dir, encoding: 'utf8' })).toMatch(/No errors detected/);
      execFileSync('unzip', ['-q', 'bundle.zip', '-d', 'x'], { cwd: dir });
      const readme = readFileSync(join(dir, 'x', 'README.txt'), 'utf8');
      const commands = [
        'openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in head.bin -sigfile head.sig',
        'openssl pkey -pubin -in key.pem -outform DER | sha256sum',
        `jq -cjS '{format:"legacy-vault/evidence-head/v1",headHash,keyId,ownerId,sequence,signedAt}' head.json | cmp - head.bin`,
        `jq -r '.documents[] | select(.status=="present") | "\\(.sha256)  \\(.path)"' manifest.json | sha256sum -c -`,
      ];
      for (const command of commands) expect(readme).toContain(command);
      expect(sh(commands[0]!)).toMatch(/Signature Verified Successfully/);
      expect(sh(commands[1]!)).toContain(keyFingerprint(record.ring.publicKeys.keys[0]!.publicKeyPem));
      sh(commands[2]!);
      expect(sh(commands[3]!)).toMatch(/receipts-or-payment-records\/2-transfer.png: OK\nfiles\/legal-notices-or-orders\/1-Beschluss_Marz_2026.pdf: OK/);
      expect(readme).toContain(`jq -cjS '.entries[N-1] | del(.hash)' chain.json | sha256sum`);
      for (const entry of record.chain) {
        expect(sh(`jq -cjS '.entries[${entry.sequence - 1}] | del(.hash)' chain.json | sha256sum`).slice(0, 64)).toBe(entry.hash);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a file with one flipped byte', async () => {
    for (const path of ['files/legal-notices-or-orders/1-Beschluss_Marz_2026.pdf', 'files/receipts-or-payment-records/2-transfer.png']) {
      for (const at of [0, 1000, -1]) {
        const tampered = rezip(zip, (f) => {
          const copy = Buffer.from(f[path]!);
          copy[at < 0 ? copy.length + at : at]! ^= 0x01;
          f[path] = copy;
        });
        expect(failuresOf(await verifyEvidenceBundle(tampered))).toEqual([{ where: path, reason: expect.stringMatching(/SHA-256 is [0-9a-f]{64}, but entry \d recorded/) }]);
      }
    }
  });

  it('detects one flipped byte anywhere in the record files', async () => {
    const files = members(zip);
    for (const name of ['README.txt', 'manifest.json', 'chain.json', 'head.json', 'head.bin', 'head.sig', 'key.pem']) {
      const size = files[name]!.length;
      for (const at of [0, 1, Math.floor(size / 3), Math.floor(size / 2), size - 2, size - 1]) {
        const tampered = rezip(zip, (f) => {
          const copy = Buffer.from(f[name]!);
          copy[at]! ^= 0x01;
          f[name] = copy;
        });
        const failures = failuresOf(await verifyEvidenceBundle(tampered));
        expect(failures.length).toBeGreaterThan(0);
      }
    }
    // keys.json is the anchor the bundle ships (trust comes from pinning the published keys), yet a
    // flip in the signing key's id or key material still fails.
    const keysText = Buffer.from(files['keys.json']!).toString('utf8');
    for (const at of [keysText.indexOf(record.ring.keyId) + 3, keysText.indexOf('MCow') + 20]) {
      const tampered = rezip(zip, (f) => {
        const copy = Buffer.from(f['keys.json']!);
        copy[at]! ^= 0x01;
        f['keys.json'] = copy;
      });
      expect(failuresOf(await verifyEvidenceBundle(tampered)).map((x) => x.where)).toContain('head');
    }
  });

  it('names the document and field of an edited manifest line', async () => {
    const tampered = rezip(zip, (f) => {
      const manifest = json(f['manifest.json']!);
      // By card: the receipt first, the deleted pick-up note, then the order.
      manifest.documents[0].title = 'Bank transfer, child support March and April';
      manifest.documents[2].isKeyEvidence = false;
      f['manifest.json'] = pretty(manifest);
    });
    expect(failuresOf(await verifyEvidenceBundle(tampered))).toEqual([
      { where: `manifest.json (document ${record.ids.png})`, reason: 'title says "Bank transfer, child support March and April", but the chain (entry 2) says "Bank transfer, child support March"' },
      { where: `manifest.json (document ${record.ids.pdf})`, reason: 'isKeyEvidence says false, but the chain (entry 1) says true' },
    ]);
    const hidden = rezip(zip, (f) => {
      const manifest = json(f['manifest.json']!);
      manifest.documents.splice(1, 1);
      f['manifest.json'] = pretty(manifest);
    });
    expect(failuresOf(await verifyEvidenceBundle(hidden))).toEqual([{ where: `manifest.json (document ${record.ids.txt})`, reason: 'missing: entry 4 of the chain uploaded it' }]);
    const noted = rezip(zip, (f) => f['manifest.json'] = pretty({ ...json(f['manifest.json']!), note: 'reviewed' }));
    expect(failuresOf(await verifyEvidenceBundle(noted))).toEqual([{ where: 'manifest.json', reason: expect.stringMatching(/not the manifest the chain gives/) }]);
    // The same for the other JSON files: a field the signature does not cover is an edit too.
    for (const name of ['chain.json', 'head.json', 'keys.json']) {
      const extra = rezip(zip, (f) => f[name] = pretty({ ...json(f[name]!), note: 'reviewed' }));
      expect(failuresOf(await verifyEvidenceBundle(extra))).toEqual([{ where: name, reason: expect.stringMatching(/not byte for byte what the vault wrote/) }]);
    }
  });

  it('names two swapped entries', async () => {
    const tampered = rezip(zip, (f) => {
      const chain = json(f['chain.json']!);
      [chain.entries[2], chain.entries[3]] = [chain.entries[3], chain.entries[2]];
      f['chain.json'] = pretty(chain);
    });
    expect(failuresOf(await verifyEvidenceBundle(tampered))).toEqual([{ where: 'entry 3', reason: expect.stringMatching(/expected entry 3 here but found entry 4/) }]);
  });

  it('refuses a chain rebuilt after an edit: the signed head no longer matches', async () => {
    const edited = record.chain.map((e) => ({ ...e }));
    edited[1]!.title = 'Bank transfer, child support March and April';
    const forged = forge(edited, 1);
    const replay = replayChain(forged);
    if (!replay.ok) throw new Error(replay.reason);
    // A careful forger: chain, manifest, README and the head's hash all redone; only the signature cannot be.
    const original = json(members(zip)['head.json']!);
    const head = { ...original, headHash: forged[6]!.hash };
    const manifest = buildManifest({ ownerId: OWNER, head, documents: replay.documents });
    const signingKey = { keyId: record.ring.keyId, fingerprint: keyFingerprint(record.ring.publicKeys.keys[0]!.publicKeyPem), publicKeyPem: record.ring.publicKeys.keys[0]!.publicKeyPem };
    const tampered = rezip(zip, (f) => {
      f['chain.json'] = pretty({ ...json(f['chain.json']!), entries: forged });
      f['head.json'] = pretty(head);
      f['head.bin'] = canonicalHeadBytes(head);
      f['manifest.json'] = Buffer.from(bundleJson(manifest));
      f['README.txt'] = Buffer.from(bundleReadme({ manifest, head, signingKey }));
    });
    expect(failuresOf(await verifyEvidenceBundle(tampered))).toEqual([{ where: 'head', reason: expect.stringMatching(/signature does not match the head/) }]);
    // A lazier one leaves the head alone: its hash is not the chain's last.
    const lazy = rezip(zip, (f) => f['chain.json'] = pretty({ ...json(f['chain.json']!), entries: forged }));
    expect(failuresOf(await verifyEvidenceBundle(lazy))).toContainEqual({ where: 'head', reason: expect.stringMatching(/not the hash of entry 7.*rebuilt after it was signed/) });
  });

  it('accepts a bundle re-signed with another key only when the key is not pinned, and says which key it trusted', async () => {
    const edited = record.chain.map((e) => ({ ...e }));
    edited[1]!.title = 'Forged title';
    const forged = forge(edited, 1);
    const impostor = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const documents = [...record.originals].map(([documentId, content]) => ({ documentId, content }));
    const last = forged[6]!;
    const resigned = await collect(writeEvidenceBundle({
      ownerId: OWNER, chain: forged, signedHead: impostor.sign({ ownerId: OWNER, sequence: 7, headHash: last.hash, signedAt: last.at }),
      publicKeys: impostor.publicKeys, documents, generatedAt: '2026-03-21T00:00:00.000Z',
    }));
    const unpinned = await verifyEvidenceBundle(resigned);
    expect(unpinned).toMatchObject({ ok: true, key: { keyId: impostor.keyId, source: 'bundle' } });
    const pinned = await verifyEvidenceBundle(resigned, { trustedKeys: record.ring.publicKeys });
    expect(failuresOf(pinned)).toEqual([{ where: 'head', reason: expect.stringMatching(new RegExp(`signed by key ${impostor.keyId}, which is not among the trusted keys \\(${record.ring.keyId}\\)`)) }]);
    const pinnedPem = await verifyEvidenceBundle(resigned, { trustedKeys: pinnedKeys(record.ring.publicKeys.keys[0]!.publicKeyPem) });
    expect(pinnedPem.ok).toBe(false);
    // And the genuine bundle against the pinned vault key.
    expect(await verifyEvidenceBundle(zip, { trustedKeys: pinnedKeys(record.ring.publicKeys.keys[0]!.publicKeyPem) })).toMatchObject({ ok: true, key: { source: 'pinned' } });
  });

  it('names the first missing entry of a truncated chain', async () => {
    const tampered = rezip(zip, (f) => {
      const chain = json(f['chain.json']!);
      chain.entries = chain.entries.slice(0, 5);
      f['chain.json'] = pretty(chain);
    });
    const failures = failuresOf(await verifyEvidenceBundle(tampered));
    expect(failures).toContainEqual({ where: 'entry 6', reason: 'missing: the signed head covers 7 entries but the chain has only 5 (it was cut short)' });
  });

  it('names a missing file and an unexpected one', async () => {
    const missing = rezip(zip, (f) => delete f['files/receipts-or-payment-records/2-transfer.png']);
    expect(failuresOf(await verifyEvidenceBundle(missing))).toEqual([{ where: 'files/receipts-or-payment-records/2-transfer.png', reason: expect.stringMatching(/^missing: document .* was not deleted/) }]);
    const extra = rezip(zip, (f) => {
      f['files/9-planted.pdf'] = Buffer.from('%PDF-1.7 planted');
      f['notes/readme.md'] = Buffer.from('hello');
    });
    expect(failuresOf(await verifyEvidenceBundle(extra)).sort((a, b) => a.where.localeCompare(b.where))).toEqual([
      { where: 'files/9-planted.pdf', reason: expect.stringMatching(/unexpected file/) },
      { where: 'notes/readme.md', reason: expect.stringMatching(/unexpected file/) },
    ]);
    const gone = rezip(zip, (f) => delete f['head.sig']);
    expect(failuresOf(await verifyEvidenceBundle(gone))).toEqual([{ where: 'head.sig', reason: 'missing from the bundle' }]);
    expect(failuresOf(await verifyEvidenceBundle(Buffer.from('not a zip at all')))).toEqual([{ where: 'bundle', reason: expect.stringMatching(/not a readable ZIP/) }]);
  });

  it('names a member stored twice (a ZIP tool would show either copy)', async () => {
    const files = members(zip);
    const parts: Uint8Array[] = [];
    const twice = new Zip((error, chunk) => {
      if (error) throw error;
      parts.push(chunk);
    });
    const add = (name: string, bytes: Uint8Array) => {
      const file = new ZipPassThrough(name);
      twice.add(file);
      file.push(bytes, true);
    };
    for (const [name, bytes] of Object.entries(files)) add(name, bytes);
    add('files/receipts-or-payment-records/2-transfer.png', Buffer.from('a different picture'));
    twice.end();
    const failures = failuresOf(await verifyEvidenceBundle(Buffer.concat(parts)));
    expect(failures).toContainEqual({ where: 'files/receipts-or-payment-records/2-transfer.png', reason: expect.stringMatching(/appears twice/) });
  });

  it('writes and verifies the bundle of an empty record', async () => {
    const ring = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const signedHead = ring.sign({ ownerId: OWNER, sequence: 0, headHash: '0'.repeat(64), signedAt: '2026-03-21T00:00:00.000Z' });
    const empty = await collect(writeEvidenceBundle({ ownerId: OWNER, chain: [], signedHead, publicKeys: ring.publicKeys, documents: [], generatedAt: '2026-03-21T00:00:00.000Z' }));
    expect(await verifyEvidenceBundle(empty)).toMatchObject({ ok: true, entries: [], files: [], deletedDocuments: 0 });
  });

  it('refuses to write a bundle that would not verify', () => {
    const last = record.chain[6]!;
    const signedHead = record.ring.sign({ ownerId: OWNER, sequence: 7, headHash: last.hash, signedAt: last.at });
    const documents = [...record.originals].map(([documentId, content]) => ({ documentId, content }));
    const base = { ownerId: OWNER, chain: record.chain, signedHead, publicKeys: record.ring.publicKeys, documents, generatedAt: '2026-03-21T00:00:00.000Z' };
    expect(() => writeEvidenceBundle({ ...base, documents: documents.slice(1) })).toThrow(/original of document.* is missing/);
    expect(() => writeEvidenceBundle({ ...base, documents: [...documents, { documentId: record.ids.txt, content: Buffer.from('x') }] })).toThrow(/not a live document/);
    expect(() => writeEvidenceBundle({ ...base, chain: record.chain.slice(0, 6) })).toThrow(/not the head of this chain/);
    expect(() => writeEvidenceBundle({ ...base, publicKeys: loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem }).publicKeys })).toThrow(/does not verify against the published keys/);
    const swapped = [...record.chain];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    expect(() => writeEvidenceBundle({ ...base, chain: swapped })).toThrow(EvidenceBundleError);
  });

  it('fails the stream when an original does not match its upload entry', async () => {
    const last = record.chain[6]!;
    const signedHead = record.ring.sign({ ownerId: OWNER, sequence: 7, headHash: last.hash, signedAt: last.at });
    const wrong = Buffer.from(record.originals.get(record.ids.png)!);
    wrong[5]! ^= 0x01;
    const stream = writeEvidenceBundle({
      ownerId: OWNER, chain: record.chain, signedHead, publicKeys: record.ring.publicKeys, generatedAt: '2026-03-21T00:00:00.000Z',
      documents: [{ documentId: record.ids.pdf, content: record.originals.get(record.ids.pdf)! }, { documentId: record.ids.png, content: wrong }],
    });
    await expect(collect(stream)).rejects.toThrow(/does not match its upload entry 2/);
  });
});

describe('evidence bundle streaming', () => {
  const FILES = 12;
  const FILE_SIZE = 10 * 1024 * 1024;
  const CHUNK = 64 * 1024;
  /** A 10 MB document made on the fly, never held whole: file i repeats its own 64 KiB block. */
  const block = (i: number) => Buffer.alloc(CHUNK, i + 1);
  const source = (i: number, onDestroy?: () => void) => {
    let sent = 0;
    return new Readable({
      read() {
        if (sent >= FILE_SIZE) return void this.push(null);
        sent += CHUNK;
        this.push(block(i));
      },
      destroy(error, cb) {
        onDestroy?.();
        cb(error);
      },
    });
  };
  function bigRecord() {
    const ring = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const chain: EvidenceEntry[] = [];
    for (let i = 0; i < FILES; i++) {
      const hash = createHash('sha256');
      for (let s = 0; s < FILE_SIZE; s += CHUNK) hash.update(block(i));
      chain.push(nextEntry(chain[i - 1] ?? null, {
        action: 'uploaded', documentId: `doc-${i}`, title: `Document ${i}`, category: 'Custody', fileName: `scan ${i}.pdf`,
        sha256: hash.digest('hex'), size: FILE_SIZE, at: '2026-03-01T00:00:00.000Z', actor: { role: 'owner', id: null },
      }));
    }
    const last = chain[chain.length - 1]!;
    return { ring, chain, signedHead: ring.sign({ ownerId: OWNER, sequence: chain.length, headHash: last.hash, signedAt: last.at }) };
  }

  it('streams 120 MB of originals one at a time, never reading far ahead of a slow reader, and the result verifies', async () => {
    const { ring, chain, signedHead } = bigRecord();
    let open = 0;
    let maxOpen = 0;
    let pulled = 0;
    let delivered = 0;
    let maxAhead = 0;
    const stream = writeEvidenceBundle({
      ownerId: OWNER, chain, signedHead, publicKeys: ring.publicKeys, generatedAt: '2026-03-21T00:00:00.000Z',
      documents: chain.map((e, i) => ({
        documentId: e.documentId!,
        content: () => {
          open++;
          maxOpen = Math.max(maxOpen, open);
          return source(i, () => open--).on('data', (c: Buffer) => {
            pulled += c.length;
            maxAhead = Math.max(maxAhead, pulled - delivered);
          });
        },
      })),
    });
    const dir = mkdtempSync(join(tmpdir(), 'evidence-big-'));
    try {
      // A slow reader: the writer must wait for it rather than queue the archive in memory.
      const slow = new Transform({
        highWaterMark: 256 * 1024,
        transform(chunk: Buffer, _enc, cb) {
          delivered += chunk.length;
          setImmediate(() => cb(null, chunk));
        },
      });
      await pipeline(stream, slow, createWriteStream(join(dir, 'b.zip')));
      expect(delivered).toBeGreaterThan(FILES * FILE_SIZE);
      expect(pulled).toBe(FILES * FILE_SIZE);
      expect(maxOpen).toBe(1);
      // What was read from the sources but not yet taken by the reader stays a few buffers' worth:
      // without backpressure it would be most of the 120 MB.
      expect(maxAhead).toBeLessThan(4 * 1024 * 1024);
      const verdict = await verifyEvidenceBundle(join(dir, 'b.zip'));
      expect(verdict).toMatchObject({ ok: true });
      if (verdict.ok) expect(verdict.files).toHaveLength(FILES);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops reading the originals when the download is cancelled', async () => {
    const { ring, chain, signedHead } = bigRecord();
    let destroyed = 0;
    let opened = 0;
    const stream = writeEvidenceBundle({
      ownerId: OWNER, chain, signedHead, publicKeys: ring.publicKeys, generatedAt: '2026-03-21T00:00:00.000Z',
      documents: chain.map((e, i) => ({ documentId: e.documentId!, content: () => { opened++; return source(i, () => destroyed++); } })),
    });
    let received = 0;
    for await (const chunk of stream) {
      received += (chunk as Buffer).length;
      if (received > 2 * 1024 * 1024) break;
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(opened).toBe(1);
    expect(destroyed).toBe(1);
  });
});
