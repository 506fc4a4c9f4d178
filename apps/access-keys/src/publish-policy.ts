import { AccessKeysEvents, type AccessKeyIssuedV1 } from '@lv/contracts';
import type { PublishPolicy, StoredEvent } from '@lv/platform/event-store';
import type { KeyEvent } from './keys/key.decider.js';
import type { RequestEvent } from './requests/request.decider.js';
import type { SessionEvent } from './sessions/session.decider.js';

/**
 * What other services learn about family access: ids, decisions, scopes and times. Never an address,
 * a name, a message, a key hash or a session secret (JetStream keeps messages and cannot forget).
 * A key's e-mail status and each section viewed stay inside access-keys.
 */
export const accessKeysPublishPolicy: PublishPolicy = (stored) => {
  const event = stored as unknown as StoredEvent<RequestEvent | KeyEvent | SessionEvent>;
  switch (event.type) {
    case 'AccessRequestSubmitted': {
      const { requestId, ownerId, submittedAt } = event.data;
      return { subject: AccessKeysEvents.AccessRequestSubmitted, data: { requestId, ownerId, submittedAt } };
    }
    case 'AccessRequestApproved':
      return { subject: AccessKeysEvents.AccessRequestApproved, data: event.data };
    case 'AccessRequestDeclined':
      return { subject: AccessKeysEvents.AccessRequestDeclined, data: event.data };
    case 'AccessKeyIssued': {
      const { keyId, ownerId, source, requestId, scopes, expiresAt, issuedAt } = event.data;
      return { subject: AccessKeysEvents.AccessKeyIssued, data: { keyId, ownerId, source, requestId, scopes, expiresAt, issuedAt } satisfies AccessKeyIssuedV1 };
    }
    case 'AccessKeyRevoked':
      return { subject: AccessKeysEvents.AccessKeyRevoked, data: event.data };
    case 'ViewSessionOpened': {
      const { sessionId, ownerId, keyId, scopes, openedAt, expiresAt } = event.data;
      return { subject: AccessKeysEvents.ViewSessionOpened, data: { sessionId, ownerId, keyId, scopes, openedAt, expiresAt } };
    }
    case 'ViewSessionRevoked':
      return { subject: AccessKeysEvents.ViewSessionRevoked, data: event.data };
    case 'ViewSessionClosed':
      return { subject: AccessKeysEvents.ViewSessionClosed, data: event.data };
    default:
      return null;
  }
};
