/**
 * The recordings and files being saved right now, for the shell: an upload goes on while its owner
 * moves around the app (the save's promise outlives the page that started it), so its progress, a
 * lost connection and a failure are shown wherever he is. A tiny store without React Query, so the
 * shell's first load carries no more than this file.
 */
export interface UploadInFlight {
  /** One per recording (its collection and SHA-256): a second save of the same one replaces it. */
  key: string;
  title: string;
  /** The page the save was started on: that page shows its own progress, the shell the others. */
  page: string;
  loaded: number;
  total: number;
  state: 'uploading' | 'reconnecting' | 'failed';
  /** Sends it again from the last byte the vault holds (failed only). */
  retry?: () => void;
}

type Listener = () => void;
const uploads = new Map<string, UploadInFlight>();
const listeners = new Set<Listener>();
let snapshot: readonly UploadInFlight[] = [];

function changed(): void {
  snapshot = [...uploads.values()];
  for (const listener of listeners) listener();
}

export const uploadsInFlight = {
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): readonly UploadInFlight[] => snapshot,
  update: (key: string, change: Partial<UploadInFlight> & Pick<UploadInFlight, 'title' | 'page'>): void => {
    const before = uploads.get(key);
    uploads.set(key, { loaded: 0, total: 0, state: 'uploading', ...before, ...change, key, ...(change.state && change.state !== 'failed' ? { retry: undefined } : {}) });
    changed();
  },
  remove: (key: string): void => {
    if (uploads.delete(key)) changed();
  },
};
