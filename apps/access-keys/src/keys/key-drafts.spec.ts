import { describe, expect, it } from '@jest/globals';
import { KEY_DRAFT_TTL_MS, KeyDrafts } from './key-drafts.js';

const OWNER = '0b7d4b1e-3f1a-4c2b-9d8e-1a2b3c4d5e6f';
const OTHER_OWNER = '6a5b4c3d-2e1f-4a0b-8c9d-0e1f2a3b4c5d';

function draftsAt(start: number) {
  let now = start;
  return { drafts: new KeyDrafts('a-sealing-secret-of-enough-length', () => new Date(now)), advance: (ms: number) => { now += ms; } };
}

describe('key drafts: keys are made by the server', () => {
  it('verifies a key it made for this owner, in any case', () => {
    const { drafts } = draftsAt(Date.UTC(2026, 11, 6));
    const made = drafts.make(OWNER);
    expect(made.access_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(drafts.verify(OWNER, made.access_key, made.draft)).toBe(true);
    expect(drafts.verify(OWNER, made.access_key.toUpperCase(), made.draft)).toBe(true);
  });

  it("refuses a key the client chose, another owner's draft, an altered draft and a draft from another secret", () => {
    const { drafts } = draftsAt(Date.UTC(2026, 11, 6));
    const made = drafts.make(OWNER);
    expect(drafts.verify(OWNER, '00000000-0000-4000-8000-000000000000', made.draft)).toBe(false);
    expect(drafts.verify(OTHER_OWNER, made.access_key, made.draft)).toBe(false);
    const [expires, signature] = made.draft.split('.');
    expect(drafts.verify(OWNER, made.access_key, `${Number(expires) + 1}.${signature}`)).toBe(false);
    expect(drafts.verify(OWNER, made.access_key, `${expires}.${signature!.slice(1)}x`)).toBe(false);
    expect(drafts.verify(OWNER, made.access_key, `${made.draft}.extra`)).toBe(false);
    expect(drafts.verify(OWNER, made.access_key, '')).toBe(false);
    const elsewhere = new KeyDrafts('another-sealing-secret-of-length', () => new Date(Date.UTC(2026, 11, 6)));
    expect(elsewhere.verify(OWNER, made.access_key, made.draft)).toBe(false);
  });

  it('lasts an hour', () => {
    const { drafts, advance } = draftsAt(Date.UTC(2026, 11, 6));
    const made = drafts.make(OWNER);
    advance(KEY_DRAFT_TTL_MS);
    expect(drafts.verify(OWNER, made.access_key, made.draft)).toBe(true);
    advance(1);
    expect(drafts.verify(OWNER, made.access_key, made.draft)).toBe(false);
  });
});
