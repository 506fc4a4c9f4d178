import type { Decider } from '@lv/platform/event-store';

/** A trustee's notice of one delivery step, one stream per notice: `trustee-notice-<releaseId>-<kind>`. */
export type TrusteeNoticeEvent =
  | { type: 'TrusteeNoticeSent'; data: { noticeId: string; ownerId: string; sentAt: string; messageId: string; attempts: number } }
  | { type: 'TrusteeNoticeFailed'; data: { noticeId: string; ownerId: string; failedAt: string; attempts: number; reason: string } };

export type TrusteeNoticeCommand =
  | { type: 'RecordSent'; noticeId: string; ownerId: string; messageId: string; attempts: number; now: string }
  | { type: 'RecordFailed'; noticeId: string; ownerId: string; attempts: number; reason: string; now: string };

export const TRUSTEE_NOTICE_STREAM_TYPE = 'trustee-notice';
export const trusteeNoticeStreamId = (noticeId: string) => `trustee-notice-${noticeId}`;

/** Sent is final; a notice that could not go (its step never committed, or was cancelled) is recorded once. */
export const trusteeNoticeDecider: Decider<{ status: 'none' | 'sent' | 'failed' }, TrusteeNoticeCommand, TrusteeNoticeEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (state.status === 'sent') return [];
    if (command.type === 'RecordSent') {
      const { noticeId, ownerId, messageId, attempts, now } = command;
      return [{ type: 'TrusteeNoticeSent', data: { noticeId, ownerId, sentAt: now, messageId, attempts } }];
    }
    if (state.status === 'failed') return [];
    const { noticeId, ownerId, attempts, reason, now } = command;
    return [{ type: 'TrusteeNoticeFailed', data: { noticeId, ownerId, failedAt: now, attempts, reason } }];
  },

  evolve(_state, event) {
    return { status: event.type === 'TrusteeNoticeSent' ? 'sent' : 'failed' };
  },
};
