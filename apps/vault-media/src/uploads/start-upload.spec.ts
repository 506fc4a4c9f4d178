import { MediaMessages } from '@lv/contracts';
import { member, mediaWorld, uploadRequest, webm, bodyOf } from '../../test/test-support/in-memory-media.js';
import { receiveUpload } from './receive-upload.js';
import { startUpload } from './start-upload.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');

describe('startUpload', () => {
  it('opens an upload: a pending object under the owner, at a key of its own, and the stream started', async () => {
    const world = mediaWorld();
    const file = webm('a');
    const ticket = await startUpload(world.ports)(owner, uploadRequest(file));
    expect(ticket).toEqual({
      uploadId: ticket.uploadId, uploadUrl: `/api/media/uploads/${ticket.uploadId}`, resumableUrl: `/api/media/tus/${ticket.uploadId}`, objectKey: `${owner.userId}/video_${Date.parse('2026-12-01T10:00:00.000Z')}.webm`,
      contentType: 'video/webm', maxBytes: world.ports.maxUploadBytes,
    });
    expect(await world.objects.find(ticket.uploadId)).toMatchObject({ state: 'pending', user_id: owner.userId, object_key: ticket.objectKey });
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted']);
    expect(world.streams.metadata[0]?.actor).toEqual({ kind: 'user', id: owner.userId });
  });

  it('takes the next millisecond when the key is already taken, leaving nothing of the refused attempt', async () => {
    const world = mediaWorld();
    const first = await startUpload(world.ports)(owner, uploadRequest(webm('a')));
    const second = await startUpload(world.ports)(owner, uploadRequest(webm('b')));
    expect(second.objectKey).toBe(`${owner.userId}/video_${Date.parse('2026-12-01T10:00:00.000Z') + 1}.webm`);
    expect(second.objectKey).not.toBe(first.objectKey);
    expect(world.streams.typesOf(second.uploadId)).toEqual(['RecordingUploadStarted']);
    expect(world.objects.rows.size).toBe(2);
  });

  it("refuses the owner's same recording again before a byte is sent, but not someone else's copy of it", async () => {
    const world = mediaWorld();
    const file = webm('a');
    const ticket = await startUpload(world.ports)(owner, uploadRequest(file));
    await receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
    await expect(startUpload(world.ports)(owner, uploadRequest(file, { title: 'Again' }))).rejects.toMatchObject({ code: 'DUPLICATE_MEDIA', message: MediaMessages.duplicate });
    await expect(startUpload(world.ports)(other, uploadRequest(file))).resolves.toHaveProperty('uploadId');
    // The duplicate rule is per collection: the same file may also be a final message.
    await expect(startUpload(world.ports)(owner, uploadRequest(file, { collection: 'final-messages' }))).resolves.toHaveProperty('uploadId');
  });

  it('opens nothing when the request is refused', async () => {
    const world = mediaWorld({ maxUploadBytes: 10 });
    await expect(startUpload(world.ports)(owner, uploadRequest(webm('a')))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(startUpload(world.ports)(member(owner.userId, 'none'), uploadRequest(webm('a', 8), { type: 'audio' }))).rejects.toMatchObject({ code: 'UPGRADE_REQUIRED' });
    expect(world.streams.events.size).toBe(0);
    expect(world.objects.rows.size).toBe(0);
  });
});
