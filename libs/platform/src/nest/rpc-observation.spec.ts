import { DomainError } from '../errors/index.js';
import { outcomeOf, serviceReadiness, traceOfMessage, type ServiceCore } from './index.js';

describe('RPC observation', () => {
  it("handles a message under its caller's correlation id, else its request id", () => {
    expect(traceOfMessage({ meta: { requestId: 'r-1', correlationId: 'c-1' } })).toEqual({ correlationId: 'c-1', requestId: 'r-1' });
    expect(traceOfMessage({ meta: { requestId: 'r-1' } })).toEqual({ correlationId: 'r-1', requestId: 'r-1' });
    expect(traceOfMessage(undefined).correlationId).toMatch(/^rpc-/);
  });

  it('labels outcomes with a bounded set: ok, the domain error code, or INTERNAL', () => {
    expect(outcomeOf()).toBe('ok');
    expect(outcomeOf(new DomainError('FORBIDDEN'))).toBe('FORBIDDEN');
    expect(outcomeOf({ code: 'NOT_FOUND', message: 'Not found' })).toBe('NOT_FOUND');
    expect(outcomeOf(new Error('boom: user 123'))).toBe('INTERNAL');
  });
});

describe('service readiness', () => {
  const core = (over: { redis?: () => Promise<unknown>; pending?: number; natsClosed?: boolean } = {}) => ({
    nats: { isClosed: () => over.natsClosed ?? false, flush: async () => undefined },
    redis: { ping: over.redis ?? (async () => 'PONG') },
    orm: { migrator: { getPending: async () => Array.from({ length: over.pending ?? 0 }) } },
  }) as unknown as ServiceCore;
  const accepting = { accepting: true };

  it('is ready when the service has started and PostgreSQL, NATS, Redis and the migrations are up', async () => {
    expect(await serviceReadiness(accepting, core(), { postgres: () => undefined }, 'letters')).toEqual({
      status: 'up', checks: { postgres: { status: 'up' }, nats: { status: 'up' }, redis: { status: 'up' }, migrations: { status: 'up' } },
    });
  });

  it('is not ready while Redis, NATS or PostgreSQL is down, or migrations are pending, naming what', async () => {
    const redisDown = await serviceReadiness(accepting, core({ redis: () => Promise.reject(new Error('connect ECONNREFUSED')) }), {}, 'letters');
    expect(redisDown).toMatchObject({ status: 'down', checks: { redis: { status: 'down', detail: 'connect ECONNREFUSED' } } });
    expect(await serviceReadiness(accepting, core({ natsClosed: true }), {}, 'letters')).toMatchObject({ status: 'down', checks: { nats: { status: 'down', detail: 'connection closed' } } });
    expect(await serviceReadiness(accepting, core({ pending: 2 }), {}, 'letters')).toMatchObject({ status: 'down', checks: { migrations: { status: 'down', detail: '2 pending migration(s)' } } });
    const dbDown = await serviceReadiness(accepting, core(), { postgres: () => { throw new Error('terminating connection'); } }, 'letters');
    expect(dbDown).toMatchObject({ status: 'down', checks: { postgres: { status: 'down' } } });
  });

  it('is not ready while starting or stopping', async () => {
    expect(await serviceReadiness({ accepting: false }, undefined, {}, 'letters')).toEqual({ status: 'down', checks: { started: { status: 'down', detail: 'starting' } } });
    expect(await serviceReadiness({ accepting: false }, core(), {}, 'letters')).toEqual({ status: 'down', checks: { started: { status: 'down', detail: 'stopping' } } });
  });
});
