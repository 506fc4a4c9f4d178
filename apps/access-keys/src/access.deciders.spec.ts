import { VIEW_SECTIONS } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { decideIssueRetry, keyDecider, type IssuedKey, type KeyCommand, type KeyEvent } from './keys/key.decider.js';
import { requestDecider, type RequestEvent } from './requests/request.decider.js';
import { requestSettingDecider, type RequestSettingEvent } from './requests/request-setting.decider.js';
import { sessionDecider, type SessionEvent } from './sessions/session.decider.js';

const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const requestId = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const keyId = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const sessionId = '2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e';
const t0 = '2026-11-25T10:00:00.000Z';
const t1 = '2026-11-25T11:00:00.000Z';
const later = '2027-02-01T00:00:00.000Z';

describe('access request decider', () => {
  const spec = deciderSpecification(requestDecider);
  const details = { requesterEmail: 'sam@example.com', requesterName: 'Sam', relationship: 'Son', message: 'Please', childName: null, childDob: null };
  const submitted: RequestEvent = { type: 'AccessRequestSubmitted', data: { requestId, ownerId: owner, heldKeyId: null, submittedAt: t0, personal: details } };
  const approved: RequestEvent = { type: 'AccessRequestApproved', data: { requestId, ownerId: owner, keyId, approvedAt: t1 } };

  it('records a submission with the requester details', () => {
    spec.given([]).when({ type: 'SubmitRequest', requestId, ownerId: owner, heldKeyId: null, details, now: t0 }).then([submitted]);
  });

  it('answers the same submission again (a retry after a lost answer) with nothing recorded, even once decided', () => {
    const again = { type: 'SubmitRequest', requestId, ownerId: owner, heldKeyId: null, details, now: t1 } as const;
    spec.given([submitted]).when(again).then([]);
    spec.given([submitted, approved]).when(again).then([]);
  });

  it('refuses another form under a used id: other details, another held key, another owner, or details since erased', () => {
    const submit = { type: 'SubmitRequest', requestId, ownerId: owner, heldKeyId: null, details, now: t1 } as const;
    spec.given([submitted]).when({ ...submit, details: { ...details, message: 'Please, it is urgent' } }).thenThrows('CONFLICT');
    spec.given([submitted]).when({ ...submit, details: { ...details, childDob: '2015-04-01' } }).thenThrows('CONFLICT');
    spec.given([submitted]).when({ ...submit, heldKeyId: keyId }).thenThrows('CONFLICT');
    spec.given([submitted]).when({ ...submit, ownerId: stranger }).thenThrows('CONFLICT');
    const erased: RequestEvent = { ...submitted, data: { ...submitted.data, personal: null } };
    spec.given([erased]).when(submit).thenThrows('CONFLICT');
  });

  it('lets the owner approve a pending request once, with the key it issued', () => {
    spec.given([submitted]).when({ type: 'ApproveRequest', ownerId: owner, keyId, now: t1 }).then([approved]);
    spec.given([submitted, approved]).when({ type: 'ApproveRequest', ownerId: owner, keyId, now: t1 }).thenThrows('ALREADY_DECIDED');
    spec.given([submitted, approved]).when({ type: 'DeclineRequest', ownerId: owner, now: t1 }).thenThrows('ALREADY_DECIDED');
  });

  it('lets the owner decline, after which nothing more is decided', () => {
    const declined: RequestEvent = { type: 'AccessRequestDeclined', data: { requestId, ownerId: owner, declinedAt: t1 } };
    spec.given([submitted]).when({ type: 'DeclineRequest', ownerId: owner, now: t1 }).then([declined]);
    spec.given([submitted, declined]).when({ type: 'ApproveRequest', ownerId: owner, keyId, now: t1 }).thenThrows('ALREADY_DECIDED');
  });

  it("answers another owner as if the request did not exist", () => {
    spec.given([submitted]).when({ type: 'ApproveRequest', ownerId: stranger, keyId, now: t1 }).thenThrows('NOT_FOUND');
    spec.given([]).when({ type: 'DeclineRequest', ownerId: owner, now: t1 }).thenThrows('NOT_FOUND');
  });
});

describe('request setting decider', () => {
  const spec = deciderSpecification(requestSettingDecider);
  const closed: RequestSettingEvent = { type: 'RequestSettingChanged', data: { ownerId: owner, open: false, changedAt: t0 } };
  const reopened: RequestSettingEvent = { type: 'RequestSettingChanged', data: { ownerId: owner, open: true, changedAt: t1 } };

  it('is open until the owner closes it, and opening an open link records nothing', () => {
    spec.given([]).when({ type: 'SetRequestsOpen', ownerId: owner, open: true, now: t0 }).then([]);
    spec.given([]).when({ type: 'SetRequestsOpen', ownerId: owner, open: false, now: t0 }).then([closed]);
  });

  it('reopens a closed link; closing it twice records it once', () => {
    spec.given([closed]).when({ type: 'SetRequestsOpen', ownerId: owner, open: false, now: t1 }).then([]);
    spec.given([closed]).when({ type: 'SetRequestsOpen', ownerId: owner, open: true, now: t1 }).then([reopened]);
  });
});

describe('access key decider', () => {
  const spec = deciderSpecification(keyDecider);
  const issue = {
    type: 'IssueKey', keyId, ownerId: owner, keyHash: 'ab'.repeat(32), source: 'owner', requestId: null, scopes: [...VIEW_SECTIONS], expiresAt: later,
    recipient: { recipientEmail: 'sam@example.com', name: 'Sam' }, now: t0,
  } as const;
  const issued: KeyEvent = {
    type: 'AccessKeyIssued',
    data: { keyId, ownerId: owner, keyHash: 'ab'.repeat(32), source: 'owner', requestId: null, scopes: [...VIEW_SECTIONS], expiresAt: later, issuedAt: t0, personal: issue.recipient },
  };
  const sent: KeyEvent = { type: 'AccessKeyEmailStatusChanged', data: { keyId, ownerId: owner, status: 'sent', at: t1, messageId: '<m@x>', reason: null } };

  it('issues a key once; the same key id again is taken', () => {
    spec.given([]).when({ ...issue, scopes: [...issue.scopes] }).then([issued]);
    spec.given([issued]).when({ ...issue, scopes: [...issue.scopes] }).thenThrows('KEY_TAKEN');
  });

  describe('a Save refused as KEY_TAKEN (issue 30)', () => {
    const save: Extract<KeyCommand, { type: 'IssueKey' }> = { ...issue, keyId: sessionId, scopes: [...issue.scopes], expiresAt: '2026-12-25T11:00:00.000Z', now: t1 };
    /** Given: the key as the first attempt issued it, 30 days from its own clock. */
    const given: IssuedKey = {
      keyId, ownerId: owner, source: 'owner', requestId: null, letterId: null, recipientEmail: 'sam@example.com', name: 'Sam', scopes: [...VIEW_SECTIONS].reverse(),
      issuedAt: t0, expiresAt: '2026-12-25T10:00:00.000Z', allowDownload: false, revoked: false,
    };
    const refusal = (issued: IssuedKey | undefined, command: typeof save) => {
      try {
        decideIssueRetry(issued, command);
        return 'answered';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };

    it('answers the same Save sent again with the key as issued (its days counted from its own clock)', () => {
      expect(decideIssueRetry(given, save)).toBe(given);
      expect(decideIssueRetry({ ...given, allowDownload: true }, { ...save, allowDownload: true })).toMatchObject({ keyId });
    });

    it('stays KEY_TAKEN for another owner, a key revoked since, or a Save with other content', () => {
      expect(refusal(undefined, save)).toBe('KEY_TAKEN');
      expect(refusal({ ...given, ownerId: stranger }, save)).toBe('KEY_TAKEN');
      expect(refusal({ ...given, revoked: true }, save)).toBe('KEY_TAKEN');
      expect(refusal(given, { ...save, recipient: { recipientEmail: 'other@example.com', name: 'Sam' } })).toBe('KEY_TAKEN');
      expect(refusal(given, { ...save, recipient: { recipientEmail: 'sam@example.com', name: 'Samuel' } })).toBe('KEY_TAKEN');
      expect(refusal(given, { ...save, scopes: ['letters'] })).toBe('KEY_TAKEN');
      expect(refusal(given, { ...save, allowDownload: true })).toBe('KEY_TAKEN');
      expect(refusal(given, { ...save, expiresAt: '2026-12-26T11:00:00.000Z' })).toBe('KEY_TAKEN');
      expect(refusal({ ...given, source: 'request', requestId }, save)).toBe('KEY_TAKEN');
    });
  });

  it('revokes for its owner only, and revoking twice changes nothing', () => {
    const revoked: KeyEvent = { type: 'AccessKeyRevoked', data: { keyId, ownerId: owner, revokedAt: t1 } };
    spec.given([issued]).when({ type: 'RevokeKey', ownerId: owner, now: t1 }).then([revoked]);
    spec.given([issued, revoked]).when({ type: 'RevokeKey', ownerId: owner, now: t1 }).then([]);
    spec.given([issued]).when({ type: 'RevokeKey', ownerId: stranger, now: t1 }).thenThrows('NOT_FOUND');
  });

  it('keeps "sent" once reported: a repeat or a late failure changes nothing; a report for an uncommitted key is dropped', () => {
    spec.given([issued]).when({ type: 'RecordEmailStatus', status: 'sent', at: t1, messageId: '<m@x>', reason: null }).then([sent]);
    spec.given([issued, sent]).when({ type: 'RecordEmailStatus', status: 'sent', at: t1, messageId: '<m@x>', reason: null }).then([]);
    spec.given([issued, sent]).when({ type: 'RecordEmailStatus', status: 'failed', at: t1, messageId: null, reason: 'smtp' }).then([]);
    spec.given([]).when({ type: 'RecordEmailStatus', status: 'sent', at: t1, messageId: '<m@x>', reason: null }).then([]);
  });
});

describe('view session decider', () => {
  const spec = deciderSpecification(sessionDecider);
  const consent = { version: 'v1.0', text: 'text', hash: 'h', userAgent: 'UA', origin: 'http://127.0.0.1:3000' };
  const opened: SessionEvent = {
    type: 'ViewSessionOpened',
    data: { sessionId, ownerId: owner, keyId, secretHash: 'cd'.repeat(32), scopes: ['letters', 'timeline'], openedAt: t0, expiresAt: later, consent },
  };

  it('records views of shared sections of a live session only', () => {
    spec.given([opened]).when({ type: 'RecordView', section: 'letters', now: t1 }).then([
      { type: 'ViewSessionSectionViewed', data: { sessionId, ownerId: owner, section: 'letters', viewedAt: t1 } },
    ]);
    spec.given([opened]).when({ type: 'RecordView', section: 'court-journal', now: t1 }).thenThrows('FORBIDDEN');
    spec.given([opened]).when({ type: 'RecordView', section: 'letters', now: '2027-03-01T00:00:00.000Z' }).thenThrows('VIEW_SESSION_ENDED');
    spec.given([]).when({ type: 'RecordView', section: 'letters', now: t1 }).thenThrows('VIEW_SESSION_ENDED');
  });

  it('ends at once when revoked or closed, and stays ended', () => {
    const revoked: SessionEvent = { type: 'ViewSessionRevoked', data: { sessionId, ownerId: owner, keyId, revokedAt: t1, by: 'owner' } };
    spec.given([opened]).when({ type: 'RevokeSession', ownerId: owner, by: 'owner', now: t1 }).then([revoked]);
    spec.given([opened, revoked]).when({ type: 'RecordView', section: 'letters', now: t1 }).thenThrows('VIEW_SESSION_ENDED');
    spec.given([opened, revoked]).when({ type: 'CloseSession', now: t1 }).then([]);
    spec.given([opened]).when({ type: 'RevokeSession', ownerId: stranger, by: 'owner', now: t1 }).thenThrows('NOT_FOUND');
    spec.given([opened]).when({ type: 'CloseSession', now: t1 }).then([{ type: 'ViewSessionClosed', data: { sessionId, ownerId: owner, keyId, closedAt: t1 } }]);
  });
});
