import { AccessKeysEvents, published } from '@lv/contracts';
import { publishPolicyFor } from '@lv/platform/event-store';
import type { KeyEvent } from './keys/key.decider.js';
import type { RequestEvent } from './requests/request.decider.js';
import type { SessionEvent } from './sessions/session.decider.js';

/**
 * What other services learn about family access: ids, decisions, scopes and times. Never an address,
 * a name, a message, a key hash or a session secret (JetStream keeps messages and cannot forget).
 * A key's e-mail status and each section viewed stay inside access-keys.
 */
export const accessKeysPublishPolicy = publishPolicyFor<RequestEvent | KeyEvent | SessionEvent>((event) => {
  switch (event.type) {
    case 'AccessRequestSubmitted': {
      const { requestId, ownerId, submittedAt } = event.data;
      return published(AccessKeysEvents.AccessRequestSubmitted, { requestId, ownerId, submittedAt });
    }
    case 'AccessRequestApproved':
      return published(AccessKeysEvents.AccessRequestApproved, event.data);
    case 'AccessRequestDeclined':
      return published(AccessKeysEvents.AccessRequestDeclined, event.data);
    case 'AccessKeyIssued': {
      const { keyId, ownerId, source, requestId, scopes, expiresAt, issuedAt } = event.data;
      return published(AccessKeysEvents.AccessKeyIssued, { keyId, ownerId, source, requestId, scopes, expiresAt, issuedAt });
    }
    case 'AccessKeyRevoked':
      return published(AccessKeysEvents.AccessKeyRevoked, event.data);
    case 'ViewSessionOpened': {
      const { sessionId, ownerId, keyId, scopes, openedAt, expiresAt } = event.data;
      return published(AccessKeysEvents.ViewSessionOpened, { sessionId, ownerId, keyId, scopes, openedAt, expiresAt });
    }
    case 'ViewSessionRevoked':
      return published(AccessKeysEvents.ViewSessionRevoked, event.data);
    case 'ViewSessionClosed':
      return published(AccessKeysEvents.ViewSessionClosed, event.data);
    default:
      return null;
  }
});
