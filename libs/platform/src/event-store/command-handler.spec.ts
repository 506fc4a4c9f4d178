import { retryBeforeCommit } from './command-handler.js';

const pgError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

/** An attempt that fails with `failures` in turn, then answers 'done'; counts its calls. */
function attempts(...failures: Error[]) {
  let calls = 0;
  const run = async () => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return 'done';
  };
  return { run, calls: () => calls };
}

describe('retryBeforeCommit', () => {
  it('runs the transaction again after a refused connection or a rollback by the server', async () => {
    const attempt = attempts(pgError('53300'), pgError('40P01'));
    await expect(retryBeforeCommit(attempt.run)).resolves.toBe('done');
    expect(attempt.calls()).toBe(3);
  });

  it('gives up after three retries and throws the last failure', async () => {
    const attempt = attempts(pgError('53300'), pgError('53300'), pgError('53300'), pgError('57P03'), pgError('53300'));
    await expect(retryBeforeCommit(attempt.run)).rejects.toMatchObject({ code: '57P03' });
    expect(attempt.calls()).toBe(4);
  });

  it('never re-runs after a failure that may have committed, or a fault of the request', async () => {
    for (const failure of [pgError('08006'), pgError('23505'), new Error('boom')]) {
      const attempt = attempts(failure);
      await expect(retryBeforeCommit(attempt.run)).rejects.toBe(failure);
      expect(attempt.calls()).toBe(1);
    }
  });
});
