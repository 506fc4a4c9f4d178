import type { RevokedSessions } from '@lv/platform/auth';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import type { MediaLinkSigner } from './playback/media-links.js';
import type { RecordingStreams } from './recordings/recording-streams.js';
import type { Recordings } from './recordings/recordings.repository.js';
import type { MediaObjects } from './uploads/media-objects.repository.js';

/** What the recordings' use cases ask of object storage. */
export type MediaStorage = Pick<ObjectStorage, 'upload' | 'removeObject' | 'abortMultipartUpload' | 'getObject' | 'getRange' | 'startMultipart' | 'uploadPart' | 'completeMultipart' | 'readObject' | 'partBuffers'>;

/**
 * Everything vault-media's recording use cases work with: the repositories, object storage, the link
 * signer, the clock and the limits. The service wires the real ones; unit specs pass in-memory ones.
 * Each use case takes only the part it needs.
 */
export interface MediaPorts {
  recordings: Recordings;
  streams: RecordingStreams;
  /** media_objects outside a command's transaction. */
  objects: MediaObjects;
  storage: MediaStorage;
  signer: MediaLinkSigner;
  revokedSessions?: Pick<RevokedSessions, 'isRevoked'>;
  logger: Logger;
  /** The bucket new uploads go to. */
  bucket: string;
  maxUploadBytes: number;
  uploadStaleSeconds: number;
  /** A resumable upload may wait this long for its owner to come back before it is swept. */
  resumableStaleSeconds: number;
  /** Bytes per part of a resumable upload (the memory one request holds). */
  partSize: number;
  now: () => number;
}

/** The actor of events a person caused. */
export const userActor = (userId: string) => ({ kind: 'user' as const, id: userId });
