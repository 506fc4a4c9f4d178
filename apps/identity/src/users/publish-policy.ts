import { IdentityEvents, type IdentityEvent } from '@lv/contracts';
import type { PublishPolicy } from '@lv/platform/event-store';

/** Every identity event is public to the other services; none carries a secret (see migrations). */
export const identityPublishPolicy: PublishPolicy = (event) => {
  const type = event.type as IdentityEvent['type'];
  return { subject: IdentityEvents[type].subject, data: event.data };
};
