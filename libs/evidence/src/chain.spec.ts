import { ZERO_HASH } from './canonical.js';
import { chainHead, entryHash, nextEntry, replayChain, verifyChain, type EvidenceEntry, type EvidenceFacts } from './chain.js';
import { sampleRecord } from './test-support/fixtures.js';

/** Recomputes the hash of an edited entry, and optionally relinks everything after it, as a forger would. */
function rehash(chain: EvidenceEntry[], from: number, relink = true): EvidenceEntry[] {
  const out = chain.map((e) => ({ ...e }));
  for (let i = from; i < out.length; i++) {
    if (i > 0 && relink) out[i]!.prevHash = out[i - 1]!.hash;
    out[i]!.hash = entryHash(out[i]!);
    if (!relink) break;
  }
  return out;
}

describe('evidence chain', () => {
  it('links each entry to the one before, from 64 zeros', () => {
    const { chain } = sampleRecord();
    expect(chain.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(chain[0]!.prevHash).toBe(ZERO_HASH);
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.prevHash).toBe(chain[i - 1]!.hash);
    expect(verifyChain(chain)).toEqual({ ok: true });
    expect(chainHead(chain)).toEqual({ sequence: 7, headHash: chain[6]!.hash });
    expect(chainHead([])).toEqual({ sequence: 0, headHash: ZERO_HASH });
    expect(verifyChain([])).toEqual({ ok: true });
  });

  it('replays the documents: key evidence, deletion with the hash kept', () => {
    const { chain, ids } = sampleRecord();
    const replay = replayChain(chain);
    if (!replay.ok) throw new Error(replay.reason);
    const byId = new Map(replay.documents.map((d) => [d.documentId, d]));
    expect(byId.get(ids.pdf)).toMatchObject({ isKeyEvidence: true, deleteSequence: null, uploadSequence: 1 });
    expect(byId.get(ids.txt)).toMatchObject({ deleteSequence: 6, deletedAt: '2026-03-16T08:00:00.000Z', sha256: chain[3]!.sha256 });
  });

  it('names an entry edited after it was written (bad hash)', () => {
    const { chain } = sampleRecord();
    const edited = chain.map((e) => ({ ...e }));
    edited[1]!.title = 'Bank transfer, child support April';
    expect(verifyChain(edited)).toEqual({ ok: false, sequence: 2, reason: expect.stringMatching(/hash does not match/) });
  });

  it('names the first entry whose prevHash breaks the link, even when its own hash was recomputed', () => {
    const { chain } = sampleRecord();
    const edited = chain.map((e) => ({ ...e }));
    edited[2]!.title = null;
    edited[2]!.actor = { role: 'viewer', id: 'someone' };
    const forged = rehash(edited, 2, false);
    // Entry 3 is self-consistent now, so entry 4's link to it breaks.
    expect(verifyChain(forged)).toEqual({ ok: false, sequence: 4, reason: expect.stringMatching(/prevHash/) });
    const badLink = chain.map((e) => ({ ...e }));
    badLink[4]!.prevHash = ZERO_HASH;
    expect(verifyChain(rehash(badLink, 4, false))).toEqual({ ok: false, sequence: 5, reason: expect.stringMatching(/prevHash/) });
  });

  it('names two swapped entries, a gap and a duplicate', () => {
    const { chain } = sampleRecord();
    const swapped = [...chain];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    expect(verifyChain(swapped)).toEqual({ ok: false, sequence: 3, reason: expect.stringMatching(/expected entry 3 here but found entry 4/) });
    const gap = chain.filter((e) => e.sequence !== 5);
    expect(verifyChain(gap)).toEqual({ ok: false, sequence: 5, reason: expect.stringMatching(/found entry 6/) });
    const duplicate = [...chain.slice(0, 4), chain[3]!, ...chain.slice(4)];
    expect(verifyChain(duplicate)).toEqual({ ok: false, sequence: 5, reason: expect.stringMatching(/found entry 4/) });
  });

  it('refuses a chain that is consistent in hashes but not in documents', () => {
    const { chain, ids } = sampleRecord();
    // A view of the deleted document, properly appended: the hashes are fine, the story is not.
    const viewAfterDelete = nextEntry(chain[6]!, { action: 'viewed', documentId: ids.txt, title: null, category: null, fileName: null, sha256: null, size: null, at: '2026-04-01T00:00:00.000Z', actor: { role: 'owner', id: null } });
    expect(verifyChain([...chain, viewAfterDelete])).toEqual({ ok: false, sequence: 8, reason: expect.stringMatching(/deleted in entry 6/) });
    const otherHash = nextEntry(chain[6]!, { action: 'viewed', documentId: ids.pdf, title: null, category: null, fileName: null, sha256: 'c'.repeat(64), size: null, at: '2026-04-01T00:00:00.000Z', actor: { role: 'owner', id: null } });
    expect(verifyChain([...chain, otherHash])).toEqual({ ok: false, sequence: 8, reason: expect.stringMatching(/sha256 differs/) });
    const unknown = nextEntry(chain[6]!, { action: 'key-evidence-marked', documentId: 'never-uploaded', title: null, category: null, fileName: null, sha256: null, size: null, at: '2026-04-01T00:00:00.000Z', actor: { role: 'owner', id: null } });
    expect(verifyChain([...chain, unknown])).toEqual({ ok: false, sequence: 8, reason: expect.stringMatching(/no earlier entry uploaded/) });
    const reupload = nextEntry(chain[6]!, { ...chain[0]!, at: '2026-04-01T00:00:00.000Z' });
    expect(verifyChain([...chain, reupload])).toEqual({ ok: false, sequence: 8, reason: expect.stringMatching(/already uploaded in entry 1/) });
  });

  it('refuses malformed entries, an extra field included (it would not be covered by the hash)', () => {
    const { chain } = sampleRecord();
    const extra = chain.map((e) => ({ ...e })) as (EvidenceEntry & { note?: string })[];
    extra[2]!.note = 'added later';
    expect(verifyChain(extra)).toEqual({ ok: false, sequence: 3, reason: expect.stringMatching(/unexpected field\(s\) note/) });
    const floaty = chain.map((e) => ({ ...e }));
    floaty[0]!.size = 1.5;
    expect(verifyChain(floaty)).toEqual({ ok: false, sequence: 1, reason: expect.stringMatching(/size/) });
    expect(verifyChain([null])).toEqual({ ok: false, sequence: 1, reason: expect.stringMatching(/not an object/) });
  });

  it('will not build an entry the verifier would refuse', () => {
    const base: EvidenceFacts = { action: 'uploaded', documentId: 'd1', title: 'T', category: 'Custody', fileName: 'a.pdf', sha256: 'a'.repeat(64), size: 3, at: '2026-01-01T00:00:00.000Z', actor: { role: 'owner', id: null } };
    expect(() => nextEntry(null, base)).not.toThrow();
    expect(() => nextEntry(null, { ...base, sha256: null })).toThrow(/upload needs sha256/);
    expect(() => nextEntry(null, { ...base, sha256: 'A'.repeat(64) })).toThrow(/sha256/);
    expect(() => nextEntry(null, { ...base, at: '1 March 2026' })).toThrow(/ISO 8601/);
    expect(() => nextEntry(null, { ...base, action: 'exported' })).toThrow(/documentId must be null/);
    expect(() => nextEntry(null, { ...base, action: 'deleted', documentId: null })).toThrow(/needs documentId/);
    expect(() => nextEntry(null, { ...base, action: 'shredded' as never })).toThrow(/action/);
    expect(() => nextEntry(null, { ...base, actor: { role: 'admin' as never, id: null } })).toThrow(/actor.role/);
  });
});
