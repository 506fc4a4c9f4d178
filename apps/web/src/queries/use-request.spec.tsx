import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ApiError, NetworkError } from '../api/client.js';
import { useRequest } from './use-request.js';

type Load = (signal: AbortSignal) => Promise<string>;

function Probe({ load, onReload }: { load: Load; onReload?: (reload: () => void) => void }) {
  const request = useRequest(load);
  onReload?.(request.reload);
  return <p data-testid="state">{`${request.status}:${request.data ?? '-'}:${request.error instanceof Error ? request.error.message : '-'}`}</p>;
}

const shown = () => screen.getByTestId('state').textContent;
/** Lets a settled request's handlers run (they schedule the retry), then moves the fake clock. */
const after = async (ms: number) => {
  await act(async () => {});
  await act(async () => jest.advanceTimersByTime(ms));
};

afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

describe('useRequest', () => {
  it('is pending, then holds the answer', async () => {
    const load = jest.fn<Load>().mockResolvedValue('four');
    render(<Probe load={load} />);
    expect(shown()).toBe('pending:-:-');
    expect(await screen.findByText('success:four:-')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps the last answer while it reloads, then shows the new one', async () => {
    let reload!: () => void;
    let answer!: (value: string) => void;
    const load = jest.fn<Load>().mockResolvedValueOnce('one').mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    render(<Probe load={load} onReload={(r) => (reload = r)} />);
    await screen.findByText('success:one:-');
    act(() => reload());
    expect(load).toHaveBeenCalledTimes(2);
    expect(shown()).toBe('success:one:-');
    await act(async () => answer('two'));
    expect(shown()).toBe('success:two:-');
  });

  it('does not retry a refused request (4xx)', async () => {
    const load = jest.fn<Load>().mockRejectedValue(new ApiError(404, { code: 'NOT_FOUND', message: 'Not found' }));
    render(<Probe load={load} />);
    expect(await screen.findByText('error:-:Not found')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('retries other failures 3 times, 1 s doubling, then reports the last one', async () => {
    jest.useFakeTimers();
    const load = jest.fn<Load>().mockRejectedValue(new NetworkError('offline'));
    render(<Probe load={load} />);
    for (const [delay, calls] of [[1000, 2], [2000, 3], [4000, 4]] as const) {
      await after(delay - 1);
      expect(load).toHaveBeenCalledTimes(calls - 1);
      await after(1);
      expect(load).toHaveBeenCalledTimes(calls);
    }
    await after(0);
    expect(shown()).toBe('error:-:offline');
    await after(60_000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('recovers when a retry succeeds', async () => {
    jest.useFakeTimers();
    const load = jest.fn<Load>().mockRejectedValueOnce(new NetworkError('offline')).mockResolvedValueOnce('back');
    render(<Probe load={load} />);
    await after(1000);
    await after(0);
    expect(shown()).toBe('success:back:-');
  });

  it('aborts the request and stops retrying when the component goes', async () => {
    jest.useFakeTimers();
    const signals: AbortSignal[] = [];
    const load = jest.fn<Load>((signal) => {
      signals.push(signal);
      return Promise.reject(new NetworkError('offline'));
    });
    const { unmount } = render(<Probe load={load} />);
    await after(0);
    unmount();
    expect(signals[0]?.aborted).toBe(true);
    await after(60_000);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
