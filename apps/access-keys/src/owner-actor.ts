import type { RequestMeta } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import type { EventMetadata } from '@lv/platform/event-store';

/** The metadata of an owner's own change: he is the actor, his request the correlation. */
export const ownerActor = (owner: UserCaller, meta: RequestMeta): EventMetadata => ({
  actor: { kind: 'user', id: owner.userId }, ...(meta.requestId ? { correlationId: meta.requestId } : {}),
});
