import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { queue } from '@lv/contracts';
import { InvalidJobDataError, JOB_TRACE_FIELD, jobTrace, parseJobData, withJobTrace, withoutJobTrace } from './index.js';

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const Probes = queue('probes', z.strictObject({ probeId: z.string().min(1), count: z.number().int() }));

describe('job data at the edges of a queue', () => {
  it('reads data that passes its declaration, the trace the platform added left out', () => {
    const traced = withJobTrace({ probeId: 'p1', count: 2 }, { correlationId: 'req-1', causationId: 'evt-1' });
    expect(traced).toEqual({ probeId: 'p1', count: 2, [JOB_TRACE_FIELD]: { correlationId: 'req-1', causationId: 'evt-1' } });
    expect(parseJobData(Probes, traced)).toEqual({ probeId: 'p1', count: 2 });
    expect(withoutJobTrace(traced)).toEqual({ probeId: 'p1', count: 2 });
    expect(jobTrace({ data: traced, id: '7', queueName: 'probes' })).toEqual({ correlationId: 'req-1', causationId: 'evt-1', requestId: 'job-probes-7' });
  });

  it('refuses data that does not pass, naming the queue and each field, as an error BullMQ does not retry', () => {
    const error = thrownBy(() => parseJobData(Probes, { probeId: '', count: 'two', extra: true }));
    if (!(error instanceof InvalidJobDataError)) throw new Error(`expected an InvalidJobDataError, got ${String(error)}`);
    expect(error.message).toMatch(/^job data does not match the "probes" queue's schema: /);
    expect(error.issues.map((issue) => issue.split(':')[0])).toEqual(['probeId', 'count', '(data)']);
    // BullMQ moves a job to the failed set without retries when its error is an UnrecoverableError.
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(() => parseJobData(Probes, null)).toThrow(/"probes" queue's schema: \(data\): /);
  });

  it('works a job without a carried trace (or with a broken one) under a trace of its own', () => {
    expect(jobTrace({ data: { probeId: 'p1' }, id: '9', queueName: 'probes' })).toEqual({ correlationId: 'job-probes-9', causationId: undefined, requestId: 'job-probes-9' });
    expect(jobTrace({ data: { [JOB_TRACE_FIELD]: { correlationId: 42 } }, id: '9', queueName: 'probes' }).correlationId).toBe('job-probes-9');
    expect(jobTrace({ data: 'not an object', id: undefined, queueName: 'probes' }).correlationId).toBe('job-probes-new');
  });
});
