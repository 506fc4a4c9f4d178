import type { MediaType } from '@lv/contracts';

/**
 * The unsaved recording draft (spec, section 3: unsaved_draft): its description in localStorage under
 * `unsaved_draft` (what the shell's unsaved-work detection and the sign-out dialog look for), and the
 * recording itself in IndexedDB, which can hold a blob of megabytes. "Sign Out Without Saving"
 * removes the localStorage key; a blob left without its key is dropped the next time the recorder opens.
 *
 * The keys are the browser's, not the account's, so both the description and the stored blob record
 * whose recording it is: another account signing in on the same browser never gets it restored, and
 * a sign-out that does not keep drafts removes the blob (discardDraft).
 */
export const DRAFT_KEY = 'unsaved_draft';
const DB_NAME = 'legacy-vault-drafts';
const STORE = 'recordings';

export interface RecordingDraft {
  type: MediaType;
  title: string;
  durationSeconds: number;
  mimeType: string;
  size: number;
  savedAt: string;
  /** The user id of whoever recorded it. */
  owner: string;
}

/** What IndexedDB holds under DRAFT_KEY: the recording and its owner. */
interface StoredRecording {
  owner: string;
  blob: Blob;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storage = (): StorageLike | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

export function readDraft(store: StorageLike | undefined = storage()): RecordingDraft | null {
  try {
    const raw = store?.getItem(DRAFT_KEY);
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<RecordingDraft>;
    if (draft.type !== 'video' && draft.type !== 'audio') return null;
    // A draft without an owner (written before drafts were bound) cannot be told apart from someone else's.
    if (typeof draft.owner !== 'string' || !draft.owner) return null;
    return {
      type: draft.type,
      title: typeof draft.title === 'string' ? draft.title : '',
      durationSeconds: Number(draft.durationSeconds) || 0,
      mimeType: typeof draft.mimeType === 'string' ? draft.mimeType : `${draft.type}/webm`,
      size: Number(draft.size) || 0,
      savedAt: typeof draft.savedAt === 'string' ? draft.savedAt : new Date().toISOString(),
      owner: draft.owner,
    };
  } catch {
    return null;
  }
}

export function writeDraftInfo(draft: RecordingDraft, store: StorageLike | undefined = storage()): void {
  try {
    store?.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // storage full or unavailable: the draft simply is not kept
  }
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('IndexedDB is not available'));
      return;
    }
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB failed'));
  });
}

async function withStore<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

/** Keeps the recording and its description; false when the blob could not be kept (the description still is). */
export async function saveDraft(draft: RecordingDraft, blob: Blob): Promise<boolean> {
  writeDraftInfo(draft);
  try {
    await withStore('readwrite', (store) => store.put({ owner: draft.owner, blob } satisfies StoredRecording, DRAFT_KEY));
    return true;
  } catch {
    return false;
  }
}

function isStoredRecording(value: unknown): value is StoredRecording {
  return typeof value === 'object' && value !== null && typeof (value as StoredRecording).owner === 'string' && (value as StoredRecording).blob instanceof Blob;
}

/**
 * The owner's kept draft and its recording. Someone else's draft stays where it is (its owner may
 * come back after "Save Drafts & Sign Out") but is never returned; a blob without its description
 * (signed out without saving) or without an owner is removed.
 */
export async function loadDraft(owner: string): Promise<{ draft: RecordingDraft; blob: Blob | null } | null> {
  const draft = readDraft();
  if (!draft) {
    await withStore('readwrite', (store) => store.delete(DRAFT_KEY)).catch(() => undefined);
    return null;
  }
  if (draft.owner !== owner) return null;
  const stored = await withStore<unknown>('readonly', (store) => store.get(DRAFT_KEY)).catch(() => null);
  if (!isStoredRecording(stored) || stored.owner !== owner) return { draft, blob: null };
  return { draft, blob: stored.blob };
}

/** Removes the draft's description and its recording ("Record Again", a save, a sign-out that keeps no drafts). */
export async function discardDraft(): Promise<void> {
  try {
    storage()?.removeItem(DRAFT_KEY);
  } catch {
    // ignore
  }
  await withStore('readwrite', (store) => store.delete(DRAFT_KEY)).catch(() => undefined);
}
