import { connect, type NatsConnection } from '@nats-io/transport-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { JetStreamApiCodes, JetStreamApiError, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import type { ServiceName } from '@lv/contracts';
import { natsConnectionOptions, type NatsSettings } from './connection.js';
import { scopedStreamName, scopedSubject } from './subjects.js';

/** A connection that keeps reconnecting forever: a NATS restart must never end a service. */
export async function connectNats(settings: NatsSettings | string, name: string): Promise<NatsConnection> {
  return connect({ ...natsConnectionOptions(settings, name), waitOnFirstConnect: true });
}

const NANOS_PER_MS = 1_000_000;

/**
 * Creates (or updates) the JetStream stream that holds one service's events. Only the stream's owner
 * calls this (openServiceCore does, for the service it starts): under the deployment's NATS
 * permissions no process may create or update another's stream, so a consumer of a foreign stream
 * waits for it with `awaitServiceStream` instead. File storage, limits
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
    if (!isStreamNotFound(error)) throw error;
    await jsm.streams.add(config);
  }
  return { jsm, stream };
}

/** Whether an error is JetStream's "stream not found" (and not, say, a permission refusal). */
export function isStreamNotFound(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.code === JetStreamApiCodes.StreamNotFound;
  return /stream not found/i.test(String((error as Error | undefined)?.message));
}

/** The log lines a wait for a foreign stream writes. */
export interface StreamWaitLogger {
  info(details: object, message: string): void;
}

export interface AwaitStreamOptions {
  stackId?: string;
  logger?: StreamWaitLogger;
  /** Ends the wait (a service stopping before the owner came): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** First delay between polls, doubled after each miss up to maxDelayMs (defaults 250 ms and 10 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Waits for another service's stream to exist, polling its info with backoff, and never creates or
 * updates it: the owner makes it with its own settings (replicas, limits) when it starts, and the
 * deployment's NATS permissions refuse anyone else. A refusal other than "not found" (a permission
 * violation, a timeout) is thrown at once, as no wait can cure it.
 */
export async function awaitServiceStream(nc: NatsConnection, source: ServiceName, options: AwaitStreamOptions = {}): Promise<{ jsm: JetStreamManager; stream: string; info: StreamInfo }> {
  const jsm = await jetstreamManager(nc);
  const stream = scopedStreamName(source, options.stackId);
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const startedAt = Date.now();
  for (let attempt = 1, delayMs = options.initialDelayMs ?? 250; ; attempt++, delayMs = Math.min(delayMs * 2, maxDelayMs)) {
    options.signal?.throwIfAborted();
    try {
      const info = await jsm.streams.info(stream);
      if (attempt > 1) options.logger?.info({ stream, source, waitedMs: Date.now() - startedAt }, `the ${source} stream ${stream} is there now`);
      return { jsm, stream, info };
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    if (attempt === 1) options.logger?.info({ stream, source }, `waiting for the ${source} stream ${stream}: ${source} creates it when it starts (no other service creates or updates it)`);
    await sleep(delayMs, undefined, { signal: options.signal });
  }
}
