import { useCallback, useEffect, useState } from 'react';
import { retryDelayMs, shouldRetryQuery } from './query-retry.js';

export type RequestState<T> =
  | { status: 'pending'; data?: undefined; error?: undefined }
  | { status: 'success'; data: T; error?: undefined }
  | { status: 'error'; data?: T; error: unknown };

/**
 * One GET for a page that loads without TanStack Query: the vault home, whose first load must stay
 * within 120 KB (issue 10; the library is 10 KB of it). Runs when the component mounts and again on
 * `reload()`, keeps the last answer while it reloads, retries as the app's queries do (not a 4xx, 1 s
 * doubling) and aborts when the component goes. `load` must be stable (a module's function).
 */
export function useRequest<T>(load: (signal: AbortSignal) => Promise<T>): RequestState<T> & { reload: () => void } {
  const [state, setState] = useState<RequestState<T>>({ status: 'pending' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (failures: number) => {
      load(controller.signal).then(
        (data) => {
          if (!controller.signal.aborted) setState({ status: 'success', data });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (shouldRetryQuery(failures, error)) retryTimer = setTimeout(() => attempt(failures + 1), retryDelayMs(failures));
          else setState((previous) => ({ status: 'error', data: previous.data, error }));
        },
      );
    };
    attempt(0);
    return () => {
      controller.abort();
      clearTimeout(retryTimer);
    };
  }, [load, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { ...state, reload };
}
