import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { EVIDENCE_KEYS_PATH, evidencePublicKeysSchema, type EvidencePublicKeys } from '@lv/contracts';
import { pinnedKeys, verifyEvidenceBundle } from '@lv/evidence';

export const USAGE = `Usage: npm run verify-evidence -- <bundle.zip> [--keys <keys.json>] [--key <public-key.pem>]

Checks a Legacy Vault evidence bundle without any server: every file against the evidence record,
the record entry by entry, the manifest against the record, and the signature over the record's head.
  --keys <file>  trust only these keys: the JSON the vault publishes at ${EVIDENCE_KEYS_PATH}
  --key <file>   trust only this Ed25519 public key (PEM)
Without either, the signature is checked against the key shipped inside the bundle.
Exit status: 0 intact, 1 not intact, 2 the bundle or a key file could not be read.`;

interface Io {
  /** Where relative paths start (npm runs scripts from the package root; INIT_CWD is the caller's folder). */
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** `npm run verify-evidence -- <bundle.zip> ...`; resolves to the exit status. */
export async function verifyEvidenceCommand(argv: readonly string[], io: Io): Promise<number> {
  const at = (p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));
  let bundle: string | undefined;
  let trusted: EvidencePublicKeys | undefined;
  let pinnedFrom = '';
  try {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (arg === '--help' || arg === '-h') {
        io.out(USAGE);
        return 0;
      } else if (arg === '--keys' || arg === '--key') {
        const file = argv[++i];
        if (!file) throw new UsageError(`${arg} needs a file`);
        if (trusted) throw new UsageError('give --keys or --key once');
        const content = readFileSync(at(file), 'utf8');
        if (arg === '--key') trusted = pinnedKeys(content);
        else {
          const parsed = evidencePublicKeysSchema.safeParse(JSON.parse(content));
          if (!parsed.success) throw new UsageError(`${file} is not the evidence keys document the vault publishes at ${EVIDENCE_KEYS_PATH}`);
          trusted = parsed.data;
        }
        pinnedFrom = file;
      } else if (arg.startsWith('-')) {
        throw new UsageError(`unknown option ${arg}`);
      } else if (bundle) {
        throw new UsageError('give one bundle');
      } else {
        bundle = arg;
      }
    }
    if (!bundle) throw new UsageError('which bundle? give the path of the .zip file');
  } catch (error) {
    io.err(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `Cannot read a key file: ${(error as Error).message}`);
    return 2;
  }

  let verdict;
  try {
    verdict = await verifyEvidenceBundle(at(bundle), { trustedKeys: trusted });
  } catch (error) {
    io.err(`Cannot read ${bundle}: ${(error as Error).message}`);
    return 2;
  }
  io.out(`Legacy Vault evidence bundle: ${at(bundle)}`);
  if (verdict.ownerId) io.out(`  Owner:        ${verdict.ownerId}`);
  if (verdict.head) io.out(`  Signed head:  entry ${verdict.head.sequence}, hash ${verdict.head.headHash}, signed ${verdict.head.signedAt}`);
  if (verdict.ok) {
    io.out(`  Entries:      ${verdict.entries.length}`);
    io.out(`  Files:        ${verdict.files.length} original${verdict.files.length === 1 ? '' : 's'} present, ${verdict.deletedDocuments} deleted document${verdict.deletedDocuments === 1 ? '' : 's'} recorded (fingerprint kept, contents not)`);
  }
  const key = verdict.key;
  if (key) {
    io.out(`  Key id:       ${key.keyId}`);
    io.out(`  Fingerprint:  ${key.fingerprint} (SHA-256 of the public key)`);
    io.out(key.source === 'pinned'
      ? `  Trusted key:  pinned from ${pinnedFrom}`
      : `  Trusted key:  the key shipped INSIDE the bundle (keys.json). That proves the bundle is unchanged since\n` +
        `                that key signed it, not that the key is the vault's: compare the fingerprint with the keys\n` +
        `                the vault publishes at ${EVIDENCE_KEYS_PATH}, or run again with --keys <that file>.`);
  } else if (trusted) {
    io.out(`  Trusted key:  pinned from ${pinnedFrom}`);
  }
  if (verdict.ok) {
    io.out('RESULT: INTACT');
    return 0;
  }
  io.out(`RESULT: NOT INTACT (${verdict.failures.length} problem${verdict.failures.length === 1 ? '' : 's'})`);
  for (const f of verdict.failures) io.out(`  ${f.where}: ${f.reason}`);
  return 1;
}

class UsageError extends Error {}
