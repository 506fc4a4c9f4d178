import { DRAFT_KEY } from '../../drafts/recording-draft.js';

/** What IndexedDB itself holds under the recording draft's key, read without the module under test (specs only). */
export function storedRecording(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('legacy-vault-drafts', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('recordings');
    open.onerror = () => reject(open.error ?? new Error('indexedDB.open failed'));
    open.onsuccess = () => {
      const db = open.result;
      const get = db.transaction('recordings', 'readonly').objectStore('recordings').get(DRAFT_KEY);
      get.onsuccess = () => { db.close(); resolve(get.result); };
      get.onerror = () => { db.close(); reject(get.error ?? new Error('get failed')); };
    };
  });
}
