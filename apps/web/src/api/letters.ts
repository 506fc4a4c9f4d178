import { randomUuid } from '../lib/uuid.js';
import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call typed from the gateway's OpenAPI document (openapi.gen.ts); the shapes under their old names.
export type Letter = Schema<'LetterDto'>;
export type LetterPage = Schema<'LetterPageDto'>;
export type WriteLetterRequest = Schema<'WriteLetterDto'>;
export type ReviseLetterRequest = Schema<'ReviseLetterDto'>;
export type SealLetterRequest = Schema<'SealLetterDto'>;

export const letterKeys = {
  all: ['letters'] as const,
  list: ['letters', 'list'] as const,
  detail: (id: string) => ['letters', 'detail', id] as const,
};

export function fetchLetterPage(cursor: string | null, signal?: AbortSignal): Promise<LetterPage> {
  return http.get('/api/letters', { query: cursor ? { cursor } : {}, signal });
}

export function fetchLetter(id: string, signal?: AbortSignal): Promise<Letter> {
  return http.get('/api/letters/{id}', { path: { id }, signal });
}

/** `id` is the client's own UUID for this letter: saving it again (a retry) cannot make a copy. */
export function writeLetter(letter: Required<WriteLetterRequest>): Promise<Letter> {
  return http.post('/api/letters', { body: letter });
}

export function reviseLetter(id: string, change: ReviseLetterRequest): Promise<Letter> {
  return http.put('/api/letters/{id}', { path: { id }, body: change });
}

export function deleteLetter(id: string): Promise<void> {
  return http.del('/api/letters/{id}', { path: { id } });
}

/** Seals the letter until a day (in the owner's time zone) for one recipient, or replaces its seal. */
export function sealLetter(id: string, seal: SealLetterRequest): Promise<Letter> {
  return http.put('/api/letters/{id}/seal', { path: { id }, body: seal });
}

/** Removes the seal before its day. */
export function unsealLetter(id: string): Promise<Letter> {
  return http.del('/api/letters/{id}/seal', { path: { id } });
}

/** A fresh UUID for a new letter. */
export const newLetterId = randomUuid;
