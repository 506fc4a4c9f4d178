import { appSession } from './app-session.js';
import { http } from './api.js';
import { ApiError, NetworkError, toErrorBody } from './client.js';
import type { Schema } from './typed-api.js';
import { sha256Hex as sha256HexOf } from '../lib/sha256.js';
import { uploadsInFlight } from './uploads-in-flight.js';

// The JSON calls and every shape are the gateway's OpenAPI document's (openapi.gen.ts); the bytes go
// by tus (or one PUT) below.
export type Recording = Schema<'RecordingDto'>;
export type UploadTicket = Schema<'UploadTicketDto'>;
export type StartUploadRequest = Schema<'StartUploadDto'>;
type StoredMediaType = StartUploadRequest['type'];
type MediaCollection = NonNullable<StartUploadRequest['collection']>;
export type TimelinePage = Schema<'TimelinePageDto'>;
export type PlaybackLink = Schema<'PlaybackLinkDto'>;

export const mediaKeys = {
  all: ['media'] as const,
  recordings: ['media', 'recordings'] as const,
  finalMessages: ['media', 'final-messages'] as const,
  portraitPhoto: ['media', 'who-i-am-photo'] as const,
  portraitMedia: ['media', 'who-i-am'] as const,
  timeline: ['media', 'timeline'] as const,
  playback: (id: string) => ['media', 'playback', id] as const,
};

export function startUpload(request: StartUploadRequest): Promise<UploadTicket> {
  return http.post('/api/media/uploads', { body: request });
}

export function fetchRecordings(limit = 10, signal?: AbortSignal, collection: MediaCollection = 'vault'): Promise<Recording[]> {
  return http.get('/api/media/recordings', { query: { limit: String(limit), ...(collection === 'vault' ? {} : { collection }) }, signal });
}

/** A new title for one of the owner's items (Who I Am's personal media). */
export function retitleRecording(id: string, title: string): Promise<Recording> {
  return http.patch('/api/media/recordings/{id}', { path: { id }, body: { title } });
}

/** Deletes one of the owner's recordings (a final message: it is on no timeline) with its object. */
export function deleteRecording(id: string): Promise<void> {
  return http.del('/api/media/recordings/{id}', { path: { id } });
}

export function fetchTimeline(signal?: AbortSignal): Promise<TimelinePage> {
  return http.get('/api/timeline', { signal });
}

export function deleteTimelineEntry(id: string): Promise<void> {
  return http.del('/api/timeline/{id}', { path: { id } });
}

/** A link signed for this user (3600 s); the gateway also sets the cookie that binds it to them. */
export function fetchPlaybackLink(id: string): Promise<PlaybackLink> {
  return http.post('/api/media/recordings/{id}/playback', { path: { id } });
}

/** SHA-256 of a recording, hex, with the browser's Web Crypto (the server checks it again as the bytes arrive). */
export async function sha256Hex(blob: Blob): Promise<string> {
  return sha256HexOf(await blob.arrayBuffer(), 'fingerprint recordings');
}

const fingerprints = new WeakMap<Blob, Promise<string>>();

/**
 * The recording's SHA-256, computed once per recording: the recorder starts it as soon as recording
 * stops, and a second save of the same recording (a retry after a failed upload, a second click) is
 * refused as a duplicate in one round trip instead of hashing it all again. A failed hash is
 * forgotten, so the next save tries again.
 */
export function fingerprintOf(blob: Blob, hash: (blob: Blob) => Promise<string> = sha256Hex): Promise<string> {
  let pending = fingerprints.get(blob);
  if (!pending) {
    pending = hash(blob);
    fingerprints.set(blob, pending);
    pending.catch(() => fingerprints.delete(blob));
  }
  return pending;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Waits before each retry of a resumable upload that lost its connection: about two minutes in all, then the owner is asked. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];

/** The saved recording in the answer to the request that completed the upload (none when an earlier, lost answer did). */
function recordingIn(body: string): Recording | null {
  try {
    const parsed: unknown = body ? JSON.parse(body) : null;
    return parsed && typeof parsed === 'object' && 'id' in parsed ? (parsed as Recording) : null;
  } catch {
    return null;
  }
}

/** A failed tus request as the app's errors: the service's ErrorBody when it answered, a network error when nothing came. */
function uploadError(error: Error & { originalResponse?: { getStatus(): number; getBody(): string } | null }): Error {
  const response = error.originalResponse;
  if (!response || !response.getStatus()) return new NetworkError('The vault could not be reached. Check your connection and try again.');
  let payload: unknown;
  try {
    payload = JSON.parse(response.getBody());
  } catch {
    payload = undefined;
  }
  return new ApiError(response.getStatus(), toErrorBody(response.getStatus(), payload));
}

/**
 * Sends the recording with the tus protocol (tus-js-client, loaded only when a save starts): one
 * PATCH of the whole body while the connection holds; when it drops, the client asks the vault how
 * much it holds (HEAD) and goes on from there, retrying for about two minutes. An expired session is
 * refreshed and the request sent again. Resolves with the saved recording, or null when the vault had
 * it complete already (an answer lost on the way): the caller looks it up.
 */
export async function uploadRecordingBody(ticket: UploadTicket, body: Blob, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal, onReconnecting?: () => void): Promise<Recording | null> {
  const { Upload } = await import('tus-js-client');
  let refreshing: Promise<unknown> | null = null;
  return new Promise((resolve, reject) => {
    const upload = new Upload(body, {
      uploadUrl: ticket.resumableUrl,
      uploadSize: body.size,
      retryDelays: RETRY_DELAYS_MS,
      storeFingerprintForResuming: false,
      async onBeforeRequest(request) {
        await refreshing;
        const token = appSession.getAccessToken();
        if (token) request.setHeader('Authorization', `Bearer ${token}`);
        request.setHeader('Accept', 'application/json');
      },
      onShouldRetry(error, attempt) {
        const status = error.originalResponse?.getStatus() ?? 0;
        // The token expired meanwhile: refresh it once, then send again.
        if (status === 401) {
          if (attempt > 0) return false;
          refreshing = appSession.refresh().catch(() => false);
          return true;
        }
        // The vault refused the bytes (format, size, hash) or the upload is closed: retrying cannot help.
        if (status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429) return false;
        onReconnecting?.();
        return true;
      },
      onProgress: (sent, total) => onProgress?.({ loaded: sent, total }),
      onSuccess: ({ lastResponse }) => resolve(recordingIn(lastResponse.getBody())),
      onError: (error) => reject(uploadError(error)),
    });
    signal?.addEventListener('abort', () => {
      void upload.abort();
      reject(new NetworkError('The upload was cancelled.'));
    }, { once: true });
    upload.start();
  });
}

/**
 * Uploads this browser opened and did not finish, by the recording's SHA-256: the same recording
 * saved again (its draft after a closed tab, the same file picked again) goes on where it stopped.
 */
const OPEN_UPLOADS_KEY = 'lv.open-uploads';

interface OpenUpload {
  ticket: UploadTicket;
  /** The title it was opened with: a save under another title is another recording. */
  title: string;
}

function openUploads(): Record<string, OpenUpload> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(OPEN_UPLOADS_KEY) ?? '{}');
    return stored && typeof stored === 'object' ? (stored as Record<string, OpenUpload>) : {};
  } catch {
    return {};
  }
}

function rememberUpload(key: string, upload: OpenUpload | null): void {
  try {
    const all = openUploads();
    if (upload) all[key] = upload;
    else delete all[key];
    localStorage.setItem(OPEN_UPLOADS_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused (private mode): the upload still works, only a closed tab starts again.
  }
}

/**
 * The whole save: fingerprint, ask (duplicates are refused here, before the body), then send the
 * body, resumably. An upload this browser left unfinished for the same recording goes on instead.
 */
export async function saveRecording(input: { type: StoredMediaType; title: string; blob: Blob; collection?: MediaCollection; contentType?: string }, onPhase?: (phase: 'hashing' | 'uploading', progress?: UploadProgress) => void, signal?: AbortSignal): Promise<Recording> {
  onPhase?.('hashing');
  const sha256 = await fingerprintOf(input.blob);
  // A recording's format is its blob's (WebM, or MP4 where the browser records that); a file's is given.
  const contentType = input.contentType || input.blob.type;
  const collection = input.collection ?? 'vault';
  const key = `${collection}:${sha256}`;
  const shown = { title: input.title, page: typeof location === 'undefined' ? '' : location.pathname };
  const send = async (ticket: UploadTicket): Promise<Recording> => {
    onPhase?.('uploading', { loaded: 0, total: input.blob.size });
    uploadsInFlight.update(key, { ...shown, loaded: 0, total: input.blob.size, state: 'uploading' });
    const saved = await uploadRecordingBody(ticket, input.blob, (p) => {
      onPhase?.('uploading', p);
      uploadsInFlight.update(key, { ...shown, loaded: p.loaded, total: p.total, state: 'uploading' });
    }, signal, () => uploadsInFlight.update(key, { ...shown, state: 'reconnecting' }));
    rememberUpload(key, null);
    return saved ?? (await fetchRecordings(100, signal, collection)).find((r) => r.id === ticket.uploadId) ?? Promise.reject(new NetworkError('The recording was saved. Reload the page to see it.'));
  };
  /** An upload this browser left unfinished for the same recording goes on; else a new ticket. */
  const sendOnce = async (): Promise<Recording> => {
    const unfinished = openUploads()[key];
    if (unfinished?.ticket.resumableUrl && unfinished.title === input.title) {
      try {
        return await send(unfinished.ticket);
      } catch (error) {
        // Gone meanwhile (swept, or another account's): start afresh below. Anything else is the answer.
        if (!(error instanceof ApiError) || ![400, 403, 404, 410].includes(error.status)) throw error;
        rememberUpload(key, null);
      }
    }
    const ticket = await startUpload({
      type: input.type, title: input.title, sha256, size: input.blob.size, ...(input.collection ? { collection: input.collection } : {}), ...(contentType ? { contentType } : {}),
    });
    rememberUpload(key, { ticket, title: input.title });
    try {
      return await send(ticket);
    } catch (error) {
      // Refused for good (its bytes, its size): nothing to go on with later.
      if (error instanceof ApiError && error.status !== 401) rememberUpload(key, null);
      throw error;
    }
  };
  try {
    const saved = await sendOnce();
    uploadsInFlight.remove(key);
    return saved;
  } catch (error) {
    // Shown in the shell with a retry (the page that started it may be gone); a refusal or a duplicate the page says itself.
    if (error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)) {
      uploadsInFlight.update(key, { ...shown, state: 'failed', retry: () => void saveRecording(input).catch(() => undefined) });
    } else {
      uploadsInFlight.remove(key);
    }
    throw error;
  }
}
