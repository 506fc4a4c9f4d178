import { Logger } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import type { ErrorBody } from '@lv/contracts';
import { DomainError } from '../errors/index.js';
import { RpcErrorFilter } from './rpc-exception.filter.js';

/** A host that is not an RPC context: the filter's metric is skipped, the mapping is what is tested. */
const host = { getType: () => 'http' } as never;
const answerTo = (exception: unknown) => firstValueFrom(new RpcErrorFilter().catch(exception, host)).then(
  () => { throw new Error('the filter answered without an error'); },
  (body: ErrorBody) => body,
);

describe('RpcErrorFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('keeps a domain error as it is', async () => {
    expect(await answerTo(new DomainError('NOT_FOUND'))).toEqual({ code: 'NOT_FOUND', message: new DomainError('NOT_FOUND').message });
  });

  it('answers a busy database (too many clients, a deadlock) with SERVICE_UNAVAILABLE and a retry hint, not INTERNAL', async () => {
    for (const code of ['53300', '40P01']) {
      const body = await answerTo(Object.assign(new Error('sorry, too many clients already'), { code }));
      expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 1 });
      expect(body.message).not.toContain('clients');
    }
  });

  it('answers anything else with INTERNAL and an error id, never with its message', async () => {
    const body = await answerTo(Object.assign(new Error('duplicate key value violates unique constraint "secret_idx"'), { code: '23505' }));
    expect(body).toMatchObject({ code: 'INTERNAL', errorId: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain('secret_idx');
  });
});
