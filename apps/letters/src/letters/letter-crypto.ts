import { newDataKey } from '@lv/platform/event-store';

export { openSealedText as open, sealText as seal } from '@lv/platform/event-store';

export const newLetterKey = newDataKey;

/**
 * What the ciphertext is bound to: the letter and the field. A title moved into another letter's
 * event, or swapped with the body, fails authentication instead of decrypting.
 */
export const sealContext = (letterId: string, field: 'title' | 'content' | 'recipientName' | 'recipientEmail' | 'sharedBy') => `letter:${letterId}:${field}`;
