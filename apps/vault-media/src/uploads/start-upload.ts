import { randomUUID } from 'node:crypto';
import { MediaMessages, mediaObjectKey, type StartUploadRequest, type UploadTicket } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { userActor, type MediaPorts } from '../media.ports.js';
import { AlreadyTaken } from '../recordings/recording-streams.js';
import { admitUpload } from '../recordings/recording.decider.js';

/** Object keys tried, one millisecond apart, before a taken key is an error. */
const KEY_ATTEMPTS = 21;

/**
 * Opens an upload: checks the title, the feature gate (audio), the size and, before a single byte
 * is sent, whether this owner already has a recording with this hash (409 "Duplicate: ...").
 */
export function startUpload(ports: Pick<MediaPorts, 'recordings' | 'streams' | 'bucket' | 'maxUploadBytes' | 'now'>) {
  return async (caller: Caller, request: StartUploadRequest, correlationId?: string): Promise<UploadTicket> => {
    const upload = admitUpload(caller, request, ports.maxUploadBytes);
    const ownerId = ownerOf(caller).userId;
    if (await ports.recordings.findByHash(ownerId, upload.collection, upload.sha256)) throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);

    const recordingId = randomUUID();
    // The key is the original app's ({userId}/{type}_{timestamp}.webm) and is never reused: the
    // unique key of media_objects refuses a second upload to it, so nothing is ever overwritten.
    for (let timestamp = ports.now(), attempt = 1; ; timestamp++, attempt++) {
      const objectKey = mediaObjectKey(ownerId, upload.type, timestamp, upload.extension);
      try {
        await ports.streams.execute(recordingId, {
          type: 'StartUpload', recordingId, ownerId, mediaType: upload.type, collection: upload.collection, title: upload.title, bucket: ports.bucket, objectKey,
          contentType: upload.contentType, clientSha256: upload.sha256, declaredSize: request.size, now: new Date(ports.now()).toISOString(),
        }, { actor: userActor(ownerId), correlationId }, (objects) => objects.insertPending({ recordingId, userId: ownerId, bucket: ports.bucket, objectKey }));
        return { uploadId: recordingId, uploadUrl: `/api/media/uploads/${recordingId}`, resumableUrl: `/api/media/tus/${recordingId}`, objectKey, contentType: upload.contentType, maxBytes: ports.maxUploadBytes };
      } catch (err) {
        if (!(err instanceof AlreadyTaken) || attempt >= KEY_ATTEMPTS) throw err;
      }
    }
  };
}
