import { Writable } from 'node:stream';
import { withTraceIds } from '../event-store/event-store.js';
import { jobTrace, withJobTrace } from '../queues/index.js';
import { createLogger, currentTrace, withTrace } from './index.js';

function capture(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk: Buffer, _e, done) { lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>); done(); } });
  return { lines, stream };
}

describe('the trace context', () => {
  it('names every log line written while a request is handled, across awaits, and none outside it', async () => {
    const { lines, stream } = capture();
    const logger = createLogger('letters', 'info', {}, stream);
    logger.info('before');
    await withTrace({ correlationId: 'req-1', requestId: 'req-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('inside');
      await Promise.all([1, 2].map(async () => logger.child({ component: 'relay' }).info('in a child')));
    });
    logger.info('after');
    expect(lines.map((l) => [l.msg, l.correlationId, l.requestId])).toEqual([
      ['before', undefined, undefined], ['inside', 'req-1', 'req-1'], ['in a child', 'req-1', 'req-1'], ['in a child', 'req-1', 'req-1'], ['after', undefined, undefined],
    ]);
  });

  it('keeps two requests handled at once apart', async () => {
    const seen: (string | undefined)[] = [];
    await Promise.all(['a', 'b'].map((id) => withTrace({ correlationId: id }, async () => {
      await new Promise((resolve) => setTimeout(resolve, id === 'a' ? 5 : 1));
      seen.push(`${id}:${currentTrace()?.correlationId}`);
    })));
    expect(seen.sort()).toEqual(['a:a', 'b:b']);
  });

  it("puts the correlation and causation ids into an event's metadata unless the caller set them", () => {
    expect(withTraceIds({ actor: { kind: 'user', id: 'u-1' } }, undefined)).toEqual({ actor: { kind: 'user', id: 'u-1' } });
    expect(withTraceIds({ actor: { kind: 'user', id: 'u-1' } }, { correlationId: 'req-1', causationId: 'evt-0' })).toEqual({ actor: { kind: 'user', id: 'u-1' }, correlationId: 'req-1', causationId: 'evt-0' });
    expect(withTraceIds({ correlationId: 'delivery-9' }, { correlationId: 'req-1' })).toEqual({ correlationId: 'delivery-9' });
  });

  it("carries the trace in a job's data and works the job under it (or a trace of its own)", () => {
    const data = withJobTrace({ keyId: 'k-1' }, { correlationId: 'req-1', requestId: 'req-1', causationId: 'evt-0' });
    expect(data).toEqual({ keyId: 'k-1', _trace: { correlationId: 'req-1', causationId: 'evt-0' } });
    expect(withJobTrace({ keyId: 'k-1' }, undefined)).toEqual({ keyId: 'k-1' });
    expect(jobTrace({ data, id: 'key-k-1', queueName: 'key-emails' })).toEqual({ correlationId: 'req-1', causationId: 'evt-0', requestId: 'job-key-emails-key-k-1' });
    expect(jobTrace({ data: { keyId: 'k-2' }, id: 'key-k-2', queueName: 'key-emails' })).toEqual({ correlationId: 'job-key-emails-key-k-2', causationId: undefined, requestId: 'job-key-emails-key-k-2' });
  });
});
