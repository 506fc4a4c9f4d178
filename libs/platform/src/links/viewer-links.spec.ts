import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { ViewerLinkMessages } from '@lv/contracts';
import { alterMiddleCharacter } from '@lv/testing';
import { ViewerTokenSigner, ViewerTokenVerifier } from '../auth/index.js';
import { OwnerLinkSigner } from './index.js';
import { authoriseViewerLink, ViewerLinks } from './viewer-links.js';

const SECRET = 'a-test-secret-that-is-long-enough-1234';
const item = '0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
const otherItem = '1c8b3e3f-6e5a-4d6a-9e4f-0a1b2c3d4e5f';
const session = '9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a';
const otherSession = '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b';
const viewer = { viewSessionId: session, mayDownload: false };
const downloader = { viewSessionId: session, mayDownload: true };

const queryOf = (url: string): Record<string, string> => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('viewer links: signed for one item and one view session', () => {
  let now = Date.UTC(2026, 11, 5, 10, 0, 0);
  const signer = (secret = SECRET) => new OwnerLinkSigner({ namespace: 'media', secret, secretName: 'SPEC_SECRET', purposes: ['play', 'view'], ttlSeconds: 3600, now: () => now });
  const links = new ViewerLinks(signer());
  beforeEach(() => { now = Date.UTC(2026, 11, 5, 10, 0, 0); });

  it('names the item, the session and an expiry 3600 s ahead; verifies for the viewer of that session', () => {
    const { url, expiresAt } = links.sign('/api/view/media/' + item, session, item);
    expect(url.startsWith(`/api/view/media/${item}?`)).toBe(true);
    expect(expiresAt).toBe(now + 3600_000);
    expect(queryOf(url)).toMatchObject({ s: session, exp: String((now + 3600_000) / 1000) });
    expect(queryOf(url)).not.toHaveProperty('dl');
    expect(links.verify(item, queryOf(url), viewer)).toEqual({ itemId: item, viewSessionId: session, expiresAt: now + 3600_000, download: false });
  });

  it('refuses an altered link: another item, session, expiry, download flag or signature', () => {
    const query = queryOf(links.sign('/x', session, item).url);
    expect(links.verify(otherItem, query, viewer)).toBe('bad-signature');
    expect(links.verify(item, { ...query, s: otherSession }, { ...viewer, viewSessionId: otherSession })).toBe('bad-signature');
    expect(links.verify(item, { ...query, exp: String(Number(query.exp) + 3600) }, viewer)).toBe('bad-signature');
    expect(links.verify(item, { ...query, dl: '1' }, downloader)).toBe('bad-signature');
    expect(links.verify(item, { ...query, sig: alterMiddleCharacter(query.sig!) }, viewer)).toBe('bad-signature');
  });

  it('refuses a malformed link without computing anything', () => {
    const query = queryOf(links.sign('/x', session, item).url);
    expect(links.verify(item, { s: session }, viewer)).toBe('malformed');
    expect(links.verify('not-an-id', query, viewer)).toBe('malformed');
    expect(links.verify(item, { ...query, dl: 'yes' }, viewer)).toBe('malformed');
    expect(links.verify(item, { ...query, exp: '1e9' }, viewer)).toBe('malformed');
    expect(links.verify(item, { ...query, s: ['a', 'b'] }, viewer)).toBe('malformed');
  });

  it('refuses an expired link', () => {
    const query = queryOf(links.sign('/x', session, item).url);
    now += 3600_000;
    expect(links.verify(item, query, viewer)).toBe('expired');
  });

  it("refuses a link of another view session (another viewer's cookie)", () => {
    const query = queryOf(links.sign('/x', otherSession, item).url);
    expect(links.verify(item, query, viewer)).toBe('other-session');
  });

  it('honours a download link only while the key allows downloads', () => {
    const query = queryOf(links.sign('/x', session, item, true).url);
    expect(query.dl).toBe('1');
    expect(links.verify(item, query, viewer)).toBe('download-not-allowed');
    expect(links.verify(item, query, downloader)).toMatchObject({ download: true });
  });

  it('never verifies a link signed for another purpose or under another secret', () => {
    const owner = signer().signLink('play', '/x', session, item);
    expect(links.verify(item, { ...queryOf(owner.url), s: session }, viewer)).toBe('bad-signature');
    const elsewhere = new ViewerLinks(signer('another-secret-that-is-long-enough-5678'));
    expect(links.verify(item, queryOf(elsewhere.sign('/x', session, item).url), viewer)).toBe('bad-signature');
    expect(links.verify(item, queryOf(new ViewerLinks(signer(), 'play').sign('/x', session, item).url), viewer)).toBe('bad-signature');
  });
});

describe('authoriseViewerLink: the token from the cookie, then the link', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const tokens = new ViewerTokenSigner(keys.privateKey);
  const revoked = new Set<string>();
  const verifier = new ViewerTokenVerifier(keys.publicKey, { isRevoked: async (sid: string) => revoked.has(sid) });
  const links = new ViewerLinks(new OwnerLinkSigner({ namespace: 'media', secret: SECRET, secretName: 'SPEC_SECRET', purposes: ['view'], ttlSeconds: 3600 }));
  const owner = randomUUID();
  const token = (sid: string, mayDownload = false) => tokens.sign({ vaultOwnerId: owner, viewSessionId: sid, scopes: ['timeline'], mayDownload }).token;
  const refusal = (promise: Promise<unknown>) => promise.then(() => 'allowed', (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`);

  it('admits the viewer whose token names the link’s session, and says who it is', async () => {
    const { url } = links.sign('/x', session, item);
    const { viewer: caller, link } = await authoriseViewerLink(verifier, links, item, queryOf(url), token(session), ViewerLinkMessages);
    expect(caller).toMatchObject({ kind: 'viewer', vaultOwnerId: owner, viewSessionId: session, scopes: ['timeline'], mayDownload: false });
    expect(link).toMatchObject({ itemId: item, download: false });
  });

  it('refuses, with words that say why: no cookie, a forged token, another session, a revoked session, a download without permission, an altered link', async () => {
    const query = queryOf(links.sign('/x', session, item).url);
    expect(await refusal(authoriseViewerLink(verifier, links, item, query, undefined, ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.noViewer}`);
    expect(await refusal(authoriseViewerLink(undefined, links, item, query, token(session), ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.noViewer}`);
    expect(await refusal(authoriseViewerLink(verifier, links, item, query, alterMiddleCharacter(token(session)), ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.noViewer}`);
    expect(await refusal(authoriseViewerLink(verifier, links, item, query, token(otherSession), ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.otherSession}`);
    const download = queryOf(links.sign('/x', session, item, true).url);
    expect(await refusal(authoriseViewerLink(verifier, links, item, download, token(session), ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.downloadNotAllowed}`);
    expect(await refusal(authoriseViewerLink(verifier, links, item, download, token(session, true), ViewerLinkMessages))).toBe('allowed');
    expect(await refusal(authoriseViewerLink(verifier, links, item, { ...query, sig: alterMiddleCharacter(query.sig!) }, token(session), ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.linkInvalid}`);
    const live = token(session);
    revoked.add(session);
    expect(await refusal(authoriseViewerLink(verifier, links, item, query, live, ViewerLinkMessages))).toBe(`FORBIDDEN: ${ViewerLinkMessages.accessEnded}`);
    revoked.delete(session);
  });
});
