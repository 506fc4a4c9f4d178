import { execFileSync } from 'node:child_process';
import { canonicalJson } from './canonical.js';
import { canonicalEntryBytes, entryHash, type EvidenceEntry } from './chain.js';
import { canonicalHeadBytes } from './keys.js';

// Golden values computed independently (Python: json.dumps(sort_keys=True, separators=(',', ':'),
// ensure_ascii=False)); a bundle's README tells a court to recompute hashes exactly this way.
const ENTRY: Omit<EvidenceEntry, 'hash'> = {
  sequence: 2,
  action: 'uploaded',
  documentId: '0b7e6a52-3c1d-4f0a-9a57-2d5e8c1b9f30',
  title: 'Zahlungsbeleg für März — "Unterhalt" \\ 𝄞',
  category: 'Receipts or Payment Records',
  fileName: 'beleg.pdf',
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  size: 1048576,
  at: '2026-03-02T10:15:30.250Z',
  actor: { role: 'viewer', id: 'access-key-7' },
  prevHash: 'a'.repeat(64),
};
const ENTRY_CANONICAL =
  '{"action":"uploaded","actor":{"id":"access-key-7","role":"viewer"},"at":"2026-03-02T10:15:30.250Z","category":"Receipts or Payment Records",' +
  '"documentId":"0b7e6a52-3c1d-4f0a-9a57-2d5e8c1b9f30","fileName":"beleg.pdf","prevHash":"' + 'a'.repeat(64) + '","sequence":2,' +
  '"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","size":1048576,"title":"Zahlungsbeleg für März — \\"Unterhalt\\" \\\\ 𝄞"}';
const ENTRY_HASH = '3b7168f0c4d698ab2bdacccfeab31e63ea01d36e74bfd79760f04630bb646ff3';

describe('canonical encoding', () => {
  it('encodes an entry as sorted, whitespace-free JSON in UTF-8 (golden value)', () => {
    expect(canonicalEntryBytes(ENTRY).toString('utf8')).toBe(ENTRY_CANONICAL);
    expect(entryHash(ENTRY)).toBe(ENTRY_HASH);
  });

  it('leaves the hash field out and does not depend on the order fields were written in', () => {
    const reordered = Object.fromEntries(Object.entries({ ...ENTRY, hash: 'f'.repeat(64) }).reverse()) as unknown as EvidenceEntry;
    expect(entryHash({ ...reordered, actor: { id: 'access-key-7', role: 'viewer' } })).toBe(ENTRY_HASH);
  });

  it('changes with any field, the actor included', () => {
    expect(entryHash({ ...ENTRY, size: 1048577 })).not.toBe(ENTRY_HASH);
    expect(entryHash({ ...ENTRY, actor: { role: 'viewer', id: 'access-key-8' } })).not.toBe(ENTRY_HASH);
    expect(entryHash({ ...ENTRY, title: null })).not.toBe(ENTRY_HASH);
  });

  it('is what `jq -cjS` writes, as the bundle README tells a court', () => {
    const viaJq = execFileSync('jq', ['-cjS', 'del(.hash)'], { input: JSON.stringify({ ...ENTRY, hash: 'x' }, null, 2) });
    expect(viaJq.toString('utf8')).toBe(ENTRY_CANONICAL);
  });

  it('signs heads as canonical JSON with a format marker (golden value)', () => {
    const head = { ownerId: '6f1c1f6e-2b7a-4c39-9d0e-3f4a5b6c7d8e', sequence: 7, headHash: 'b'.repeat(64), signedAt: '2026-03-20T12:00:00.000Z', keyId: '0123456789abcdef' };
    expect(canonicalHeadBytes(head).toString('utf8')).toBe(
      `{"format":"legacy-vault/evidence-head/v1","headHash":"${'b'.repeat(64)}","keyId":"0123456789abcdef","ownerId":"6f1c1f6e-2b7a-4c39-9d0e-3f4a5b6c7d8e","sequence":7,"signedAt":"2026-03-20T12:00:00.000Z"}`,
    );
  });

  it('escapes control characters and refuses what could be written two ways', () => {
    expect(canonicalJson({ b: 'line\nbreak\u0001', a: [true, null, -0] })).toBe('{"a":[true,null,0],"b":"line\\nbreak\\u0001"}');
    expect(() => canonicalJson({ n: 1.5 })).toThrow(/integers only/);
    expect(() => canonicalJson({ n: 2 ** 60 })).toThrow(/integers only/);
    expect(() => canonicalJson({ u: undefined } as never)).toThrow(/undefined/);
  });
});
