import type { toast as sonnerToast } from 'sonner';

/**
 * sonner's toast, loaded on first use so the library stays off the first load of every page that
 * shows none (issue 10). A toast made before the Toaster has mounted is shown when it mounts (sonner
 * replays the active ones to a new subscriber).
 */
export function showToast(show: (toast: typeof sonnerToast) => unknown): void {
  void import('sonner').then(({ toast }) => show(toast));
}
