import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { ServiceName } from '@lv/contracts';
import { natsConnectionOptions, type NatsSettings } from './connection.js';
import { scopedStreamName, scopedSubject } from './subjects.js';

/** A connection that keeps reconnecting forever: a NATS restart must never end a service. */
export async function connectNats(settings: NatsSettings | string, name: string): Promise<NatsConnection> {
  return connect({ ...natsConnectionOptions(settings, name), waitOnFirstConnect: true });
}

const NANOS_PER_MS = 1_000_000;

/**
 * Creates (or updates) the JetStream stream that holds one service's events: file storage, limits
 * retention (events stay replayable for consumers that arrive later), and a 2-minute duplicate
 * window that makes `Nats-Msg-Id` = event id deduplicate relay retries.
 */
export async function ensureServiceStream(
  nc: NatsConnection,
  service: ServiceName,
  stackId?: string,
  /** Copies kept by a JetStream cluster (3 in deploy/k8s; 1 on a single server). */
  options: { replicas?: number } = {},
): Promise<{ jsm: JetStreamManager; stream: string }> {
  const jsm = await jetstreamManager(nc);
  const stream = scopedStreamName(service, stackId);
  const config = {
    name: stream,
    subjects: [scopedSubject(`${service}.>`, stackId)],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: 2 * 60 * 1000 * NANOS_PER_MS,
    num_replicas: options.replicas ?? 1,
  };
  try {
    await jsm.streams.info(stream);
    await jsm.streams.update(stream, config);
  } catch (error) {
    if (!String((error as Error).message).includes('not found')) throw error;
    await jsm.streams.add(config);
  }
  return { jsm, stream };
}
