import type { RecordingEvent } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { recordingDecider } from './recording.decider.js';

const spec = deciderSpecification(recordingDecider);
const recordingId = '0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
const ownerId = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const strangerId = '7a2b3c4d-1111-4222-8333-944455556666';
const hash = 'a'.repeat(64);
const objectKey = `${ownerId}/video_1764590400000.webm`;

const started: RecordingEvent = {
  type: 'RecordingUploadStarted',
  data: {
    recordingId, ownerId, type: 'video', title: 'For Sam', bucket: 'vaultmedia', objectKey, contentType: 'video/webm',
    clientSha256: hash, declaredSize: 1000, startedAt: '2026-12-01T10:00:00.000Z', collection: 'vault',
  },
};
const saved: RecordingEvent = {
  type: 'RecordingSaved',
  data: {
    recordingId, ownerId, type: 'video', title: 'For Sam', bucket: 'vaultmedia', objectKey, contentType: 'video/webm', size: 1000, sha256: hash,
    savedAt: '2026-12-01T10:00:05.000Z', collection: 'vault',
  },
};
const start = {
  type: 'StartUpload' as const, recordingId, ownerId, mediaType: 'video' as const, collection: 'vault' as const, title: 'For Sam', bucket: 'vaultmedia', objectKey,
  contentType: 'video/webm', clientSha256: hash, declaredSize: 1000, now: '2026-12-01T10:00:00.000Z',
};
const complete = { type: 'CompleteUpload' as const, recordingId, ownerId, size: 1000, sha256: hash, now: '2026-12-01T10:00:05.000Z' };

describe('recording decider', () => {
  describe('StartUpload', () => {
    it('opens an upload with the object key, the declared size and the client hash', () =>
      spec.given([]).when(start).then([started]));
    it('cannot start the same recording twice', () =>
      spec.given([started]).when(start).thenThrows('CONFLICT'));
  });

  describe('CompleteUpload', () => {
    it('saves the recording once the object is complete, with the title and type of the upload', () =>
      spec.given([started]).when(complete).then([saved]));
    it('keeps a final message a final message when it is saved', () =>
      spec.given([{ ...started, data: { ...started.data, collection: 'final-messages' } } as RecordingEvent]).when(complete)
        .then([{ ...saved, data: { ...saved.data, collection: 'final-messages' } } as RecordingEvent]));
    it("saves an upload started before collections existed as the vault's", () => {
      const { collection: _omitted, ...before } = started.data as typeof started.data & { collection?: string };
      return spec.given([{ type: 'RecordingUploadStarted', data: before } as RecordingEvent]).when(complete).then([saved]);
    });
    it('refuses bytes whose hash is not the one the browser announced', () =>
      spec.given([started]).when({ ...complete, sha256: 'b'.repeat(64) }).thenThrows('UPLOAD_INCOMPLETE'));
    it('refuses a body shorter than announced', () =>
      spec.given([started]).when({ ...complete, size: 999 }).thenThrows('UPLOAD_INCOMPLETE'));
    it('does not let someone else complete the upload', () =>
      spec.given([started]).when({ ...complete, ownerId: strangerId }).thenThrows('NOT_FOUND'));
    it('cannot complete an abandoned upload (the sweeper closed it)', () =>
      spec.given([started, { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'stalled', abandonedAt: 'x' } }]).when(complete).thenThrows('UPLOAD_INCOMPLETE'));
    it('cannot save twice', () =>
      spec.given([started, saved]).when(complete).thenThrows('CONFLICT'));
  });

  describe('AbandonUpload', () => {
    it('closes an open upload', () =>
      spec.given([started]).when({ type: 'AbandonUpload', recordingId, reason: 'client went away', now: 'later' })
        .then([{ type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'client went away', abandonedAt: 'later' } }]));
    it('leaves a saved recording alone (a sweeper that lost the race changes nothing)', () =>
      spec.given([started, saved]).when({ type: 'AbandonUpload', recordingId, reason: 'stalled', now: 'later' }).then([]));
    it('is idempotent', () =>
      spec.given([started, { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'x', abandonedAt: 'x' } }])
        .when({ type: 'AbandonUpload', recordingId, reason: 'again', now: 'later' }).then([]));
  });

  describe('RecordHashResult', () => {
    const result = (sha256: string | null) => ({ type: 'RecordHashResult' as const, recordingId, sha256, now: '2026-12-01T10:01:00.000Z' });
    it('verifies a stored object that matches the saved hash', () =>
      spec.given([started, saved]).when(result(hash)).then([{ type: 'RecordingHashVerified', data: { recordingId, ownerId, sha256: hash, verifiedAt: '2026-12-01T10:01:00.000Z' } }]));
    it('flags a stored object that does not match', () =>
      spec.given([started, saved]).when(result('c'.repeat(64)))
        .then([{ type: 'RecordingHashMismatch', data: { recordingId, ownerId, expectedSha256: hash, actualSha256: 'c'.repeat(64), detectedAt: '2026-12-01T10:01:00.000Z' } }]));
    it('flags a stored object that is missing', () =>
      spec.given([started, saved]).when(result(null))
        .then([{ type: 'RecordingHashMismatch', data: { recordingId, ownerId, expectedSha256: hash, actualSha256: null, detectedAt: '2026-12-01T10:01:00.000Z' } }]));
    it('is idempotent: a retried job reports the same result and nothing new happens', () => {
      spec.given([started, saved, { type: 'RecordingHashVerified', data: { recordingId, ownerId, sha256: hash, verifiedAt: 'x' } }]).when(result(hash)).then([]);
      spec.given([started, saved, { type: 'RecordingHashMismatch', data: { recordingId, ownerId, expectedSha256: hash, actualSha256: null, detectedAt: 'x' } }]).when(result(null)).then([]);
    });
    it('ignores a late result for a deleted or never-saved recording', () => {
      spec.given([started]).when(result(hash)).then([]);
      spec.given([started, saved, { type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 'x' } }]).when(result(null)).then([]);
    });
  });

  describe('DeleteRecording', () => {
    it('deletes the owner’s saved recording, naming the object to remove', () =>
      spec.given([started, saved]).when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' })
        .then([{ type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 'now' } }]));
    it('answers not found to anyone else, and for a recording that is not saved', () => {
      spec.given([started, saved]).when({ type: 'DeleteRecording', recordingId, ownerId: strangerId, now: 'now' }).thenThrows('NOT_FOUND');
      spec.given([started]).when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' }).thenThrows('NOT_FOUND');
      spec.given([]).when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' }).thenThrows('NOT_FOUND');
    });
    it('cannot delete twice', () =>
      spec.given([started, saved, { type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 'x' } }])
        .when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' }).thenThrows('NOT_FOUND'));
  });
});
