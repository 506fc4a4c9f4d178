import type { Decider } from '@lv/platform/event-store';

/** A key's e-mail, one stream per key: `key-email-<keyId>`. */
export type KeyEmailEvent =
  | { type: 'KeyEmailSent'; data: { keyId: string; sentAt: string; messageId: string; attempts: number } & SentFor }
  | { type: 'KeyEmailFailed'; data: { keyId: string; failedAt: string; attempts: number; reason: string } };

/** Whom a sent e-mail counts against in the daily limits (absent from events recorded before them). */
export interface SentFor {
  ownerId?: string;
  /** recipientHash(): a keyed hash of the address, never the address. */
  recipientHash?: string;
}

export interface KeyEmailState {
  status: 'none' | 'sent' | 'failed';
}

export type KeyEmailCommand =
  | { type: 'RecordSent'; keyId: string; messageId: string; attempts: number; now: string; ownerId: string; recipientHash: string }
  | { type: 'RecordFailed'; keyId: string; attempts: number; reason: string; now: string };

export const KEY_EMAIL_STREAM_TYPE = 'key-email';
export const keyEmailStreamId = (keyId: string) => `key-email-${keyId}`;

/** Sent is final: nothing is recorded after it. A failure may be followed by a send (ops resent it). */
export const keyEmailDecider: Decider<KeyEmailState, KeyEmailCommand, KeyEmailEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (state.status === 'sent') return [];
    switch (command.type) {
      case 'RecordSent':
        return [{ type: 'KeyEmailSent', data: {
          keyId: command.keyId, sentAt: command.now, messageId: command.messageId, attempts: command.attempts, ownerId: command.ownerId, recipientHash: command.recipientHash,
        } }];
      case 'RecordFailed':
        if (state.status === 'failed') return [];
        return [{ type: 'KeyEmailFailed', data: { keyId: command.keyId, failedAt: command.now, attempts: command.attempts, reason: command.reason } }];
    }
  },

  evolve(_state, event) {
    return { status: event.type === 'KeyEmailSent' ? 'sent' : 'failed' };
  },
};
