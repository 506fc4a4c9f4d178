// A family viewer plays what their key allows, through links bound to their view session: vault-media
// booted in-process on the machine's PostgreSQL, NATS and Redis and the embedded S3 server; viewer
// tokens from the test issuer (real signatures, real revocations in Redis). access-keys' final-access
// answer is played by a stand-in on NATS (the owner's preview switch).
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MEDIA_BUCKET, MediaMessages, posterKeyOf, renditionKeyOf, VaultMediaRpc, ViewerLinkMessages, type PlaybackGrant, type ViewerMediaGrant } from '@lv/contracts';
import { scopedSubject } from '@lv/platform/messaging';
import { RawRpc, TestViewerIssuer, generateTestKeys, type IssuedViewerToken } from '@lv/testing';
import sharp from 'sharp';
import { NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media: viewer links bound to the view session', () => {
  let h: Harness;
  let rpc: RawRpc;
  let nc: NatsConnection;
  let viewers: TestViewerIssuer;
  let finalsOpen = false;
  const viewerKeys = generateTestKeys();
  const ownerId = randomUUID();
  const otherOwnerId = randomUUID();
  const bodies = new Map<string, Buffer>();
  const objectKeys = new Map<string, string>();

  async function save(owner: string, title: string, collection: 'vault' | 'final-messages' | 'who-i-am' = 'vault', size = 64 * 1024): Promise<string> {
    const body = webmBody(size);
    const token = h.tokenFor(owner);
    const ticket = await rpc.call<{ uploadId: string; contentType: string }>('rpc.vault-media.start-upload', { type: 'video', title, sha256: sha(body), size: body.length, collection, contentType: 'video/webm' }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    const { id, file_path: objectKey } = answer.json<{ id: string; file_path: string }>();
    bodies.set(id, body);
    objectKeys.set(id, objectKey);
    return id;
  }

  /** A Who I Am picture (the profile photo, or a personal image) saved as the browser saves a file. */
  async function savePicture(owner: string, body: Buffer, collection: 'who-i-am-photo' | 'who-i-am', contentType = 'image/jpeg'): Promise<string> {
    const token = h.tokenFor(owner);
    const ticket = await rpc.call<{ uploadId: string; contentType: string }>('rpc.vault-media.start-upload', { type: 'image', title: 'Our house', sha256: sha(body), size: body.length, collection, contentType }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string }>().id;
  }

  const link = (id: string, viewer: IssuedViewerToken) => rpc.call<ViewerMediaGrant>(VaultMediaRpc.viewerLink.subject, { id }, viewer.token);
  const posterLink = (id: string, viewer: IssuedViewerToken) => rpc.call<ViewerMediaGrant>(VaultMediaRpc.viewerLink.subject, { id, poster: true }, viewer.token);
  /** The media-transcoding job's result, as the worker stores and reports it: a poster (a rendition is not read here). */
  async function transcoded(id: string, poster: Buffer): Promise<void> {
    const key = objectKeys.get(id)!;
    await h.resources.storage.upload(MEDIA_BUCKET, posterKeyOf(key), Readable.from([poster]));
    const result = { status: 'ready', renditionKey: renditionKeyOf(key), renditionSize: 1000, renditionContentType: 'video/mp4', posterKey: posterKeyOf(key), posterSize: poster.length, durationSeconds: 65 };
    await rpc.call(VaultMediaRpc.reportTranscode.subject, { recordingId: id, reportToken: h.service.transcodeTokenFor(id), result });
  }
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: { code?: string }) => e.code);
  const play = (url: string, token: string | undefined, range?: string) =>
    sendHttp(`${h.mediaUrl}${url.replace(/^\/api/, '')}`, { headers: { ...(token ? { 'x-lv-view-token': token } : {}), ...(range ? { range } : {}) } });

  beforeAll(async () => {
    h = await startVaultMedia('mediaview', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    viewers = new TestViewerIssuer(h.resources.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
    // access-keys' answer to "may final messages be opened now?", asked with the viewer's token.
    nc = await connect({ servers: NATS_URL, name: 'final-access-stand-in' });
    nc.subscribe(scopedSubject('rpc.access-keys.final-access'), {
      callback: (error, msg) => {
        if (error) return;
        const packet = msg.json<{ id: string }>();
        msg.respond(JSON.stringify({ response: { open: finalsOpen, released: false, final_thoughts: null }, isDisposed: true, id: packet.id }));
      },
    });
    await nc.flush();
  });

  afterAll(async () => {
    await nc?.close();
    await rpc?.close();
    await h?.close();
  });

  it('gives a timeline viewer a link, plays it with Range (206, the right bytes) and seeks with a second Range', async () => {
    const id = await save(ownerId, 'Birthday message');
    const viewer = viewers.issue(ownerId, ['timeline']);
    const grant = await link(id, viewer);
    expect(grant).toMatchObject({ contentType: 'video/webm', mediaKind: 'video', title: 'Birthday message', downloadUrl: null, section: 'timeline' });
    expect(grant.url).toMatch(new RegExp(`^/api/view/media/${id}\\?s=${viewer.viewSessionId}&exp=\\d+&sig=`));
    expect(grant.expiresAt - Date.now()).toBeLessThanOrEqual(3600_000);

    const first = await play(grant.url, viewer.token, 'bytes=0-1023');
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-1023/${bodies.get(id)!.length}`);
    expect(first.headers['content-disposition']).toBe('inline');
    expect(first.body.equals(bodies.get(id)!.subarray(0, 1024))).toBe(true);
    const seek = await play(grant.url, viewer.token, 'bytes=40000-');
    expect(seek.status).toBe(206);
    expect(seek.body.equals(bodies.get(id)!.subarray(40000))).toBe(true);
  });

  it('refuses the link without the cookie, with another session’s cookie, and once the key is revoked (at the next Range request)', async () => {
    const id = await save(ownerId, 'Only for my family');
    const viewer = viewers.issue(ownerId, ['timeline']);
    const { url } = await link(id, viewer);

    const copied = await play(url, undefined, 'bytes=0-9');
    expect([copied.status, copied.json()]).toEqual([403, { code: 'FORBIDDEN', message: ViewerLinkMessages.noViewer }]);
    const someoneElse = viewers.issue(ownerId, ['timeline']);
    const foreign = await play(url, someoneElse.token, 'bytes=0-9');
    expect([foreign.status, foreign.json<{ message: string }>().message]).toEqual([403, ViewerLinkMessages.otherSession]);
    const expired = await play(url, viewers.expired(ownerId, ['timeline']).token, 'bytes=0-9');
    expect(expired.status).toBe(403);

    expect((await play(url, viewer.token, 'bytes=0-9')).status).toBe(206);
    await viewers.revoke(viewer.viewSessionId);
    const after = await play(url, viewer.token, 'bytes=10-19');
    expect([after.status, after.json()]).toEqual([403, { code: 'FORBIDDEN', message: ViewerLinkMessages.accessEnded }]);
    expect(await codeOf(link(id, viewer))).toBe('SESSION_EXPIRED');
  });

  it('refuses an altered link and answers 403 (never 500) for a malformed id or query', async () => {
    const id = await save(ownerId, 'Tamper test');
    const viewer = viewers.issue(ownerId, ['timeline']);
    const { url } = await link(id, viewer);
    const altered = url.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await play(altered, viewer.token)).status).toBe(403);
    expect((await play(url.replace(id, 'not-an-id'), viewer.token)).status).toBe(403);
    expect((await play(`/api/view/media/${id}?s=x&exp=y`, viewer.token)).status).toBe(403);
    expect(await codeOf(rpc.call(VaultMediaRpc.viewerLink.subject, { id: 'nope' }, viewer.token))).toBe('NOT_FOUND');
  });

  it('refuses a key without the section (letters only: 403) and another vault’s item (404), by RPC and by HTTP', async () => {
    const id = await save(ownerId, 'Timeline only');
    const lettersOnly = viewers.issue(ownerId, ['letters']);
    expect(await codeOf(link(id, lettersOnly))).toBe('FORBIDDEN');
    // A link made for a viewer who holds the section, presented by a viewer whose key lacks it, is refused too.
    const portraitOnly = viewers.issue(ownerId, ['who-i-am']);
    expect(await codeOf(link(id, portraitOnly))).toBe('FORBIDDEN');

    const strangerItem = await save(otherOwnerId, 'Another vault');
    const viewer = viewers.issue(ownerId, ['timeline']);
    expect(await codeOf(link(strangerItem, viewer))).toBe('NOT_FOUND');
    const theirs = await link(strangerItem, viewers.issue(otherOwnerId, ['timeline']));
    const signedForMe = theirs.url.replace(/s=[^&]+/, `s=${viewer.viewSessionId}`);
    expect((await play(signedForMe, viewer.token)).status).toBe(403);
  });

  it('shows a timeline viewer a video’s poster through a link that opens the poster only; refuses it out of scope, and while there is none', async () => {
    const id = await save(ownerId, 'Beach day');
    const viewer = viewers.issue(ownerId, ['timeline']);
    // Pending: no poster yet.
    expect(await codeOf(posterLink(id, viewer))).toBe('NOT_FOUND');
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).jpeg().toBuffer();
    await transcoded(id, jpeg);

    // The timeline's title lookup (the owner's and the viewer's lists) now tells the poster and length.
    const pendingOne = await save(ownerId, 'Not converted yet');
    expect(await rpc.call(VaultMediaRpc.titles.subject, { ids: [id, pendingOne] }, viewer.token)).toEqual({
      titles: { [id]: 'Beach day', [pendingOne]: 'Not converted yet' }, playback: { [id]: { poster: true, duration_seconds: 65 } },
    });

    const grant = await posterLink(id, viewer);
    expect(grant).toMatchObject({ contentType: 'image/jpeg', mediaKind: 'image', title: 'Beach day', downloadUrl: null, section: 'timeline' });
    expect(grant.url).toMatch(new RegExp(`^/api/view/media/${id}\\?s=${viewer.viewSessionId}&exp=\\d+&sig=[^&]+&poster=1$`));
    const poster = await play(grant.url, viewer.token);
    expect([poster.status, poster.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(poster.body.equals(jpeg)).toBe(true);
    // The poster link opens nothing else, and a recording's link is no poster link.
    expect((await play(grant.url.replace('&poster=1', ''), viewer.token, 'bytes=0-9')).status).toBe(403);
    expect((await play(`${(await link(id, viewer)).url}&poster=1`, viewer.token)).status).toBe(403);
    expect((await play(grant.url, viewers.issue(ownerId, ['timeline']).token)).status).toBe(403);

    // Out of scope: a key without the timeline (letters only, Who I Am only), and another vault's key.
    expect(await codeOf(posterLink(id, viewers.issue(ownerId, ['letters'])))).toBe('FORBIDDEN');
    expect(await codeOf(posterLink(id, viewers.issue(ownerId, ['who-i-am'])))).toBe('FORBIDDEN');
    expect(await codeOf(posterLink(id, viewers.issue(otherOwnerId, ['timeline'])))).toBe('NOT_FOUND');
    // A key revoked: the poster stops at the next request.
    await viewers.revoke(viewer.viewSessionId);
    expect((await play(grant.url, viewer.token)).status).toBe(403);
  });

  it('refuses an owner’s token on the viewer RPC', async () => {
    const id = await save(ownerId, 'Owner plays elsewhere');
    expect(await codeOf(rpc.call(VaultMediaRpc.viewerLink.subject, { id }, h.tokenFor(ownerId)))).toBe('FORBIDDEN');
  });

  it('plays Who I Am media for a who-i-am key, and final messages only while access-keys says they are open', async () => {
    const portrait = await save(ownerId, 'My workshop', 'who-i-am');
    const family = viewers.issue(ownerId, ['who-i-am']);
    expect(await link(portrait, family)).toMatchObject({ section: 'who-i-am', title: 'My workshop' });
    expect(await codeOf(link(portrait, viewers.issue(ownerId, ['timeline'])))).toBe('FORBIDDEN');

    const finalMessage = await save(ownerId, 'If you are watching this', 'final-messages');
    const contact = viewers.issue(ownerId, ['if-im-not-there']);
    finalsOpen = false;
    expect(await codeOf(link(finalMessage, contact))).toBe('FORBIDDEN');
    finalsOpen = true;
    const grant = await link(finalMessage, contact);
    expect(grant.section).toBe('if-im-not-there');
    expect((await play(grant.url, contact.token, 'bytes=0-9')).status).toBe(206);
    // The owner switches the preview off: the next request is refused.
    finalsOpen = false;
    const closed = await play(grant.url, contact.token, 'bytes=10-19');
    expect([closed.status, closed.json<{ message: string }>().message]).toEqual([403, ViewerLinkMessages.finalMessageClosed]);
  });

  describe('pictures tell nothing more than the picture', () => {
    const GPS_IFD_POINTER = 0x8825;
    /** Whether raw EXIF (a TIFF block, as sharp's metadata() gives it) has a GPS block: IFD0's GPS pointer tag. */
    function hasGpsBlock(exif: Buffer | undefined): boolean {
      if (!exif) return false;
      const tiff = exif.subarray(exif.indexOf('Exif\0\0') === 0 ? 6 : 0);
      const little = tiff.toString('latin1', 0, 2) === 'II';
      const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
      const ifd0 = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
      return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12)).includes(GPS_IFD_POINTER);
    }

    /** A phone's photo: its camera, its position (the house it was taken in), XMP, and turned on its side (EXIF orientation 6). */
    const phonePhoto = (format: 'jpeg' | 'png' | 'webp', shade: number) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 120, b: 60 } } })
        .withExif({
          IFD0: { Make: 'AcmePhone', Model: 'Acme 15 Pro' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 700/100' },
        })
        .withMetadata({ orientation: 6 })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.4N"/></rdf:RDF></x:xmpmeta>')
        .toFormat(format)
        .toBuffer();

    it('shows a viewer the GPS-tagged profile photo with no location, camera or XMP, upright; the owner keeps the original byte for byte', async () => {
      const original = await phonePhoto('jpeg', 200);
      const before = await sharp(original).metadata();
      // The spec's photo really carries what must not leak.
      expect([hasGpsBlock(before.exif), before.exif?.includes('AcmePhone'), Boolean(before.xmp), before.orientation]).toEqual([true, true, true, 6]);
      const id = await savePicture(ownerId, original, 'who-i-am-photo');

      const family = viewers.issue(ownerId, ['who-i-am']);
      const grant = await link(id, family);
      expect(grant).toMatchObject({ contentType: 'image/jpeg', mediaKind: 'image', title: 'Profile photo' });
      const shown = await play(grant.url, family.token);
      expect(shown.status).toBe(200);
      expect(shown.headers['content-type']).toBe('image/jpeg');
      expect(Number(shown.headers['content-length'])).toBe(shown.body.length);
      const seen = await sharp(shown.body).metadata();
      expect({ format: seen.format, exif: seen.exif, xmp: seen.xmp, iptc: seen.iptc, orientation: seen.orientation, gps: hasGpsBlock(seen.exif) })
        .toEqual({ format: 'jpeg', exif: undefined, xmp: undefined, iptc: undefined, orientation: undefined, gps: false });
      expect(shown.body.includes('AcmePhone')).toBe(false);
      // Turned upright: the orientation is in the pixels now.
      expect([seen.width, seen.height]).toEqual([48, 64]);
      // A Range of the cleaned picture is a Range of the same cleaned bytes.
      const part = await play(grant.url, family.token, 'bytes=0-99');
      expect([part.status, part.headers['content-range']]).toEqual([206, `bytes 0-99/${shown.body.length}`]);
      expect(part.body.equals(shown.body.subarray(0, 100))).toBe(true);

      // The owner's own playback is the original, metadata and all.
      const ownerGrant = await rpc.call<PlaybackGrant>(VaultMediaRpc.playbackLink.subject, { id }, h.tokenFor(ownerId));
      const mine = await sendHttp(`${h.mediaUrl}${ownerGrant.url.replace('/api/media/play/', '/media/')}`, { headers: { 'x-lv-media-binding': ownerGrant.binding.value } });
      expect(sha(mine.body)).toBe(sha(original));
    });

    it.each(['png', 'webp'] as const)('shows a personal %s image without its metadata, in its own format', async (format) => {
      const id = await savePicture(ownerId, await phonePhoto(format, format === 'png' ? 10 : 20), 'who-i-am', `image/${format}`);
      const family = viewers.issue(ownerId, ['who-i-am']);
      const shown = await play((await link(id, family)).url, family.token);
      expect(shown.headers['content-type']).toBe(`image/${format}`);
      const seen = await sharp(shown.body).metadata();
      expect({ format: seen.format, exif: seen.exif, xmp: seen.xmp }).toEqual({ format, exif: undefined, xmp: undefined });
    });

    it('refuses, in words, to show a picture it cannot read rather than serve it with its metadata', async () => {
      // JPEG's magic bytes (the upload check passes), then nothing a decoder can read, and a GPS-looking tail.
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), Buffer.from(`Exif GPS 48.8566N 2.3522E ${randomUUID()}`)]);
      const id = await savePicture(ownerId, broken, 'who-i-am');
      const family = viewers.issue(ownerId, ['who-i-am']);
      const refused = await play((await link(id, family)).url, family.token);
      expect([refused.status, refused.json()]).toEqual([415, { code: 'UNSUPPORTED_MEDIA', message: MediaMessages.pictureUnreadable }]);
    });
  });

  it('gives a download link only to a key that allows downloads, and refuses a download link without the permission', async () => {
    const id = await save(ownerId, 'Keep this');
    const viewOnly = viewers.issue(ownerId, ['timeline']);
    expect((await link(id, viewOnly)).downloadUrl).toBeNull();
    const downloader = viewers.issue(ownerId, ['timeline'], undefined, undefined, true);
    const grant = await link(id, downloader);
    expect(grant.downloadUrl).toMatch(/&dl=1&sig=/);
    const file = await play(grant.downloadUrl!, downloader.token);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''video_\d+\.webm$/);
    expect(file.body.equals(bodies.get(id)!)).toBe(true);
    // The same download link presented with a view-only token of that very session is refused.
    const sameSessionViewOnly = viewers.issueFor(downloader.viewSessionId, ownerId, ['timeline'], false);
    const refused = await play(grant.downloadUrl!, sameSessionViewOnly.token);
    expect([refused.status, refused.json<{ message: string }>().message]).toEqual([403, ViewerLinkMessages.downloadNotAllowed]);
  });
});
