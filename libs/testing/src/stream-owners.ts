import { jetstreamManager } from '@nats-io/jetstream';
import type { ServiceName } from '@lv/contracts';
import { connectNats, ensureServiceStream, scopedStreamName } from '@lv/platform/messaging';

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

/** Deletes a spec's stack streams (those of `services`), so JetStream keeps nothing of a finished spec. */
export async function deleteStackStreams(natsUrl: string, services: readonly ServiceName[], stackId?: string): Promise<void> {
  const nc = await connectNats(natsUrl, 'spec-cleanup');
  try {
    const jsm = await jetstreamManager(nc);
    for (const service of services) await jsm.streams.delete(scopedStreamName(service, stackId)).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
