import type { ServiceName } from '@lv/contracts';
import { connectNats, ensureServiceStream } from '@lv/platform/messaging';

/**
 * Makes other services' streams as their owners would when they start, for a spec that runs a
 * consumer without the owner and publishes the owner's events itself: services never create a
 * stream they do not own (they wait for it), so the spec stands in for the owner.
 */
export async function makeStreamsAsOwners(natsUrl: string, owners: readonly ServiceName[], stackId?: string): Promise<void> {
  const nc = await connectNats(natsUrl, 'spec-stream-owner');
  try {
    for (const owner of owners) await ensureServiceStream(nc, owner, stackId);
  } finally {
    await nc.close();
  }
}
