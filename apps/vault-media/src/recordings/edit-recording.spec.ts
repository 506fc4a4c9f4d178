import { MediaMessages } from '@lv/contracts';
import { member, mediaWorld } from '../../test/test-support/in-memory-media.js';
import { savedRecording } from '../../test/test-support/saved-recording.js';
import { sweepUploads } from '../uploads/upload-cleanup.js';
import { deleteRecording, retitleRecording } from './edit-recording.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');

describe('deleteRecording', () => {
  it('deletes the recording, then its object', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    expect(await deleteRecording(world.ports)(owner, recording.id.toUpperCase())).toEqual({ id: recording.id, deleted: true });
    expect(await world.recordings.find(recording.id)).toBeNull();
    expect(world.storage.has('vaultmedia', recording.file_path)).toBe(false);
    expect(world.streams.typesOf(recording.id).at(-1)).toBe('RecordingDeleted');
  });

  it("answers not found for someone else's recording (deleted or not) and for one that never was, and a malformed id is a validation error", async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await expect(deleteRecording(world.ports)(other, recording.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: MediaMessages.notFound });
    expect(await world.recordings.find(recording.id)).not.toBeNull();
    await deleteRecording(world.ports)(owner, recording.id);
    await expect(deleteRecording(world.ports)(other, recording.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: MediaMessages.notFound });
    await expect(deleteRecording(world.ports)(owner, '33333333-3333-4333-8333-333333333333')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteRecording(world.ports)(owner, 'entry-1')).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: MediaMessages.invalidEntryId });
  });

  it('answers its owner’s delete sent again (issue 30: the first answer was lost) as the delete was, recording nothing more', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await deleteRecording(world.ports)(owner, recording.id);
    await expect(deleteRecording(world.ports)(owner, recording.id)).resolves.toEqual({ id: recording.id, deleted: true });
    expect(world.streams.typesOf(recording.id).filter((type) => type === 'RecordingDeleted')).toHaveLength(1);
    expect(world.storage.has('vaultmedia', recording.file_path)).toBe(false);
  });

  it('finishes removing the object when the delete sent again finds it left behind', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    world.storage.failRemovals = true;
    await deleteRecording(world.ports)(owner, recording.id);
    world.storage.failRemovals = false;
    await expect(deleteRecording(world.ports)(owner, recording.id)).resolves.toEqual({ id: recording.id, deleted: true });
    expect(world.storage.has('vaultmedia', recording.file_path)).toBe(false);
    expect((await world.objects.find(recording.id))?.state).toBe('removed');
  });

  it('still deletes when storage is down: the object is left for the sweeper', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    world.storage.failRemovals = true;
    await expect(deleteRecording(world.ports)(owner, recording.id)).resolves.toEqual({ id: recording.id, deleted: true });
    expect(await world.recordings.find(recording.id)).toBeNull();
    expect((await world.objects.find(recording.id))?.state).toBe('removing');
    world.storage.failRemovals = false;
    world.advance(60_000);
    expect((await sweepUploads(world.ports)()).removed).toBe(1);
    expect(world.storage.has('vaultmedia', recording.file_path)).toBe(false);
  });
});

describe('retitleRecording', () => {
  it('gives the recording its new title', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    expect((await retitleRecording(world.ports)(owner, recording.id, '  For Alex ')).title).toBe('For Alex');
    expect((await world.recordings.find(recording.id))?.title).toBe('For Alex');
  });

  it('records nothing for the same title again', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await retitleRecording(world.ports)(owner, recording.id, 'For Sam');
    expect(world.streams.typesOf(recording.id)).toEqual(['RecordingUploadStarted', 'RecordingSaved']);
  });

  it("refuses an empty title before looking the item up, and answers not found for someone else's", async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await expect(retitleRecording(world.ports)(other, recording.id, '')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(retitleRecording(world.ports)(other, recording.id, 'Mine now')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await world.recordings.find(recording.id))?.title).toBe('For Sam');
  });
});
