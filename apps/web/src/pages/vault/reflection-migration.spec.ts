import { describe, expect, it, jest } from '@jest/globals';
import { REFLECTION_MAX, type Reflection } from '@lv/contracts';
import { forgetLocalReflection, LEGACY_THOUGHTS_KEY, migrateLocalReflection, type MigrationDeps } from './reflection-migration.js';

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    removeItem: (key: string) => void map.delete(key),
    has: (key: string) => map.has(key),
  };
}

const none: Reflection = { text: '', updated_at: null };
const at = '2026-11-22T10:00:00.000Z';

function deps(over: Partial<MigrationDeps> & { storage: MigrationDeps["storage"] }) {
  const fetchReflection = jest.fn<MigrationDeps['fetchReflection']>(async () => none);
  const saveReflection = jest.fn<MigrationDeps['saveReflection']>(async (text) => ({ text, updated_at: at }));
  return { fetchReflection, saveReflection, stillSignedIn: () => true, ...over };
}

describe('moving the old browser-local reflection into the vault', () => {
  it('does nothing (and asks the server nothing) when the browser holds no reflection', async () => {
    const d = deps({ storage: memoryStorage() });
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'nothing' });
    expect(d.fetchReflection).not.toHaveBeenCalled();
    expect(d.saveReflection).not.toHaveBeenCalled();
  });

  it('removes a blank local reflection without uploading it', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: '  \n ' });
    const d = deps({ storage });
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'nothing' });
    expect(storage.has(LEGACY_THOUGHTS_KEY)).toBe(false);
    expect(d.saveReflection).not.toHaveBeenCalled();
  });

  it('uploads the local text once when the vault has none, then removes the key', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: '  Written before the update.\n' });
    const d = deps({ storage });
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'uploaded', reflection: { text: 'Written before the update.', updated_at: at } });
    expect(d.saveReflection).toHaveBeenCalledTimes(1);
    expect(d.saveReflection).toHaveBeenCalledWith('Written before the update.');
    expect(storage.has(LEGACY_THOUGHTS_KEY)).toBe(false);
    // A second run has nothing left to move.
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'nothing' });
    expect(d.saveReflection).toHaveBeenCalledTimes(1);
  });

  it('never overwrites a reflection already in the vault: the local copy is dropped unseen', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: 'Someone’s older words.' });
    const server: Reflection = { text: 'My words, in my vault.', updated_at: at };
    const d = deps({ storage, fetchReflection: async () => server });
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'discarded', reflection: server });
    expect(d.saveReflection).not.toHaveBeenCalled();
    expect(storage.has(LEGACY_THOUGHTS_KEY)).toBe(false);
  });

  it('keeps the key for a later try when the server cannot be reached or refuses the save', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: 'Not lost.' });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(migrateLocalReflection(deps({ storage, fetchReflection: async () => Promise.reject(new Error('offline')) }))).resolves.toEqual({ outcome: 'failed' });
    await expect(migrateLocalReflection(deps({ storage, saveReflection: async () => Promise.reject(new Error('503')) }))).resolves.toEqual({ outcome: 'failed' });
    expect(storage.getItem(LEGACY_THOUGHTS_KEY)).toBe('Not lost.');
    warn.mockRestore();
  });

  it('uploads nothing when the user signed out (or another signed in) while it was checking', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: 'Private.' });
    const d = deps({ storage, stillSignedIn: () => false });
    await expect(migrateLocalReflection(d)).resolves.toEqual({ outcome: 'skipped' });
    expect(d.saveReflection).not.toHaveBeenCalled();
  });

  it('keeps as much of an over-long local reflection as the vault holds', async () => {
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: 'x'.repeat(REFLECTION_MAX + 50) });
    const save = jest.fn<MigrationDeps['saveReflection']>(async (text) => ({ text, updated_at: at }));
    await migrateLocalReflection(deps({ storage, saveReflection: save }));
    expect(save.mock.calls[0]![0]).toHaveLength(REFLECTION_MAX);
  });

  it('works without storage, and forgetting tolerates a storage that throws', async () => {
    await expect(migrateLocalReflection(deps({ storage: undefined }))).resolves.toEqual({ outcome: 'nothing' });
    const throwing = { getItem: () => { throw new Error('denied'); }, removeItem: () => { throw new Error('denied'); } };
    await expect(migrateLocalReflection(deps({ storage: throwing }))).resolves.toEqual({ outcome: 'nothing' });
    expect(() => forgetLocalReflection(throwing)).not.toThrow();
    const storage = memoryStorage({ [LEGACY_THOUGHTS_KEY]: 'x', other: 'y' });
    forgetLocalReflection(storage);
    expect(storage.has(LEGACY_THOUGHTS_KEY)).toBe(false);
    expect(storage.has('other')).toBe(true);
  });
});
