import { LettersEvents, type LetterDeletedV1, type LetterRevisedV1, type LetterWrittenV1, type StoredLetterEvent } from '@lv/contracts';
import type { PublishPolicy } from '@lv/platform/event-store';

/**
 * What other services learn about letters: that one was written, revised or deleted, by whom, when
 * and how long it is. Never a word of it: JetStream keeps messages for replay and cannot forget a
 * letter on request, so titles are fetched from this service at read time instead.
 */
export const lettersPublishPolicy: PublishPolicy = (stored) => {
  // A user's reflection is not published at all, not even as a words-free fact: no other service
  // needs it (the vault home's count comes from rpc.letters.stats), and JetStream cannot forget.
  if (stored.streamType === 'reflection') return null;
  const event = stored as unknown as StoredLetterEvent;
  switch (event.type) {
    case 'LetterWritten': {
      const { letterId, ownerId, wordCount, writtenAt } = event.data;
      return { subject: LettersEvents.LetterWritten, data: { letterId, ownerId, wordCount, writtenAt } satisfies LetterWrittenV1 };
    }
    case 'LetterRevised': {
      const { letterId, ownerId, wordCount, revisedAt } = event.data;
      return { subject: LettersEvents.LetterRevised, data: { letterId, ownerId, wordCount, revisedAt } satisfies LetterRevisedV1 };
    }
    case 'LetterDeleted': {
      const { letterId, ownerId, deletedAt } = event.data;
      return { subject: LettersEvents.LetterDeleted, data: { letterId, ownerId, deletedAt } satisfies LetterDeletedV1 };
    }
    default:
      return null;
  }
};
