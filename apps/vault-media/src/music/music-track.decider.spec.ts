import { deciderSpecification } from '@lv/testing';
import { musicTrackDecider, type MusicTrackEvent } from './music-track.decider.js';

const spec = deciderSpecification(musicTrackDecider);
const trackId = '0b7f3c52-3a8e-4d52-9a55-0f7f3b1f8c11';
const operatorId = 'operator:cli';
const sha = 'a'.repeat(64);
const t0 = '2026-11-26T10:00:00.000Z';

const started: MusicTrackEvent = {
  type: 'MusicTrackUploadStarted',
  data: { trackId, fileName: 'motivation-rise-up.mp3', title: 'Rise Up', category: 'motivation', contentType: 'audio/mpeg', objectKey: `tracks/${trackId}.mp3`, declaredSize: 1000, sha256: sha, operatorId, startedAt: t0 },
};
const added: MusicTrackEvent = { type: 'MusicTrackAdded', data: { trackId, size: 1000, sha256: sha, addedAt: t0 } };

describe('music track decider', () => {
  it('opens an upload, then adds the track when exactly the announced bytes arrived', () => {
    const { data } = started as Extract<MusicTrackEvent, { type: 'MusicTrackUploadStarted' }>;
    spec.given([]).when({ type: 'StartTrackUpload', ...data, now: t0 }).then([started]);
    spec.given([started]).when({ type: 'CompleteTrackUpload', trackId, size: 1000, sha256: sha, now: t0 }).then([added]);
  });

  it('refuses bytes that are not the announced file (size or SHA-256), and a second start', () => {
    spec.given([started]).when({ type: 'CompleteTrackUpload', trackId, size: 999, sha256: sha, now: t0 }).thenThrows('UPLOAD_INCOMPLETE');
    spec.given([started]).when({ type: 'CompleteTrackUpload', trackId, size: 1000, sha256: 'b'.repeat(64), now: t0 }).thenThrows('UPLOAD_INCOMPLETE');
    const { data } = started as Extract<MusicTrackEvent, { type: 'MusicTrackUploadStarted' }>;
    spec.given([started]).when({ type: 'StartTrackUpload', ...data, now: t0 }).thenThrows('CONFLICT');
  });

  it('abandons only an open upload: an added track keeps its bytes', () => {
    spec.given([started]).when({ type: 'AbandonTrackUpload', trackId, reason: 'stalled', now: t0 }).then([{ type: 'MusicTrackUploadAbandoned', data: { trackId, reason: 'stalled', abandonedAt: t0 } }]);
    spec.given([started, added]).when({ type: 'AbandonTrackUpload', trackId, reason: 'late', now: t0 }).then([]);
  });

  it('removes an added track once; an unknown or unfinished one is not found', () => {
    const removed: MusicTrackEvent = { type: 'MusicTrackRemoved', data: { trackId, operatorId, removedAt: t0 } };
    spec.given([started, added]).when({ type: 'RemoveTrack', trackId, operatorId, now: t0 }).then([removed]);
    spec.given([started, added, removed]).when({ type: 'RemoveTrack', trackId, operatorId, now: t0 }).then([]);
    spec.given([]).when({ type: 'RemoveTrack', trackId, operatorId, now: t0 }).thenThrows('NOT_FOUND');
    spec.given([started]).when({ type: 'RemoveTrack', trackId, operatorId, now: t0 }).thenThrows('NOT_FOUND');
    spec.given([]).when({ type: 'CompleteTrackUpload', trackId, size: 1, sha256: sha, now: t0 }).thenThrows('NOT_FOUND');
  });
});
