import { alterMiddleCharacter } from '@lv/testing';
import { MediaLinkSigner } from './media-links.js';

const SECRET = 'a-test-secret-that-is-long-enough-1234';
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '7a2b3c4d-1111-4222-8333-944455556666';
const recording = '0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
const other = '1c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f';
const session = '9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a';

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}

describe('signed playback links', () => {
  let now = Date.UTC(2026, 11, 1, 10, 0, 0);
  const signer = new MediaLinkSigner(SECRET, 3600, () => now);
  beforeEach(() => { now = Date.UTC(2026, 11, 1, 10, 0, 0); });

  it('signs a same-origin link valid for 3600 s, naming owner, recording and expiry', () => {
    const { url, expiresAt } = signer.signLink(owner, recording);
    expect(url.startsWith(`/api/media/play/${recording}?`)).toBe(true);
    expect(expiresAt).toBe(now + 3600_000);
    expect(queryOf(url)).toMatchObject({ u: owner, exp: String((now + 3600_000) / 1000) });
  });

  it('authorises the owner presenting their own binding', () => {
    const { url } = signer.signLink(owner, recording);
    const binding = signer.signBinding(owner, session).value;
    expect(signer.authorise(recording, queryOf(url), binding)).toEqual({ userId: owner, recordingId: recording, expiresAt: now + 3600_000, sessionId: session });
  });

  it('refuses an expired link', () => {
    const { url } = signer.signLink(owner, recording);
    const binding = signer.signBinding(owner, session).value;
    now += 3600_000;
    expect(signer.verifyLink(recording, queryOf(url))).toBe('expired');
    expect(signer.authorise(recording, queryOf(url), binding)).not.toHaveProperty('userId');
  });

  it('refuses an altered link: another recording, owner, expiry or signature', () => {
    const query = queryOf(signer.signLink(owner, recording).url);
    expect(signer.verifyLink(other, query)).toBe('bad-signature');
    expect(signer.verifyLink(recording, { ...query, u: stranger })).toBe('bad-signature');
    expect(signer.verifyLink(recording, { ...query, exp: String(Number(query.exp) + 3600) })).toBe('bad-signature');
    expect(signer.verifyLink(recording, { ...query, sig: alterMiddleCharacter(query.sig!) })).toBe('bad-signature');
    expect(signer.verifyLink(recording, { u: owner })).toBe('malformed');
  });

  it('refuses a foreign link: someone else presenting it, or nobody bound at all', () => {
    const { url } = signer.signLink(owner, recording);
    expect(signer.authorise(recording, queryOf(url), signer.signBinding(stranger, session).value)).toBe('foreign');
    expect(signer.authorise(recording, queryOf(url), undefined)).toBe('no-binding');
    expect(signer.authorise(recording, queryOf(url), `${owner}.${session}.9999999999.forged`)).toBe('no-binding');
  });

  it('does not accept a link signed with another secret', () => {
    const elsewhere = new MediaLinkSigner('another-secret-that-is-long-enough-5678', 3600, () => now);
    const { url } = elsewhere.signLink(owner, recording);
    expect(signer.verifyLink(recording, queryOf(url))).toBe('bad-signature');
  });

  it('mints report tokens per recording', () => {
    const token = signer.reportToken(recording);
    expect(signer.verifyReportToken(recording, token)).toBe(true);
    expect(signer.verifyReportToken(other, token)).toBe(false);
    expect(signer.verifyReportToken(recording, 'x')).toBe(false);
  });

  it('refuses a short secret', () => {
    expect(() => new MediaLinkSigner('short')).toThrow(/at least 32/);
  });
});
