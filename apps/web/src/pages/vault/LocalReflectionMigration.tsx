import { useContext, useEffect, useRef } from 'react';
import { fetchReflection, saveReflection, vaultKeys } from '../../api/vault.js';
import { QueryClientSourceContext } from '../../app/query-source.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { forgetLocalReflection, migrateLocalReflection } from './reflection-migration.js';

const storage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

/**
 * Keeps the old browser-local reflection (localStorage `vault_thoughts`) from reaching the wrong
 * person: after a sign-in it is moved into that user's vault when the vault has none, then removed;
 * when the user signs out (or another account takes over the tab) it is removed. Renders nothing.
 */
export function LocalReflectionMigration() {
  const { user } = useAuth();
  const querySource = useContext(QueryClientSourceContext);
  const current = useRef<string | null>(null);
  const userId = user?.id ?? null;

  useEffect(() => {
    const previous = current.current;
    current.current = userId;
    if (previous !== null && previous !== userId) forgetLocalReflection(storage());
    if (userId === null) return;
    void migrateLocalReflection({
      storage: storage(),
      fetchReflection: () => fetchReflection(),
      saveReflection: (text) => saveReflection(text),
      stillSignedIn: () => current.current === userId,
    }).then(({ outcome, reflection }) => {
      if (outcome !== 'uploaded' || !reflection || current.current !== userId) return;
      // Rare (once per old browser): TanStack Query may load for it rather than be in the first load.
      return querySource.load().then((queryClient) => {
        if (current.current !== userId) return;
        queryClient.setQueryData(vaultKeys.reflection, reflection);
        void queryClient.invalidateQueries({ queryKey: vaultKeys.stats });
      });
    });
  }, [userId, querySource]);

  return null;
}
