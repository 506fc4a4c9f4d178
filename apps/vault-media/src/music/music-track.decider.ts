import { CommunityMessages, type MusicCategory } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A track of the Parent Circle's music library: one stream per track, `music-track-{id}`. An operator
 * opens its upload (music:add), the bytes arrive over vault-media's byte listener and complete it
 * (MusicTrackAdded: the object is whole in the parent-music-library bucket), or the upload is
 * abandoned (bad header, size, hash, or its process died). An added track can be removed (music:remove).
 * None of these is published: no other service needs the library.
 */
export type MusicTrackEvent =
  | {
      type: 'MusicTrackUploadStarted';
      data: { trackId: string; fileName: string; title: string; category: MusicCategory; contentType: string; objectKey: string; declaredSize: number; sha256: string; operatorId: string; startedAt: string };
    }
  | { type: 'MusicTrackAdded'; data: { trackId: string; size: number; sha256: string; addedAt: string } }
  | { type: 'MusicTrackUploadAbandoned'; data: { trackId: string; reason: string; abandonedAt: string } }
  | { type: 'MusicTrackRemoved'; data: { trackId: string; operatorId: string; removedAt: string } };

export interface MusicTrackState {
  status: 'new' | 'uploading' | 'added' | 'abandoned' | 'removed';
  fileName: string | null;
  objectKey: string | null;
  declaredSize: number | null;
  sha256: string | null;
}

export type MusicTrackCommand =
  | {
      type: 'StartTrackUpload';
      trackId: string;
      fileName: string;
      title: string;
      category: MusicCategory;
      contentType: string;
      objectKey: string;
      declaredSize: number;
      sha256: string;
      operatorId: string;
      now: string;
    }
  | { type: 'CompleteTrackUpload'; trackId: string; size: number; sha256: string; now: string }
  | { type: 'AbandonTrackUpload'; trackId: string; reason: string; now: string }
  | { type: 'RemoveTrack'; trackId: string; operatorId: string; now: string };

export const MUSIC_TRACK_STREAM_TYPE = 'music-track';
export const musicTrackStreamId = (trackId: string) => `music-track-${trackId}`;

const notFound = () => new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);

export const musicTrackDecider: Decider<MusicTrackState, MusicTrackCommand, MusicTrackEvent> = {
  initialState: () => ({ status: 'new', fileName: null, objectKey: null, declaredSize: null, sha256: null }),

  decide(command, state) {
    switch (command.type) {
      case 'StartTrackUpload': {
        // Track ids are the service's own (random): a second start on one is a bug, never a retry.
        if (state.status !== 'new') throw new DomainError('CONFLICT');
        const { trackId, fileName, title, category, contentType, objectKey, declaredSize, sha256, operatorId, now } = command;
        return [{ type: 'MusicTrackUploadStarted', data: { trackId, fileName, title, category, contentType, objectKey, declaredSize, sha256, operatorId, startedAt: now } }];
      }
      case 'CompleteTrackUpload': {
        if (state.status === 'new') throw notFound();
        if (state.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', 'This upload is no longer open. Add the track again.');
        // What arrived must be exactly what the operator announced: the same length and the same SHA-256.
        if (command.size !== state.declaredSize || command.sha256 !== state.sha256) throw new DomainError('UPLOAD_INCOMPLETE', 'The file that arrived is not the one announced (size or SHA-256 differ).');
        return [{ type: 'MusicTrackAdded', data: { trackId: command.trackId, size: command.size, sha256: command.sha256, addedAt: command.now } }];
      }
      case 'AbandonTrackUpload':
        // Only an open upload is abandoned; a track added in the meantime keeps its bytes.
        if (state.status !== 'uploading') return [];
        return [{ type: 'MusicTrackUploadAbandoned', data: { trackId: command.trackId, reason: command.reason, abandonedAt: command.now } }];
      case 'RemoveTrack':
        if (state.status === 'removed') return [];
        if (state.status !== 'added') throw notFound();
        return [{ type: 'MusicTrackRemoved', data: { trackId: command.trackId, operatorId: command.operatorId, removedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'MusicTrackUploadStarted':
        return { status: 'uploading', fileName: event.data.fileName, objectKey: event.data.objectKey, declaredSize: event.data.declaredSize, sha256: event.data.sha256 };
      case 'MusicTrackAdded':
        return { ...state, status: 'added' };
      case 'MusicTrackUploadAbandoned':
        return { ...state, status: 'abandoned' };
      case 'MusicTrackRemoved':
        return { ...state, status: 'removed' };
    }
  },
};
