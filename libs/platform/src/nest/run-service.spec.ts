import { jest } from '@jest/globals';
import { checkHealth, PeriodicTask, rememberUp, runInOrder, ServiceNatsServer } from './run-service.js';

const silent = { warn: () => undefined, error: () => undefined };

describe('checkHealth', () => {
  it('is up when every check resolves', async () => {
    expect(await checkHealth('letters', { postgres: () => undefined, storage: async () => undefined })).toEqual({
      service: 'letters', status: 'up', checks: { postgres: { status: 'up' }, storage: { status: 'up' } },
    });
  });

  it('is down, with the failing check and its reason, when one check throws', async () => {
    const reply = await checkHealth('vault-media', {
      postgres: () => undefined,
      media_http: () => { throw new Error('the byte-stream listener is not listening'); },
    });
    expect(reply).toEqual({
      service: 'vault-media', status: 'down',
      checks: { postgres: { status: 'up' }, media_http: { status: 'down', detail: 'the byte-stream listener is not listening' } },
    });
  });

  it('reports a check that does not answer in time as down instead of hanging', async () => {
    const reply = await checkHealth('identity', { postgres: () => new Promise<void>(() => undefined) }, 20);
    expect(reply).toEqual({ service: 'identity', status: 'down', checks: { postgres: { status: 'down', detail: 'no answer within 20 ms' } } });
  });
});

describe('rememberUp', () => {
  it('runs the check once while its "up" is remembered, and again after', async () => {
    let clock = 0;
    const check = jest.fn(async () => undefined);
    const remembered = rememberUp(check, 30_000, () => clock);
    await remembered();
    clock = 29_999;
    await remembered();
    expect(check).toHaveBeenCalledTimes(1);
    clock = 30_000;
    await remembered();
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('never remembers a failure: the next call checks again and reports the dependency back', async () => {
    const check = jest.fn<() => Promise<void>>().mockRejectedValueOnce(new Error('connect ECONNREFUSED')).mockResolvedValue(undefined);
    const remembered = rememberUp(check, 30_000, () => 0);
    await expect(remembered()).rejects.toThrow('connect ECONNREFUSED');
    await expect(remembered()).resolves.toBeUndefined();
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('shares one running check between calls made while it runs', async () => {
    let finish!: () => void;
    const check = jest.fn(() => new Promise<void>((resolve) => { finish = resolve; }));
    const remembered = rememberUp(check, 30_000, () => 0);
    const both = Promise.all([remembered(), remembered()]);
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await both;
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('reports down through checkHealth like any check', async () => {
    const remembered = rememberUp(() => { throw new Error('SMTP greeting never came'); }, 30_000);
    expect(await checkHealth('notifications', { smtp: remembered })).toEqual({
      service: 'notifications', status: 'down', checks: { smtp: { status: 'down', detail: 'SMTP greeting never came' } },
    });
  });
});

describe('runInOrder', () => {
  it('runs every step in order and goes on past a failing one, returning its error', async () => {
    const ran: string[] = [];
    const logged: string[] = [];
    const errors = await runInOrder([
      ['requests', () => { ran.push('requests'); }],
      ['consumer', async () => { ran.push('consumer'); throw new Error('stuck'); }],
      ['connections', async () => { ran.push('connections'); }],
    ], { error: (_obj: unknown, message: string) => { logged.push(message); } } as never);
    expect(ran).toEqual(['requests', 'consumer', 'connections']);
    expect(errors.map((e) => e.message)).toEqual(['stuck']);
    expect(logged).toEqual(['shutdown: consumer failed']);
  });
});

describe('PeriodicTask', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at start and then on every tick', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const task = new PeriodicTask({ name: 'sweep', everyMs: 1000, run: async () => { runs++; } }, silent);
    task.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(4);
    await task.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(4);
  });

  it('never runs twice at once, and stop() waits for the run in progress', async () => {
    jest.useFakeTimers();
    let running = 0;
    let most = 0;
    let finish!: () => void;
    let finished = false;
    const task = new PeriodicTask({
      name: 'sweep', everyMs: 100,
      run: () => {
        running++;
        most = Math.max(most, running);
        return new Promise<void>((resolve) => { finish = () => { running--; finished = true; resolve(); }; });
      },
    }, silent);
    task.start();
    await jest.advanceTimersByTimeAsync(500);
    expect(most).toBe(1);
    const stopped = task.stop().then(() => 'stopped');
    await Promise.resolve();
    expect(finished).toBe(false);
    finish();
    expect(await stopped).toBe('stopped');
    expect(finished).toBe(true);
  });

  it('logs a failed run and tries again at the next tick', async () => {
    jest.useFakeTimers();
    const warnings: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask({ name: 'sweep', everyMs: 100, run: async () => { runs++; if (runs === 1) throw new Error('storage down'); } }, { warn: (obj: unknown) => { warnings.push(obj); } } as never);
    task.start();
    await jest.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    expect(warnings).toEqual([expect.objectContaining({ task: 'sweep', err: expect.objectContaining({ message: 'storage down' }) })]);
    await task.stop();
  });
});

describe('ServiceNatsServer', () => {
  it('says it is listening only once the NATS server has answered a flush sent after its subscriptions', async () => {
    const server = new ServiceNatsServer({ servers: ['nats://127.0.0.1:1'], queue: 'letters' });
    server.addHandler('lv.letters.rpc.list', async () => 'ok', false);
    const sent: string[] = [];
    let answerFlush: () => void = () => undefined;
    const client = {
      subscribe: (subject: string, options: { queue?: string }) => { sent.push(`SUB ${subject} ${options.queue}`); return { unsubscribe: () => undefined }; },
      flush: () => { sent.push('PING'); return new Promise<void>((resolve) => { answerFlush = resolve; }); },
    };
    jest.spyOn(server, 'unwrap').mockReturnValue(client as never);
    const listening = jest.fn();

    server.start(listening);
    expect(sent).toEqual(['SUB lv.letters.rpc.list letters', 'PING']);
    await Promise.resolve();
    expect(listening).not.toHaveBeenCalled();
    answerFlush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(listening).toHaveBeenCalledWith();
  });

  it('hands a flush that fails to Nest as the start-up error', async () => {
    const server = new ServiceNatsServer({ servers: ['nats://127.0.0.1:1'] });
    const refused = new Error('connection closed');
    jest.spyOn(server, 'unwrap').mockReturnValue({ subscribe: () => ({}), flush: () => Promise.reject(refused) } as never);
    const listening = jest.fn();
    server.start(listening);
    await new Promise((resolve) => setImmediate(resolve));
    expect(listening).toHaveBeenCalledWith(refused);
  });
});
