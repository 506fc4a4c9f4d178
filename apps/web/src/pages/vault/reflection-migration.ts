import { REFLECTION_MAX, type Reflection } from '@lv/contracts';

/**
 * Where the original product kept the reflection: browser-local storage, shared by everybody who
 * signs in on that browser. The reflection now lives in the user's vault (GET/PUT
 * /api/vault/reflection); this key is only read once more, to move old text into the vault, and is
 * never shown on screen.
 */
export const LEGACY_THOUGHTS_KEY = 'vault_thoughts';

type ReadableStorage = Pick<Storage, 'getItem' | 'removeItem'>;

export type MigrationOutcome =
  /** Nothing to move (no key, or a blank one, which is removed). */
  | 'nothing'
  /** The local text was uploaded into the signed-in user's empty vault reflection, then removed. */
  | 'uploaded'
  /** The vault already holds a reflection: it wins, and the local copy is removed unseen. */
  | 'discarded'
  /** The signed-in user changed while migrating: nothing was uploaded, the key is kept. */
  | 'skipped'
  /** The server could not be reached: the key is kept for the next attempt. */
  | 'failed';

export interface MigrationDeps {
  storage: ReadableStorage | undefined;
  fetchReflection(): Promise<Reflection>;
  saveReflection(text: string): Promise<Reflection>;
  /** Still the user the migration started for (checked right before uploading). */
  stillSignedIn(): boolean;
}

function read(storage: ReadableStorage | undefined): string | null {
  try {
    return storage?.getItem(LEGACY_THOUGHTS_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Removes the browser-local reflection (after the migration, and on every sign-out). */
export function forgetLocalReflection(storage: Pick<Storage, 'removeItem'> | undefined): void {
  try {
    storage?.removeItem(LEGACY_THOUGHTS_KEY);
  } catch {
    // storage unavailable: nothing stored there either
  }
}

/**
 * Moves a reflection left in localStorage by the original product into the signed-in user's vault,
 * once: uploaded only when the vault holds none (the server's reflection is never overwritten), and
 * removed from the browser as soon as the vault has a reflection.
 */
export async function migrateLocalReflection(deps: MigrationDeps): Promise<{ outcome: MigrationOutcome; reflection?: Reflection }> {
  const local = read(deps.storage);
  if (local === null) return { outcome: 'nothing' };
  if (local.trim() === '') {
    forgetLocalReflection(deps.storage);
    return { outcome: 'nothing' };
  }
  try {
    const server = await deps.fetchReflection();
    if (server.text.trim() !== '') {
      forgetLocalReflection(deps.storage);
      return { outcome: 'discarded', reflection: server };
    }
    // A sign-out (or another account) since the start: never upload into someone else's vault.
    if (!deps.stillSignedIn()) return { outcome: 'skipped' };
    // The vault keeps at most REFLECTION_MAX characters; the browser copy is about to go, so keep
    // as much of an (unlikely) longer one as the vault can hold rather than nothing.
    const saved = await deps.saveReflection(local.trim().slice(0, REFLECTION_MAX));
    forgetLocalReflection(deps.storage);
    return { outcome: 'uploaded', reflection: saved };
  } catch (error) {
    console.warn('Could not move the local reflection into the vault yet', error);
    return { outcome: 'failed' };
  }
}

type MigratedListener = (reflection: Reflection) => void;
const migratedListeners = new Set<MigratedListener>();

/**
 * Tells the vault home, when it is open, that an old browser reflection was just moved into the
 * vault (it loaded the reflection itself, maybe before the upload). Returns the unsubscribe.
 */
export function onReflectionMigrated(listener: MigratedListener): () => void {
  migratedListeners.add(listener);
  return () => migratedListeners.delete(listener);
}

export function announceMigratedReflection(reflection: Reflection): void {
  for (const listener of migratedListeners) listener(reflection);
}
