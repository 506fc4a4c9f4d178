import { useEffect, useRef } from 'react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../../api/client.js';

/** What every viewer read needs from the view session (use-view-session.tsx). */
export interface ViewerAccess {
  session: string;
  viewerToken: () => string;
  /** Asks the session for a new viewer token: true when reading may go on. */
  reauthorize: () => Promise<boolean>;
  /** The server said the session is over: the whole viewer shows it. */
  onEnded: (error: unknown) => void;
}

/**
 * One read of the viewer's, with the session's rules: a 4xx is not retried; refused as
 * unauthenticated, the token may only have lapsed (a phone asleep past its renewal), so it is renewed
 * once and the read repeated; refused again, the session is over and the whole viewer says so.
 */
export function useViewerRead<T>(access: ViewerAccess, key: QueryKey, read: (token: string, signal: AbortSignal) => Promise<T>, enabled = true) {
  const query = useQuery({
    queryKey: ['view', access.session, ...key],
    queryFn: ({ signal }) => read(access.viewerToken(), signal),
    enabled,
    retry: (count, error) => !(error instanceof ApiError && error.isClientError) && count < 2,
  });
  const { refetch, isSuccess } = query;
  const { reauthorize, onEnded } = access;
  const refused = query.error instanceof ApiError && query.error.status === 401 ? query.error : null;
  const renewed = useRef(false);
  useEffect(() => {
    if (isSuccess) renewed.current = false;
  }, [isSuccess]);
  useEffect(() => {
    if (!refused) return;
    if (renewed.current) return onEnded(refused);
    renewed.current = true;
    void reauthorize().then((ok) => {
      if (ok) void refetch();
    });
  }, [refused, onEnded, reauthorize, refetch]);
  return { ...query, refused: refused !== null };
}
