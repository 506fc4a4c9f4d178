import { MediaMessages } from '@lv/contracts';
import { MIN_PART_SIZE } from '@lv/platform/storage';
import { bodyOf, member, mediaWorld, uploadRequest, webm, type MediaWorld } from '../../test/test-support/in-memory-media.js';
import { receiveUpload } from './receive-upload.js';
import { resumableUploads } from './resumable-upload.js';
import { startUpload } from './start-upload.js';
import { sweepUploads } from './upload-cleanup.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');
const PART = MIN_PART_SIZE;

async function opened(world: MediaWorld, size: number, seed = 'a') {
  const file = webm(seed, size);
  return { file, ticket: await startUpload(world.ports)(owner, uploadRequest(file)) };
}

/** A body that yields `bytes` in 64 KiB pieces, then fails as a dropped connection does. */
async function* cutAfter(bytes: Buffer): AsyncIterable<Buffer> {
  for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, Math.min(bytes.length, at + 65536));
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

describe('resumableUploads', () => {
  it('goes on from the last whole part after each cut, and saves the object whole with the hash announced', async () => {
    const world = mediaWorld({ maxUploadBytes: 64 * 1024 * 1024, partSize: PART });
    const { file, ticket } = await opened(world, 3 * PART + 12345);
    const uploads = resumableUploads(world.ports);

    // Cut 1 MiB into the second part: only the first part is kept.
    const first = await uploads.append(owner, ticket.uploadId, 0, cutAfter(file.body.subarray(0, PART + 1024 * 1024)));
    expect(first).toEqual({ size: file.size, offset: PART });
    expect(await uploads.status(owner, ticket.uploadId)).toEqual({ size: file.size, offset: PART });
    // Cut again a part and a half on: the whole part is kept, the half (under the smallest part storage takes) is sent again.
    const second = await uploads.append(owner, ticket.uploadId, PART, cutAfter(file.body.subarray(PART, 2 * PART + PART / 2)));
    expect(second.offset).toBe(2 * PART);
    const last = await uploads.append(owner, ticket.uploadId, 2 * PART, bodyOf(file.body.subarray(2 * PART)));
    expect(last.offset).toBe(file.size);
    expect(last.recording).toMatchObject({ id: ticket.uploadId, size: file.size, blob_hash: file.sha256 });
    expect(world.storage.objects.get(`vaultmedia/${ticket.objectKey}`)?.equals(file.body)).toBe(true);
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingSaved']);
    // Asked again (a client that lost the last answer): complete, with the recording.
    expect(await uploads.status(owner, ticket.uploadId)).toMatchObject({ offset: file.size, recording: { id: ticket.uploadId } });
  });

  it('keeps a cut piece of at least the smallest part storage takes, and a whole small file in one request', async () => {
    const world = mediaWorld({ maxUploadBytes: 64 * 1024 * 1024, partSize: 2 * PART });
    const { file, ticket } = await opened(world, 3 * PART);
    const uploads = resumableUploads(world.ports);
    expect((await uploads.append(owner, ticket.uploadId, 0, cutAfter(file.body.subarray(0, PART + 10)))).offset).toBe(PART + 10);
    expect((await uploads.append(owner, ticket.uploadId, PART + 10, bodyOf(file.body.subarray(PART + 10)))).recording).toMatchObject({ blob_hash: file.sha256 });

    const small = await opened(world, 300, 'b');
    expect((await uploads.append(owner, small.ticket.uploadId, 0, bodyOf(small.file.body))).recording).toMatchObject({ size: 300, blob_hash: small.file.sha256 });
  });

  it('goes on in another replica (no running hash there): the completed object is read back to hash it', async () => {
    const world = mediaWorld({ maxUploadBytes: 64 * 1024 * 1024, partSize: PART });
    const { file, ticket } = await opened(world, 2 * PART + 99);
    expect((await resumableUploads(world.ports).append(owner, ticket.uploadId, 0, cutAfter(file.body.subarray(0, PART + 5)))).offset).toBe(PART);
    const otherReplica = resumableUploads(world.ports);
    expect((await otherReplica.append(owner, ticket.uploadId, PART, bodyOf(file.body.subarray(PART)))).recording).toMatchObject({ blob_hash: file.sha256 });
    // And bytes that are not the ones announced are found out the same way.
    const damaged = await opened(world, 2 * PART, 'x');
    await resumableUploads(world.ports).append(owner, damaged.ticket.uploadId, 0, cutAfter(damaged.file.body.subarray(0, PART)));
    const altered = Buffer.from(damaged.file.body.subarray(PART));
    altered.writeUInt8(altered.readUInt8(10) ^ 1, 10);
    await expect(resumableUploads(world.ports).append(owner, damaged.ticket.uploadId, PART, bodyOf(altered))).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
  });

  it("refuses someone else's upload, a wrong offset and a single PUT's upload; the owner's goes on untouched", async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world, 1000);
    const uploads = resumableUploads(world.ports);
    await expect(uploads.status(other, ticket.uploadId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(uploads.append(other, ticket.uploadId, 0, bodyOf(file.body))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(uploads.cancel(other, ticket.uploadId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(uploads.append(owner, ticket.uploadId, 10, bodyOf(file.body.subarray(10)))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await uploads.append(owner, ticket.uploadId, 0, bodyOf(file.body))).recording).toMatchObject({ blob_hash: file.sha256 });

    const put = await opened(world, 1000, 'c');
    await world.objects.claimForUpload(put.ticket.uploadId);
    await expect(uploads.append(owner, put.ticket.uploadId, 0, bodyOf(put.file.body))).rejects.toMatchObject({ code: 'CONFLICT', message: MediaMessages.uploadInProgress });
  });

  it('checks the format before storing a byte, and a body past the announced size; both close the upload', async () => {
    const world = mediaWorld();
    const uploads = resumableUploads(world.ports);
    const { file, ticket } = await opened(world, 1000);
    const notWebm = Buffer.from(file.body);
    notWebm[0] = 0;
    await expect(uploads.append(owner, ticket.uploadId, 0, bodyOf(notWebm))).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA' });
    expect(world.storage.openMultiparts.size).toBe(0);
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);

    const long = await opened(world, 1000, 'd');
    await expect(uploads.append(owner, long.ticket.uploadId, 0, bodyOf(Buffer.concat([long.file.body, Buffer.alloc(1)])))).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    await expect(uploads.status(owner, long.ticket.uploadId)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
  });

  it('calls bytes that are not the ones hashed damaged; the owner can cancel; a single PUT cannot take a resumable upload', async () => {
    const world = mediaWorld({ maxUploadBytes: 64 * 1024 * 1024, partSize: PART });
    const uploads = resumableUploads(world.ports);
    const { ticket } = await opened(world, 1000);
    await expect(uploads.append(owner, ticket.uploadId, 0, bodyOf(webm('z', 1000).body))).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });

    const cancelled = await opened(world, 3 * PART, 'e');
    await uploads.append(owner, cancelled.ticket.uploadId, 0, cutAfter(cancelled.file.body.subarray(0, PART + 1)));
    await expect(receiveUpload(world.ports)(owner, cancelled.ticket.uploadId, bodyOf(cancelled.file.body))).rejects.toMatchObject({ code: 'CONFLICT' });
    await uploads.cancel(owner, cancelled.ticket.uploadId);
    // Both uploads' parts are gone: the damaged one's and the cancelled one's.
    expect(world.storage.abortedMultiparts).toHaveLength(2);
    expect(world.storage.openMultiparts.size).toBe(0);
    await expect(uploads.status(owner, cancelled.ticket.uploadId)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
  });

  it('waits a day for a resumable upload before sweeping it, where a single PUT is swept after its stale window', async () => {
    const world = mediaWorld({ maxUploadBytes: 64 * 1024 * 1024, partSize: PART, uploadStaleSeconds: 60 });
    const uploads = resumableUploads(world.ports);
    const resumed = await opened(world, 2 * PART, 'f');
    await uploads.append(owner, resumed.ticket.uploadId, 0, cutAfter(resumed.file.body.subarray(0, PART)));
    const put = await opened(world, 1000, 'g');
    await world.objects.claimForUpload(put.ticket.uploadId);
    world.advance(2 * 60_000);
    expect(await sweepUploads(world.ports)()).toMatchObject({ abandoned: 1 });
    expect((await uploads.status(owner, resumed.ticket.uploadId)).offset).toBe(PART);
    world.advance(24 * 3600_000);
    expect(await sweepUploads(world.ports)()).toMatchObject({ abandoned: 1 });
    await expect(uploads.status(owner, resumed.ticket.uploadId)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
  });
});
