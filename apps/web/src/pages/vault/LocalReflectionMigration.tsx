import { useEffect, useRef } from 'react';
import { fetchReflection, saveReflection } from '../../api/vault.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { announceMigratedReflection, forgetLocalReflection, migrateLocalReflection } from './reflection-migration.js';

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
      // The vault home, if open, shows it (and its Thoughts Saved tile) at once.
      if (outcome === 'uploaded' && reflection && current.current === userId) announceMigratedReflection(reflection);
    });
  }, [userId]);

  return null;
}
