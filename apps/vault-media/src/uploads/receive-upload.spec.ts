import { jest } from '@jest/globals';
import { MediaMessages } from '@lv/contracts';
import { bodyOf, member, mediaWorld, png, uploadRequest, webm, type MediaWorld } from '../../test/test-support/in-memory-media.js';
import { receiveUpload } from './receive-upload.js';
import { startUpload } from './start-upload.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');

async function opened(world: MediaWorld, file = webm('a'), fields = {}) {
  return { file, ticket: await startUpload(world.ports)(owner, uploadRequest(file, fields)) };
}

describe('receiveUpload', () => {
  it('stores the object, then saves the recording: the read model answers with it', async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    const recording = await receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
    expect(recording).toMatchObject({ id: ticket.uploadId, title: 'For Sam', size: file.size, blob_hash: file.sha256, collection: 'vault', integrity: 'pending' });
    expect(world.storage.has('vaultmedia', ticket.objectKey)).toBe(true);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('stored');
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingSaved']);
  });

  it("answers not found for someone else's upload and for a malformed or unknown id, without touching it", async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    for (const [caller, id] of [[other, ticket.uploadId], [owner, 'not-a-uuid'], [owner, '33333333-3333-4333-8333-333333333333']] as const) {
      await expect(receiveUpload(world.ports)(caller, id, bodyOf(file.body))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('pending');
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body))).resolves.toHaveProperty('id', ticket.uploadId);
  });

  it('answers the same PUT sent again after it saved (issue 30: its answer was lost) with the saved recording, storing and recording nothing more', async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    const first = await receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body))).resolves.toEqual(first);
    expect(world.storage.has('vaultmedia', ticket.objectKey)).toBe(true);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('stored');
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingSaved']);
    // Someone else's PUT to it is still not found.
    await expect(receiveUpload(world.ports)(other, ticket.uploadId, bodyOf(file.body))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets one request take an upload: a second one at the same time is a conflict', async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    await world.objects.claimForUpload(ticket.uploadId);
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body))).rejects.toMatchObject({ code: 'CONFLICT', message: MediaMessages.uploadInProgress });
  });

  it('closes the upload and removes what reached storage when the bytes are not the ones announced', async () => {
    const world = mediaWorld();
    const { ticket } = await opened(world);
    const damaged = webm('z');
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(damaged.body))).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    expect(world.streams.typesOf(ticket.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);
    expect(world.storage.has('vaultmedia', ticket.objectKey)).toBe(false);
    expect((await world.objects.find(ticket.uploadId))?.state).toBe('removed');
    expect(await world.recordings.find(ticket.uploadId)).toBeNull();
    // Closed for good: the same body again is too late.
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(webm('a').body))).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
  });

  it('refuses a body that is not WebM before storage keeps any of it', async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    const notWebm = Buffer.from(file.body);
    notWebm.set([0, 0, 0, 0], 0);
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(notWebm))).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA' });
    expect(world.storage.objects.size).toBe(0);
    expect(world.streams.typesOf(ticket.uploadId)).toContain('RecordingUploadAbandoned');
  });

  it('refuses an announced length over the limit before reading the body', async () => {
    const world = mediaWorld();
    const { file, ticket } = await opened(world);
    await expect(receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body), { contentLength: world.ports.maxUploadBytes + 1 })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(world.storage.objects.size).toBe(0);
  });

  it('turns the loser of two uploads of the same content into a duplicate, and removes its object', async () => {
    const world = mediaWorld();
    const file = webm('a');
    // Both opened before either was saved: the early check could not see the other.
    const first = await startUpload(world.ports)(owner, uploadRequest(file));
    const second = await startUpload(world.ports)(owner, uploadRequest(file));
    await receiveUpload(world.ports)(owner, first.uploadId, bodyOf(file.body));
    await expect(receiveUpload(world.ports)(owner, second.uploadId, bodyOf(file.body))).rejects.toMatchObject({ code: 'DUPLICATE_MEDIA' });
    expect(world.storage.has('vaultmedia', first.objectKey)).toBe(true);
    expect(world.storage.has('vaultmedia', second.objectKey)).toBe(false);
    expect(world.streams.typesOf(second.uploadId)).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);
  });

  it('replaces the profile photo: the older one goes, object and all, once the new one is saved', async () => {
    const world = mediaWorld();
    const older = png('o');
    const newer = png('n');
    const fields = { collection: 'who-i-am-photo' as const, type: 'image' as const, contentType: 'image/png' };
    const first = await opened(world, older, fields);
    await receiveUpload(world.ports)(owner, first.ticket.uploadId, bodyOf(older.body));
    world.advance(1000);
    const second = await opened(world, newer, fields);
    await receiveUpload(world.ports)(owner, second.ticket.uploadId, bodyOf(newer.body));
    expect((await world.recordings.listCollections(owner.userId, ['who-i-am-photo'], 10)).map((r) => r.id)).toEqual([second.ticket.uploadId]);
    expect(world.storage.has('vaultmedia', first.ticket.objectKey)).toBe(false);
    expect(world.streams.typesOf(first.ticket.uploadId)).toContain('RecordingDeleted');
  });

  describe('heartbeat (what keeps the sweeper away)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const countBeats = (world: MediaWorld) => {
      const beats: number[] = [];
      const beat = world.objects.heartbeat.bind(world.objects);
      world.objects.heartbeat = async (id, bytes) => {
        beats.push(bytes);
        await beat(id, bytes);
      };
      return beats;
    };
    const staleWindowMs = (world: MediaWorld) => world.ports.uploadStaleSeconds * 1000;

    it('beats while the server is busy completing the object, though no byte arrives', async () => {
      const world = mediaWorld();
      const beats = countBeats(world);
      const { file, ticket } = await opened(world);
      let atCompletion!: () => void;
      const reachedCompletion = new Promise<void>((resolve) => (atCompletion = resolve));
      let complete!: () => void;
      world.storage.holdCompletion = () => {
        atCompletion();
        return new Promise<void>((resolve) => (complete = resolve));
      };
      const saving = receiveUpload(world.ports)(owner, ticket.uploadId, bodyOf(file.body));
      await reachedCompletion;
      const before = beats.length;
      await jest.advanceTimersByTimeAsync(2 * staleWindowMs(world));
      expect(beats.length - before).toBeGreaterThanOrEqual(4);
      complete();
      await expect(saving).resolves.toHaveProperty('id', ticket.uploadId);
      // Stopped with the upload: nothing beats for a finished one.
      const after = beats.length;
      await jest.advanceTimersByTimeAsync(2 * staleWindowMs(world));
      expect(beats.length).toBe(after);
    });

    it('does not beat while the server waits on a client that sends nothing, so the sweeper can close it', async () => {
      const world = mediaWorld();
      const beats = countBeats(world);
      const { file, ticket } = await opened(world);
      let atSilence!: () => void;
      const clientFellSilent = new Promise<void>((resolve) => (atSilence = resolve));
      let speak!: () => void;
      const clientSpeaks = new Promise<void>((resolve) => (speak = resolve));
      async function* stallingClient() {
        yield file.body.subarray(0, 8);
        atSilence();
        await clientSpeaks;
        yield file.body.subarray(8);
      }
      const saving = receiveUpload(world.ports)(owner, ticket.uploadId, stallingClient());
      await clientFellSilent;
      // One beat may still count the bytes that came before the silence; then none.
      await jest.advanceTimersByTimeAsync(staleWindowMs(world) / 4);
      const before = beats.length;
      await jest.advanceTimersByTimeAsync(2 * staleWindowMs(world));
      expect(beats.length).toBe(before);
      speak();
      await jest.advanceTimersByTimeAsync(staleWindowMs(world) / 4);
      await expect(saving).resolves.toHaveProperty('size', file.size);
    });
  });
});
