import { EVIDENCE_KEYS_PATH, VERIFY_EVIDENCE_COMMAND, type SignedEvidenceHead } from '@lv/contracts';
import { BUNDLE_FILES, BUNDLE_FILES_DIR, EVIDENCE_BUNDLE_FORMAT_V1, type EvidenceManifest } from './manifest.js';

/**
 * The README.txt of a bundle: what it is and how to check it, with the product and by hand. Made from
 * signed facts only, so the verifier can demand exactly these words (a printed fingerprint cannot be
 * swapped for an impostor's).
 */
export function bundleReadme(input: {
  manifest: EvidenceManifest;
  head: SignedEvidenceHead;
  signingKey: { keyId: string; fingerprint: string; publicKeyPem: string };
}): string {
  const { manifest, head, signingKey } = input;
  const present = manifest.documents.filter((d) => d.status === 'present').length;
  const deleted = manifest.documents.length - present;
  const keysAt = `https://<the vault's address>${EVIDENCE_KEYS_PATH}`;
  const F = BUNDLE_FILES;
  const v1 = manifest.format === EVIDENCE_BUNDLE_FORMAT_V1;
  // v2 groups the originals by Court Journal card: a count per card, in the manifest's (the journal's) order.
  const cards = new Map<string, number>();
  for (const d of manifest.documents) if (d.status === 'present' && d.card) cards.set(d.card, (cards.get(d.card) ?? 0) + 1);
  const byCard = v1 ? '' : [...cards].map(([card, n]) => `\n  ${card}: ${n}`).join('');
  const filesLine = v1
    ? `${BUNDLE_FILES_DIR}<entry>-<name> the original files of documents that still exist; <entry> is
                 the number of the entry that recorded the upload`
    : `${BUNDLE_FILES_DIR}<card>/<entry>-<name> the original files of documents that still exist, in a
                 folder per Court Journal card; <entry> is the number of the entry that
                 recorded the upload`;
  const filesGlob = v1 ? `${BUNDLE_FILES_DIR}*` : `${BUNDLE_FILES_DIR}*/*`;
  return `LEGACY VAULT EVIDENCE BUNDLE
============================

Owner (account id):   ${manifest.ownerId}
Record entries:       ${head.sequence}
Documents:            ${present} present in this bundle, ${deleted} deleted (recorded, contents not kept)${v1 ? '' : `
Present, by card:${byCard || ' none'}`}
Signed head:          entry ${head.sequence}, hash ${head.headHash}
Record signed at:     ${head.signedAt}
Signing key id:       ${signingKey.keyId}
Key fingerprint:      ${signingKey.fingerprint}

WHAT THIS IS

This file comes with an export of court documents kept in a Legacy Vault. Every time a document
was uploaded, marked or unmarked as key evidence, viewed, deleted, or the record was exported, the
vault wrote an entry into an evidence record (a "hash chain"). Each entry holds the SHA-256
fingerprint of the file it is about and the fingerprint of the entry before it, so no entry can be
changed, removed, reordered or inserted without breaking every entry after it. The last entry (the
"head") is signed by the vault's evidence key (Ed25519). Whoever holds this bundle could rebuild a
chain after editing it, but could not make a new signature without the vault's private key.

Deleting a document keeps an entry that it existed, with its fingerprint, but not its contents:
deleted documents appear in ${F.manifest} and ${F.chain} with status "deleted" and no file.

THE ENTRIES

Each entry of ${F.chain} has an "action": "uploaded" (the document, its title, category, file name,
size and SHA-256 at the time), "key-evidence-marked" / "key-evidence-unmarked" (the owner flagged
it, or took the flag away), "viewed", "deleted", or "exported" (this kind of bundle was made). "at"
is the time (UTC) and "actor" who did it: "owner" is the account holder, "viewer" a family member
reading through an access key the owner approved ("id" names the key).

WHAT IS IN THE BUNDLE

  ${F.readme.padEnd(14)} this text
  ${F.manifest.padEnd(14)} every document: title, category, dates, file name, size, SHA-256, key
                 evidence, status, and the path of its file in the bundle
  ${F.chain.padEnd(14)} the evidence record: every entry, in order ("entries")
  ${F.head.padEnd(14)} the signed head: owner, number of entries, hash of the last entry, time,
                 key id and signature (base64url)
  ${F.headBytes.padEnd(14)} the exact bytes that were signed
  ${F.headSignature.padEnd(14)} the signature, 64 raw bytes
  ${F.signingKey.padEnd(14)} the public key that signed the head
  ${F.keys.padEnd(14)} the vault's evidence public keys (current and still-honoured ones) when
                 the bundle was made; not covered by the signature: trust comes from
                 comparing the key with the one the vault publishes (see below)
  ${filesLine}

CHECKING IT WITH THE PRODUCT'S VERIFIER

From a copy of the Legacy Vault source code (after "npm install"; no server, database or network
is needed):

  ${VERIFY_EVIDENCE_COMMAND}

It ends with "RESULT: INTACT" and exit status 0 when everything below holds; otherwise it names
each entry or file that fails and exits with a non-zero status. To be sure the key inside the
bundle is the vault's own, pin the published key:

  npm run verify-evidence -- <bundle.zip> --keys <keys.json downloaded from ${keysAt}>
  npm run verify-evidence -- <bundle.zip> --key <public key .pem>

CHECKING IT BY HAND, WITH STANDARD TOOLS

Unzip the bundle and run these commands in its folder (a Linux or macOS shell with OpenSSL 3,
jq and sha256sum).

1. The public key. The head was signed by this Ed25519 key (also in ${F.signingKey}):

${signingKey.publicKeyPem.trim().split('\n').map((l) => `  ${l}`).join('\n')}

   Its fingerprint is the SHA-256 of the key's DER form, its key id the first 16 hex digits:

     openssl pkey -pubin -in ${F.signingKey} -outform DER | sha256sum
     -> ${signingKey.fingerprint}

   Compare it with the key the vault publishes at ${keysAt}
   (the path ${EVIDENCE_KEYS_PATH}). A bundle whose key is not published there proves nothing.

2. The signature over the head:

     openssl pkeyutl -verify -pubin -inkey ${F.signingKey} -rawin -in ${F.headBytes} -sigfile ${F.headSignature}
     -> Signature Verified Successfully

   ${F.headBytes} must be exactly the canonical JSON (see 4) of
   {"format":"legacy-vault/evidence-head/v1","headHash":...,"keyId":...,"ownerId":...,
   "sequence":...,"signedAt":...} with the values of ${F.head}:

     jq -cjS '{format:"legacy-vault/evidence-head/v1",headHash,keyId,ownerId,sequence,signedAt}' ${F.head} | cmp - ${F.headBytes}

3. The files. Each file's SHA-256 must be the one the manifest and the chain's "uploaded" entry give:

     sha256sum ${filesGlob}
     jq -r '.documents[] | select(.status=="present") | "\\(.sha256)  \\(.path)"' ${F.manifest} | sha256sum -c -

4. The chain. Entries are numbered 1, 2, 3 ... with no gaps. For every entry:
   - "prevHash" is the "hash" of the entry before (64 zeros for entry 1);
   - "hash" is the SHA-256 of the entry's canonical JSON without its "hash" field. Canonical JSON
     (RFC 8785) means: keys sorted, no spaces or line breaks, strings as JSON writes them, UTF-8.
     For entry N:

       jq -cjS '.entries[N-1] | del(.hash)' ${F.chain} | sha256sum

     (jq writes the same bytes for any text without control characters.)
   - the last entry's "hash" is the signed "headHash", and the number of entries is the signed
     "sequence" (a shorter chain has been cut).
   - the manifest says the same as the chain: each document's title, category, file name, size and
     SHA-256 are those of its "uploaded" entry, its key-evidence flag that of the last marked /
     unmarked entry, and its status "deleted" exactly when a "deleted" entry names it.
`;
}
