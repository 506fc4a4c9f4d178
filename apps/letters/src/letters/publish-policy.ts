import { LettersEvents, published, type StoredLetterEvent } from '@lv/contracts';
import { publishPolicyFor } from '@lv/platform/event-store';

/**
 * What other services learn about letters: that one was written, revised or deleted, by whom, when
 * and how long it is. Never a word of it: JetStream keeps messages for replay and cannot forget a
 * letter on request, so titles are fetched from this service at read time instead.
 */
export const lettersPublishPolicy = publishPolicyFor<StoredLetterEvent>((event) => {
  // A user's reflection is not published at all, not even as a words-free fact: no other service
  // needs it (the vault home's count comes from rpc.letters.stats), and JetStream cannot forget.
  if (event.streamType === 'reflection') return null;
  switch (event.type) {
    case 'LetterWritten': {
      const { letterId, ownerId, wordCount, writtenAt } = event.data;
      return published(LettersEvents.LetterWritten, { letterId, ownerId, wordCount, writtenAt });
    }
    case 'LetterRevised': {
      const { letterId, ownerId, wordCount, revisedAt } = event.data;
      return published(LettersEvents.LetterRevised, { letterId, ownerId, wordCount, revisedAt });
    }
    case 'LetterDeleted': {
      const { letterId, ownerId, deletedAt } = event.data;
      return published(LettersEvents.LetterDeleted, { letterId, ownerId, deletedAt });
    }
    default:
      return null;
  }
});
