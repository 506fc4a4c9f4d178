import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withTrace, type TraceContext } from '@lv/platform/logging';
import { httpDuration, httpRequests } from '@lv/platform/observability';

const traces = new WeakMap<FastifyRequest, TraceContext>();

/** Paths whose label would be unbounded (every unknown URL): reported under one name. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Each request runs under a trace whose correlation id is its request id (the X-Request-Id it
 * answers with), so the RPC calls it makes carry it to the services and every log line written for
 * it, here or there, names it. The trace is entered again before validation: a request body is read
 * from socket events, which run outside the context the request started in. Each answer is counted
 * and timed by method, route pattern and status.
 */
export function registerRequestTracing(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const trace: TraceContext = { correlationId: request.id };
    traces.set(request, trace);
    withTrace(trace, done);
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    const trace = traces.get(request);
    if (trace) withTrace(trace, done);
    else done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
