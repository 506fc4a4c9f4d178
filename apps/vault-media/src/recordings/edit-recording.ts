import { isUuid, MediaMessages, validateRecordingTitle, type DeleteEntryReply, type Recording } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { userActor, type MediaPorts } from '../media.ports.js';
import { discardUpload, removeObject } from '../uploads/upload-cleanup.js';
import { recordingIdOfStream } from './recording.decider.js';
import { toRecording, type RecordingRow, type Recordings } from './recordings.repository.js';

/** The caller's item by id; someone else's, or none, is "not found" (ids reveal nothing). */
async function ownItem(recordings: Recordings, caller: Caller, id: string): Promise<RecordingRow> {
  if (!isUuid(id)) throw validationError({ id: MediaMessages.invalidEntryId }, MediaMessages.invalidEntryId);
  const recording = await recordings.find(id.toLowerCase());
  if (!recording || recording.user_id !== ownerOf(caller).userId) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
  return recording;
}

/** RecordingDeleted, then the object (retried by the sweeper if storage is down). */
export function removeRecording(ports: Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'logger' | 'now'>) {
  return async (ownerId: string, id: string, correlationId?: string): Promise<void> => {
    await ports.streams.execute(id, { type: 'DeleteRecording', recordingId: id, ownerId, now: new Date(ports.now()).toISOString() }, { actor: userActor(ownerId), correlationId },
      (objects) => objects.markRemoving(id));
    const row = await ports.objects.find(id);
    if (row?.state === 'removing') {
      await removeObject(ports, row).catch((err: unknown) => ports.logger.warn({ err, recordingId: id }, 'object removal failed after delete; the sweeper will retry'));
    }
  };
}

/**
 * Erases a recording for the system through the same path as its owner's delete (RecordingDeleted,
 * then the object); an open upload is abandoned and its object removed. True when there was something
 * to erase. `why` says who asked: the erasure journal's replay (issue 33: a recording deleted after the
 * snapshot a restore came from is alive again, its object back in the bucket), or an erased account.
 */
export function eraseRecording(ports: Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'logger' | 'now'>, why: 'erasure-journal' | 'account-erasure') {
  const remove = removeRecording(ports);
  const discard = discardUpload(ports);
  return async (streamId: string): Promise<boolean> => {
    const id = recordingIdOfStream(streamId);
    const state = await ports.streams.load(id);
    if (state.status === 'saved' && state.ownerId) {
      await remove(state.ownerId, id, why);
      return true;
    }
    if (state.status === 'uploading') {
      await discard(id, why === 'erasure-journal' ? 'erased after a restore' : 'its account was erased', { objectMayExist: true });
      return true;
    }
    return false;
  };
}

/** The erasure journal's replay: a recording a restore brought back is deleted again. */
export const eraseRecordingAgain = (ports: Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'logger' | 'now'>) => eraseRecording(ports, 'erasure-journal');

/**
 * Deletes one of the caller's recordings (the timeline's delete): the recording goes, then the
 * object. The timeline service drops its entry when it reads RecordingDeleted. The recording's stream
 * decides, not the read model: a delete its owner sends again after its answer was lost is answered
 * as the delete was (and finishes removing the object if the first was cut off before); anyone else's
 * recording, or none, is not found.
 */
export function deleteRecording(ports: Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'logger' | 'now'>) {
  const remove = removeRecording(ports);
  return async (caller: Caller, id: string, correlationId?: string): Promise<DeleteEntryReply> => {
    if (!isUuid(id)) throw validationError({ id: MediaMessages.invalidEntryId }, MediaMessages.invalidEntryId);
    const recordingId = id.toLowerCase();
    await remove(ownerOf(caller).userId, recordingId, correlationId);
    return { id: recordingId, deleted: true };
  };
}

/** A new title for one of the caller's items (Who I Am's personal media: "Could not update image title" when it fails). */
export function retitleRecording(ports: Pick<MediaPorts, 'recordings' | 'streams' | 'now'>) {
  return async (caller: Caller, id: string, newTitle: string, correlationId?: string): Promise<Recording> => {
    const { title, error } = validateRecordingTitle(newTitle);
    if (error) throw validationError({ title: error }, error);
    const recording = await ownItem(ports.recordings, caller, id);
    const ownerId = ownerOf(caller).userId;
    await ports.streams.execute(recording.id, { type: 'RetitleRecording', recordingId: recording.id, ownerId, title, now: new Date(ports.now()).toISOString() }, { actor: userActor(ownerId), correlationId });
    const retitled = await ports.recordings.find(recording.id);
    // Deleted between the command and this read: the item is gone.
    if (!retitled) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    return toRecording(retitled);
  };
}
