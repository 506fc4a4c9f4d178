import { useEffect, useState } from 'react';
import { http } from '../api/api.js';

/**
 * How many requests wait for the owner's answer (GET /api/access/requests?status=pending, as
 * api/access.ts's fetchPendingRequests; the page holds at most PENDING_REQUESTS_PAGE_SIZE). Here, not
 * there, so the vault home does not load the access pages' calls.
 */
export async function fetchPendingRequestCount(signal?: AbortSignal): Promise<number> {
  const page = await http.get('/api/access/requests', { query: { status: 'pending' }, signal });
  return Array.isArray(page.items) ? page.items.length : 0;
}

/**
 * How many access requests wait for the signed-in owner (`ownerId`; null when signed out: nothing is
 * asked). Without TanStack Query, so the vault home's first load and the side menu go without it
 * (issue 10): asked when `ownerId` is known and `active` (the menu asks each time it opens). Null
 * until known, or when it could not be read (the badge then simply does not show).
 */
export function usePendingRequestCount(ownerId: string | null, active = true): number | null {
  const [known, setKnown] = useState<{ ownerId: string; count: number } | null>(null);

  useEffect(() => {
    if (!ownerId || !active) return;
    const controller = new AbortController();
    fetchPendingRequestCount(controller.signal).then(
      (count) => {
        if (!controller.signal.aborted) setKnown({ ownerId, count });
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [ownerId, active]);

  return ownerId && known?.ownerId === ownerId ? known.count : null;
}

/** '1 pending request', '2 pending requests'. */
export const pendingRequestsLabel = (count: number) => `${count} pending ${count === 1 ? 'request' : 'requests'}`;
/** The vault home's link to Access Control: '1 access request waiting', '2 access requests waiting'. */
export const requestsWaitingLabel = (count: number) => `${count} access ${count === 1 ? 'request' : 'requests'} waiting`;
