import {
  VaultMediaEvents, type RecordingDeletedV1, type RecordingEvent, type RecordingHashMismatchV1, type RecordingHashVerifiedV1, type RecordingSavedV1,
} from '@lv/contracts';
import type { PublishPolicy } from '@lv/platform/event-store';

/**
 * What other services (and this service's own hashing enqueuer) learn about recordings: that one was
 * saved, verified, found damaged or deleted, by whom, where its bytes are and when. Never its title:
 * the parent's words stay here. Upload sessions (started, abandoned) are private bookkeeping.
 */
export const vaultMediaPublishPolicy: PublishPolicy = (stored) => {
  const event = stored as unknown as RecordingEvent;
  switch (event.type) {
    case 'RecordingSaved': {
      const { recordingId, ownerId, type, bucket, objectKey, size, sha256, savedAt } = event.data;
      const collection = event.data.collection ?? 'vault';
      return { subject: VaultMediaEvents.RecordingSaved, data: { recordingId, ownerId, type, bucket, objectKey, size, sha256, savedAt, collection } satisfies RecordingSavedV1 };
    }
    case 'RecordingHashVerified': {
      const { recordingId, ownerId, verifiedAt } = event.data;
      return { subject: VaultMediaEvents.RecordingHashVerified, data: { recordingId, ownerId, verifiedAt } satisfies RecordingHashVerifiedV1 };
    }
    case 'RecordingHashMismatch': {
      const { recordingId, ownerId, detectedAt } = event.data;
      return { subject: VaultMediaEvents.RecordingHashMismatch, data: { recordingId, ownerId, detectedAt } satisfies RecordingHashMismatchV1 };
    }
    case 'RecordingDeleted': {
      const { recordingId, ownerId, deletedAt } = event.data;
      return { subject: VaultMediaEvents.RecordingDeleted, data: { recordingId, ownerId, deletedAt } satisfies RecordingDeletedV1 };
    }
    default:
      return null;
  }
};
