import { DataKeys } from '@lv/platform/event-store';

/**
 * The per-letter data keys (table letter_keys): created with LetterWritten, destroyed with
 * LetterDeleted, in the same transaction (see DataKeys for the crypto-shredding this gives).
 */
export class LetterKeys extends DataKeys {
  constructor() {
    super({ table: 'letter_keys', idColumn: 'letter_id' });
  }
}
