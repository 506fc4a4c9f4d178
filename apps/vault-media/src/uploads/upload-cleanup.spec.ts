import { bodyOf, member, mediaWorld, uploadRequest, webm } from '../../test/test-support/in-memory-media.js';
import { receiveUpload } from './receive-upload.js';
import { startUpload } from './start-upload.js';
import { discardUpload, sweepUploads } from './upload-cleanup.js';

const owner = member('11111111-1111-4111-8111-111111111111');

describe('sweepUploads', () => {
  it('abandons an upload with no progress for the stale period, and only then', async () => {
    const world = mediaWorld({ uploadStaleSeconds: 60 });
    const ticket = await startUpload(world.ports)(owner, uploadRequest(webm('a')));
    world.advance(59_000);
    expect(await sweepUploads(world.ports)()).toEqual({ abandoned: 0, removed: 0 });
    world.advance(2_000);
    expect(await sweepUploads(world.ports)()).toEqual({ abandoned: 1, removed: 0 });
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);
    expect(world.streams.metadata.at(-1)?.actor).toEqual({ kind: 'system', id: 'vault-media' });
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('removed');
    expect(world.logs.some((line) => line.msg === 'sweeper cleaned up after dead uploads')).toBe(true);
  });

  it('aborts the multipart upload a dead process left behind', async () => {
    const world = mediaWorld({ uploadStaleSeconds: 60 });
    const ticket = await startUpload(world.ports)(owner, uploadRequest(webm('a')));
    await world.objects.claimForUpload(ticket.uploadId);
    await world.objects.recordMultipartUpload(ticket.uploadId, 'left-open');
    world.advance(61_000);
    expect((await sweepUploads(world.ports)()).abandoned).toBe(1);
    expect(world.storage.abortedMultiparts).toEqual(['left-open']);
  });

  it('leaves saved recordings alone, however old', async () => {
    const world = mediaWorld({ uploadStaleSeconds: 60 });
    const file = webm('a');
    const ticket = await startUpload(world.ports)(owner, uploadRequest(file));
    await receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
    world.advance(3600_000);
    expect(await sweepUploads(world.ports)()).toEqual({ abandoned: 0, removed: 0 });
    expect(world.storage.has('vaultmedia', ticket.objectKey)).toBe(true);
  });

  it('finishes a removal storage refused earlier, once the grace period is over', async () => {
    const world = mediaWorld({ uploadStaleSeconds: 60 });
    const ticket = await startUpload(world.ports)(owner, uploadRequest(webm('a')));
    world.advance(61_000);
    world.storage.failRemovals = true;
    expect((await sweepUploads(world.ports)()).abandoned).toBe(0);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('removing');
    world.storage.failRemovals = false;
    world.advance(10_000);
    expect((await sweepUploads(world.ports)()).removed).toBe(0);
    world.advance(30_000);
    expect((await sweepUploads(world.ports)()).removed).toBe(1);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('removed');
  });
});

describe('discardUpload', () => {
  it('closes an open upload once: a second discard finds nothing to do', async () => {
    const world = mediaWorld();
    const ticket = await startUpload(world.ports)(owner, uploadRequest(webm('a')));
    expect(await discardUpload(world.ports)(ticket.uploadId, 'the client went away')).toBe(true);
    expect(await discardUpload(world.ports)(ticket.uploadId, 'again')).toBe(false);
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);
  });

  it('never takes the object of a recording saved in the meantime', async () => {
    const world = mediaWorld();
    const file = webm('a');
    const ticket = await startUpload(world.ports)(owner, uploadRequest(file));
    await receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
    expect(await discardUpload(world.ports)(ticket.uploadId, 'late sweeper', { objectMayExist: true })).toBe(false);
    expect(world.storage.has('vaultmedia', ticket.objectKey)).toBe(true);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('stored');
  });
});
