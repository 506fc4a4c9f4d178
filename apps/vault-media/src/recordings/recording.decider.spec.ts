import { MediaMessages, type RecordingEvent, type StartUploadRequest, type SubscriptionTier } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { deciderSpecification } from '@lv/testing';
import { admitUpload, putBodyOutcome, recordingDecider, requireOpenUpload } from './recording.decider.js';

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
    const deleted: RecordingEvent = { type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 'x' } };
    it('answers its owner’s delete sent again as the delete it repeats, recording nothing (issue 30: its answer was lost)', () =>
      spec.given([started, saved, deleted]).when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' }).then([]));
    it('still answers not found to anyone else for a deleted recording', () =>
      spec.given([started, saved, deleted]).when({ type: 'DeleteRecording', recordingId, ownerId: strangerId, now: 'now' }).thenThrows('NOT_FOUND'));
    it('answers not found for an upload its owner abandoned (it never was a recording)', () =>
      spec.given([started, { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'stalled', abandonedAt: 'x' } }])
        .when({ type: 'DeleteRecording', recordingId, ownerId, now: 'now' }).thenThrows('NOT_FOUND'));
  });
});

describe('admitUpload (before a byte is sent)', () => {
  const member = (tier: SubscriptionTier): UserCaller => ({ kind: 'user', userId: ownerId, sessionId: 's', email: 'm@example.com', tier, isAdmin: false, emailVerified: true, provedAt: Date.now() });
  const request = (fields: Partial<StartUploadRequest> = {}): StartUploadRequest => ({ type: 'video', title: 'For Sam', sha256: hash.toUpperCase(), size: 1000, ...fields });
  const refusal = (run: () => unknown) => {
    try { run(); } catch (error) { return error as { code: string; message: string; details: { fields?: Record<string, string> } }; }
    throw new Error('admitted');
  };

  it("admits a vault recording as WebM of its type, with the hash in lower case and the vault as its collection", () =>
    expect(admitUpload(member('pro'), request({ type: 'audio' }), 2000))
      .toEqual({ collection: 'vault', type: 'audio', title: 'For Sam', sha256: hash, contentType: 'audio/webm', extension: 'webm' }));
  it('admits a recording in MP4 (what Safari records), codecs and all, with the .mp4 or .m4a extension', () => {
    expect(admitUpload(member('pro'), request({ contentType: 'video/mp4; codecs="avc1.42E01E, mp4a.40.2"' }), 2000)).toMatchObject({ contentType: 'video/mp4', extension: 'mp4' });
    expect(admitUpload(member('pro'), request({ type: 'audio', contentType: 'audio/mp4', collection: 'final-messages' }), 2000)).toMatchObject({ contentType: 'audio/mp4', extension: 'm4a' });
    expect(admitUpload(member('pro'), request({ contentType: 'video/webm;codecs=vp8,opus' }), 2000)).toMatchObject({ contentType: 'video/webm', extension: 'webm' });
  });
  it('refuses a recording in any other format, or in the other type\'s, in words', () => {
    for (const contentType of ['video/quicktime', 'audio/mpeg', 'image/jpeg', 'audio/mp4']) {
      const { code, message } = refusal(() => admitUpload(member('pro'), request({ contentType }), 2000));
      expect({ code, message }).toEqual({ code: 'UNSUPPORTED_MEDIA', message: 'Only WebM or MP4 video and audio recordings can be saved.' });
    }
  });
  it('admits a Who I Am file in the format the browser names, whatever the plan', () =>
    expect(admitUpload(member('none'), request({ collection: 'who-i-am-photo', type: 'image', contentType: 'IMAGE/PNG' }), 2000))
      .toMatchObject({ collection: 'who-i-am-photo', contentType: 'image/png', extension: 'png' }));
  it('names every field that is wrong, with the missing title as the message', () => {
    const error = refusal(() => admitUpload(member('pro'), request({ title: '', sha256: 'nope', size: 0 }), 2000));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.details.fields ?? {}).sort()).toEqual(['sha256', 'size', 'title']);
    expect(error.message).toBe(MediaMessages.missingInfo);
  });
  it('refuses an image as a recording, and anything but an image as the profile photo', () => {
    expect(refusal(() => admitUpload(member('pro'), request({ type: 'image' }), 2000)).details.fields).toHaveProperty('type');
    expect(refusal(() => admitUpload(member('pro'), request({ collection: 'who-i-am-photo', type: 'video', contentType: 'video/mp4' }), 2000)))
      .toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.photoMustBeImage });
  });
  it('keeps video and audio recordings and final messages to the plans that include them (Pro and Legacy), in the table\'s words', () => {
    for (const tier of ['none', 'essentials'] as const) {
      expect(refusal(() => admitUpload(member(tier), request({ type: 'video' }), 2000))).toMatchObject({ code: 'UPGRADE_REQUIRED', message: MediaMessages.videoPlanRequired });
      expect(refusal(() => admitUpload(member(tier), request({ type: 'audio' }), 2000))).toMatchObject({ code: 'UPGRADE_REQUIRED', message: MediaMessages.audioPlanRequired });
    }
    for (const tier of ['pro', 'legacy'] as const) expect(admitUpload(member(tier), request({ type: 'video' }), 2000).type).toBe('video');
    expect(refusal(() => admitUpload(member('essentials'), request({ collection: 'final-messages' }), 2000)))
      .toMatchObject({ code: 'UPGRADE_REQUIRED', message: MediaMessages.finalMessagesPlanRequired });
    expect(admitUpload({ ...member('none'), isAdmin: true }, request({ type: 'audio' }), 2000).type).toBe('audio');
  });
  it('refuses a file over the limit only once it is otherwise acceptable (the plan is named first)', () => {
    expect(refusal(() => admitUpload(member('pro'), request({ size: 2001 }), 2000)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(refusal(() => admitUpload(member('none'), request({ type: 'audio', size: 2001 }), 2000)).code).toBe('UPGRADE_REQUIRED');
  });
});

describe('requireOpenUpload (before an upload body is taken)', () => {
  const stateAfter = (events: RecordingEvent[]) => events.reduce(recordingDecider.evolve, recordingDecider.initialState());
  const codeOf = (events: RecordingEvent[], who: string) => {
    try { requireOpenUpload(stateAfter(events), who); } catch (error) { return (error as { code: string }).code; }
    return 'open';
  };

  it('takes the body of an open upload from its owner', () => expect(codeOf([started], ownerId)).toBe('open'));
  it('answers not found for an upload never started, and for anyone else\'s', () => {
    expect(codeOf([], ownerId)).toBe('NOT_FOUND');
    expect(codeOf([started], strangerId)).toBe('NOT_FOUND');
    expect(codeOf([started, saved], strangerId)).toBe('NOT_FOUND');
  });
  it('calls a second body for a saved recording a duplicate, and one for a closed upload too late', () => {
    expect(codeOf([started, saved], ownerId)).toBe('DUPLICATE_MEDIA');
    expect(codeOf([started, { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'stalled', abandonedAt: 'x' } }], ownerId)).toBe('UPLOAD_INCOMPLETE');
  });
});

describe('putBodyOutcome (a single PUT of an upload\'s body)', () => {
  const stateAfter = (events: RecordingEvent[]) => events.reduce(recordingDecider.evolve, recordingDecider.initialState());
  const outcomeOf = (events: RecordingEvent[], who: string) => {
    try { return putBodyOutcome(stateAfter(events), who); } catch (error) { return (error as { code: string }).code; }
  };

  it('takes the body of an open upload from its owner', () => expect(outcomeOf([started], ownerId)).toBe('take'));
  it('answers its owner\'s PUT of a saved upload sent again with the saved recording (issue 30: the answer was lost)', () =>
    expect(outcomeOf([started, saved], ownerId)).toBe('answer-saved'));
  it('answers not found to anyone else, saved or not, and too late for a closed or deleted upload', () => {
    expect(outcomeOf([started, saved], strangerId)).toBe('NOT_FOUND');
    expect(outcomeOf([], ownerId)).toBe('NOT_FOUND');
    expect(outcomeOf([started, { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'stalled', abandonedAt: 'x' } }], ownerId)).toBe('UPLOAD_INCOMPLETE');
    expect(outcomeOf([started, saved, { type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 'x' } }], ownerId)).toBe('UPLOAD_INCOMPLETE');
  });
});
