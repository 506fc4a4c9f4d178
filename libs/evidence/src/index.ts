/**
 * @lv/evidence: the evidence record of court documents (issue 11), pure (node:crypto and a ZIP
 * library; no database, no messaging, no Nest), shared by the court-journal service, which writes
 * it, and `npm run verify-evidence` (tools/evidence), which checks a bundle with nothing running.
 *
 * 1. The chain (chain.ts). Every upload, key-evidence change, deletion, view and export of a
 *    document is an EvidenceEntry of the owner's chain:
 *      { sequence 1..n, action (EvidenceAction), documentId, title, category, fileName, sha256 (of
 *        the file), size, at (ISO, UTC), actor { role: 'owner' | 'viewer', id }, prevHash, hash }
 *    `hash` = SHA-256 of canonicalEntryBytes(entry): the canonical JSON (canonical.ts: RFC 8785,
 *    keys sorted, no whitespace, UTF-8, integers only) of every field but `hash`. `prevHash` is the
 *    previous entry's hash, 64 zeros for the first.
 *      nextEntry(prev | null, facts) -> EvidenceEntry        throws TypeError on malformed facts
 *      verifyChain(entries) -> { ok: true } | { ok: false, sequence, reason }   (first failing entry)
 *      replayChain(entries) -> verifyChain + the documents the chain describes
 *      chainHead(entries) -> { sequence, headHash }
 *    Rules beyond the hashes: an upload names documentId, title, category, fileName, sha256, size;
 *    an export has documentId null; every other action names a document uploaded earlier and not
 *    deleted, and its sha256 (when not null) is the upload's. A deletion keeps the entry (and so the
 *    hash) of what was deleted, never the content. Titles are personal data: the chain lives only in
 *    the owner's own service database and in the bundles the owner exports.
 *
 * 2. The signed head (keys.ts). The service signs { ownerId, sequence, headHash, signedAt, keyId }
 *    with its Ed25519 evidence key after each append; a chain rebuilt after an edit cannot carry a
 *    valid signature.
 *      canonicalHeadBytes(head) -> Buffer                    (what is signed; head.bin in a bundle)
 *      signHead(head, privateKey: KeyObject) -> SignedEvidenceHead   (signature base64url)
 *      verifyHead(signed, publicKeys: EvidencePublicKeys) -> { ok, keyId, fingerprint } | { ok: false, reason }
 *      generateEvidenceKey() -> { keyId, privateKeyPem, publicKeyPem, createdAt }
 *      loadEvidenceKeyRing({ current: pem | { pem, validFrom }, previous?: [{ pem, validUntil, validFrom? }] })
 *        -> { keyId, sign(head without keyId), publicKeys }  (publicKeys: what EVIDENCE_KEYS_PATH serves)
 *      keyFingerprint(key) / keyIdOf(key): SHA-256 of the SPKI DER / its first 16 hex digits.
 *    Rotation with overlap: a previous key verifies heads signed at or before its validUntil; a head
 *    signed after it, or by a key not listed, does not verify.
 *
 * 3. The bundle (bundle-writer.ts, bundle-reader.ts; layout and words in manifest.ts, readme.ts).
 *      writeEvidenceBundle({ ownerId, chain, signedHead, publicKeys, documents: [{ documentId,
 *        content: bytes | Readable | () => Readable }], generatedAt }) -> Readable (a ZIP)
 *        README.txt, manifest.json, chain.json, head.json, head.bin, head.sig, key.pem, keys.json,
 *        files/<card>/<upload entry>-<safe file name> for each document not deleted, grouped by
 *        Court Journal card (manifest format v2; a v1 bundle, flat, still verifies). Streams one file at a
 *        time with backpressure; checks its input first (EvidenceBundleError).
 *      verifyEvidenceBundle(zip bytes | path, { trustedKeys? }) ->
 *        { ok: true, ownerId, head, key, entries, files, deletedDocuments }
 *        | { ok: false, ownerId, head, key, failures: [{ where: 'entry N' | <path> | 'head' | ..., reason }] }
 *      pinnedKeys(publicKeyPem) -> EvidencePublicKeys holding only that key (the CLI's --key).
 *    Everything in a bundle but keys.json is derived from the chain and the signed head, so the
 *    verifier rebuilds README.txt, manifest.json, chain.json's layout, head.json, head.bin and key.pem
 *    and demands the same bytes: one flipped byte anywhere is named. keys.json is the unsigned anchor
 *    (a copy of what the vault published); pin the published keys to rule out a replaced key.
 *    The verifier reads the ZIP into memory (a court's machine, one bundle); the writer streams.
 *
 * For the service that stores a chain: keep every field exactly as nextEntry returned it (`at` as the
 * same ISO string, not a timestamp column re-formatted on the way out; `size` as a number), or the
 * hashes will not match when the chain is read back. Append under the stream's expected version so
 * two writers never fork the chain, and sign the new head after each append.
 */
export * from './canonical.js';
export * from './chain.js';
export * from './keys.js';
export * from './manifest.js';
export * from './readme.js';
export * from './bundle-writer.js';
export * from './bundle-reader.js';
