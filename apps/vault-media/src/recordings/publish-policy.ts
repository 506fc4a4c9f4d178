import { VaultMediaEvents, published, type RecordingEvent } from '@lv/contracts';
import { publishPolicyFor } from '@lv/platform/event-store';

/**
 * What other services (and this service's own hashing enqueuer) learn about recordings: that one was
 * saved, verified, found damaged or deleted, by whom, where its bytes are and when. Never its title:
 * the parent's words stay here. Upload sessions (started, abandoned) are private bookkeeping.
 */
export const vaultMediaPublishPolicy = publishPolicyFor<RecordingEvent>((event) => {
  switch (event.type) {
    case 'RecordingSaved': {
      const { recordingId, ownerId, type, bucket, objectKey, size, sha256, savedAt } = event.data;
      const collection = event.data.collection ?? 'vault';
      return published(VaultMediaEvents.RecordingSaved, { recordingId, ownerId, type, bucket, objectKey, size, sha256, savedAt, collection });
    }
    case 'RecordingHashVerified': {
      const { recordingId, ownerId, verifiedAt } = event.data;
      return published(VaultMediaEvents.RecordingHashVerified, { recordingId, ownerId, verifiedAt });
    }
    case 'RecordingHashMismatch': {
      const { recordingId, ownerId, detectedAt } = event.data;
      return published(VaultMediaEvents.RecordingHashMismatch, { recordingId, ownerId, detectedAt });
    }
    case 'RecordingDeleted': {
      const { recordingId, ownerId, deletedAt } = event.data;
      return published(VaultMediaEvents.RecordingDeleted, { recordingId, ownerId, deletedAt });
    }
    default:
      return null;
  }
});
