import { randomUUID } from 'node:crypto';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { Observable, tap } from 'rxjs';
import type { RpcRequest } from '@lv/contracts';
import { toErrorBody } from '../errors/index.js';
import { withTrace, type TraceContext } from '../logging/trace-context.js';
import { unscopedSubject } from '../messaging/subjects.js';
import { rpcDuration, rpcRequests } from '../observability/metrics.js';

/** The trace a message is handled under: the caller's correlation id (else its request id), and that request id. */
export function traceOfMessage(message: Partial<RpcRequest> | undefined): TraceContext {
  const requestId = typeof message?.meta?.requestId === 'string' ? message.meta.requestId : `rpc-${randomUUID()}`;
  const correlationId = typeof message?.meta?.correlationId === 'string' ? message.meta.correlationId : requestId;
  return { correlationId, requestId };
}

/** ok, a domain error's code, or INTERNAL: a bounded set, fit for a metric label. */
export function outcomeOf(error?: unknown): string {
  if (error === undefined) return 'ok';
  return toErrorBody(error)?.code ?? 'INTERNAL';
}

/** Messages the interceptor saw: the error filter counts only the ones refused before it (by the guard). */
const observed = new WeakSet<object>();

function subjectOf(context: ExecutionContext): string {
  const subject = context.switchToRpc().getContext<NatsContext | undefined>()?.getSubject?.();
  return subject ? unscopedSubject(subject) : 'unknown';
}

/**
 * Runs every RPC handler under the trace its message carried (so each log line, appended event and
 * queued job names the request), and counts and times it by subject and outcome.
 */
@Injectable()
export class RpcObservationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const message = context.switchToRpc().getData<RpcRequest | undefined>();
    if (message && typeof message === 'object') observed.add(message);
    const subject = subjectOf(context);
    const end = rpcDuration.startTimer({ subject });
    const record = (error?: unknown) => {
      const outcome = outcomeOf(error);
      end({ outcome });
      rpcRequests.inc({ subject, outcome });
    };
    return new Observable((subscriber) => withTrace(traceOfMessage(message), () =>
      next.handle().pipe(tap({ complete: () => record(), error: (error: unknown) => record(error) })).subscribe(subscriber)));
  }
}

/** Counts a request the guard refused before the interceptor saw it (the error filter calls this). */
export function recordRefusedRpc(host: Pick<ExecutionContext, 'getType' | 'switchToRpc'>, error: unknown): void {
  if (host.getType() !== 'rpc') return;
  const message = host.switchToRpc().getData<unknown>();
  if (message && typeof message === 'object' && observed.has(message)) return;
  rpcRequests.inc({ subject: subjectOf(host as ExecutionContext), outcome: outcomeOf(error) });
}
