import type { ReactNode } from 'react';

/**
 * A note that explains why something will not happen yet (an unverified address, a plan's limit),
 * shown beside the control it concerns. role="note": read in place, never announced like an alert.
 */
export function Note({ children }: { children: ReactNode }) {
  return (
    <p role="note" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
      {children}
    </p>
  );
}
