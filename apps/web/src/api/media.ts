import type { MediaCollection, PlaybackLink, StoredMediaType, Recording, StartUploadRequest, TimelinePage, UploadTicket } from '@lv/contracts';
import { appSession } from './app-session.js';
import { api } from './api.js';
import { ApiError, NetworkError, toErrorBody } from './client.js';
import { sha256Hex as sha256HexOf } from '../lib/sha256.js';

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
  return api.post<UploadTicket>('/api/media/uploads', request);
}

export function fetchRecordings(limit = 10, signal?: AbortSignal, collection: MediaCollection = 'vault'): Promise<Recording[]> {
  return api.get<Recording[]>(`/api/media/recordings?limit=${limit}${collection === 'vault' ? '' : `&collection=${collection}`}`, { signal });
}

/** A new title for one of the owner's items (Who I Am's personal media). */
export function retitleRecording(id: string, title: string): Promise<Recording> {
  return api.patch<Recording>(`/api/media/recordings/${encodeURIComponent(id)}`, { title });
}

/** Deletes one of the owner's recordings (a final message: it is on no timeline) with its object. */
export function deleteRecording(id: string): Promise<void> {
  return api.del<void>(`/api/media/recordings/${encodeURIComponent(id)}`);
}

export function fetchTimeline(signal?: AbortSignal): Promise<TimelinePage> {
  return api.get<TimelinePage>('/api/timeline', { signal });
}

export function deleteTimelineEntry(id: string): Promise<void> {
  return api.del<void>(`/api/timeline/${encodeURIComponent(id)}`);
}

/** A link signed for this user (3600 s); the gateway also sets the cookie that binds it to them. */
export function fetchPlaybackLink(id: string): Promise<PlaybackLink> {
  return api.post<PlaybackLink>(`/api/media/recordings/${encodeURIComponent(id)}/playback`);
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

function putOnce(url: string, body: Blob, contentType: string, token: string | null, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<Recording> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : body.size });
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        payload = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(payload as Recording);
      else reject(new ApiError(xhr.status, toErrorBody(xhr.status, payload)));
    };
    xhr.onerror = () => reject(new NetworkError('The vault could not be reached. Check your connection and try again.'));
    xhr.onabort = () => reject(new NetworkError('The upload was cancelled.'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * PUTs the recording to its upload URL with XMLHttpRequest, for upload progress (fetch has none).
 * The body streams to vault-media through the gateway. A 401 (token expired meanwhile) refreshes the
 * session once and sends again: the gateway refused it before any byte reached vault-media.
 */
export async function uploadRecordingBody(ticket: UploadTicket, body: Blob, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<Recording> {
  try {
    return await putOnce(ticket.uploadUrl, body, ticket.contentType, appSession.getAccessToken(), onProgress, signal);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    if (!(await appSession.refresh().catch(() => false))) throw error;
    return putOnce(ticket.uploadUrl, body, ticket.contentType, appSession.getAccessToken(), onProgress, signal);
  }
}

/** The whole save: fingerprint, ask (duplicates are refused here, before the body), then send the body. */
export async function saveRecording(input: { type: StoredMediaType; title: string; blob: Blob; collection?: MediaCollection; contentType?: string }, onPhase?: (phase: 'hashing' | 'uploading', progress?: UploadProgress) => void, signal?: AbortSignal): Promise<Recording> {
  onPhase?.('hashing');
  const sha256 = await fingerprintOf(input.blob);
  // A recording's format is its blob's (WebM, or MP4 where the browser records that); a file's is given.
  const contentType = input.contentType || input.blob.type;
  const ticket = await startUpload({
    type: input.type, title: input.title, sha256, size: input.blob.size, ...(input.collection ? { collection: input.collection } : {}), ...(contentType ? { contentType } : {}),
  });
  onPhase?.('uploading', { loaded: 0, total: input.blob.size });
  return uploadRecordingBody(ticket, input.blob, (p) => onPhase?.('uploading', p), signal);
}
