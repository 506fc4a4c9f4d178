import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What ties together everything one request (or one job, one event) causes, across processes:
 * the gateway's request id becomes the correlation id, travels in the RPC meta to each service,
 * into the metadata of the events it appends, into the data of the jobs it queues, and from an
 * event to what its consumers do (with the event as the cause).
 */
export interface TraceContext {
  correlationId: string;
  /** The id of the request being handled here (a service's RPC message), when it is one. */
  requestId?: string;
  /** The event (or job) that caused this work, when it is one. */
  causationId?: string;
}

const storage = new AsyncLocalStorage<TraceContext>();

/** The trace of the work in progress, if any. */
export function currentTrace(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) under `trace`: every log line written meanwhile carries it. */
export function withTrace<T>(trace: TraceContext, fn: () => T): T {
  return storage.run(trace, fn);
}

/** The fields a log line gets from the current trace (pino's mixin). */
export function traceLogFields(): Partial<TraceContext> {
  const trace = storage.getStore();
  if (!trace) return {};
  return {
    correlationId: trace.correlationId,
    ...(trace.requestId !== undefined && { requestId: trace.requestId }),
    ...(trace.causationId !== undefined && { causationId: trace.causationId }),
  };
}
