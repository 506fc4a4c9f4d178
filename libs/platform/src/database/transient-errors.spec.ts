import { isRetryableBeforeCommit, isTransientDatabaseError } from './transient-errors.js';

/** The shape node-postgres (and MikroORM's DriverException, which copies it) gives a server error. */
const pgError = (code: string, message = 'server said no') => Object.assign(new Error(message), { code });

describe('transient database errors', () => {
  it.each(['53300', '57P01', '57P03', '08006', '40001', '40P01', 'ECONNREFUSED', 'ECONNRESET'])('treats %s as the database being unavailable', (code) => {
    expect(isTransientDatabaseError(pgError(code))).toBe(true);
  });

  it('treats a connection that died under a query as unavailable', () => {
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it.each(['23505', '23503', '42P01', '42601', '22P02'])('treats %s (a fault of the request or the code) as not transient', (code) => {
    expect(isTransientDatabaseError(pgError(code))).toBe(false);
  });

  it('treats errors with no code, and non-errors, as not transient', () => {
    expect(isTransientDatabaseError(new Error('boom'))).toBe(false);
    expect(isTransientDatabaseError(undefined)).toBe(false);
    expect(isTransientDatabaseError('53300')).toBe(false);
  });

  it('retries before commit only where nothing can have committed: a refused connection or a rollback by the server', () => {
    for (const code of ['53300', '57P03', '40001', '40P01', 'ECONNREFUSED']) expect(isRetryableBeforeCommit(pgError(code))).toBe(true);
    // A connection lost mid-transaction may have lost the answer to a COMMIT that landed.
    for (const code of ['08006', 'ECONNRESET', '57P01', '23505']) expect(isRetryableBeforeCommit(pgError(code))).toBe(false);
    expect(isRetryableBeforeCommit(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
