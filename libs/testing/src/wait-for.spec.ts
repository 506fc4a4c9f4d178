import { waitFor } from './nats-server.js';

const unavailable = () => Object.assign(new Error('The vault is temporarily unavailable. Please try again in a moment.'), { code: 'SERVICE_UNAVAILABLE' });

describe('waitFor', () => {
  it('polls again after a "try again in a moment" answer, and returns once the check holds', async () => {
    let calls = 0;
    await waitFor(() => {
      calls += 1;
      if (calls === 1) throw unavailable();
      return calls === 3;
    }, 1_000, 'the third call', 1);
    expect(calls).toBe(3);
  });

  it('ends the wait at once on any other error', async () => {
    let calls = 0;
    const failing = waitFor(() => {
      calls += 1;
      throw Object.assign(new Error('boom'), { code: 'INTERNAL' });
    }, 1_000, 'nothing', 1);
    await expect(failing).rejects.toThrow('boom');
    expect(calls).toBe(1);
  });

  it('times out naming what it waited for and the last unavailable answer', async () => {
    await expect(waitFor(() => { throw unavailable(); }, 20, 'the watch', 1)).rejects.toThrow(
      'Timed out after 20 ms waiting for the watch (last answered: The vault is temporarily unavailable. Please try again in a moment.)',
    );
  });
});
