import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider.js';
import { LocalReflectionMigration } from '../pages/vault/LocalReflectionMigration.js';
import { WithQueryClient } from './query-client-source.js';

/** Drops cached server data when the signed-in user changes (sign-out, expiry, another account). */
function CacheResetOnUserChange() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const previous = useRef<string | null>(null);
  const userId = user?.id ?? null;
  useEffect(() => {
    if (previous.current !== null && previous.current !== userId) queryClient.clear();
    previous.current = userId;
  }, [userId, queryClient]);
  return null;
}

/** What watches the signed-in user on behalf of the data layer (mounted from the first sign-in on). */
export function DataEffects() {
  return (
    <WithQueryClient>
      <CacheResetOnUserChange />
      <LocalReflectionMigration />
    </WithQueryClient>
  );
}
