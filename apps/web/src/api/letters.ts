import type { Letter, LetterPage, ReviseLetterRequest, SealLetterRequest, WriteLetterRequest } from '@lv/contracts';
import { randomUuid } from '../lib/uuid.js';
import { api } from './api.js';

export const letterKeys = {
  all: ['letters'] as const,
  list: ['letters', 'list'] as const,
  detail: (id: string) => ['letters', 'detail', id] as const,
};

export function fetchLetterPage(cursor: string | null, signal?: AbortSignal): Promise<LetterPage> {
  return api.get<LetterPage>(cursor ? `/api/letters?cursor=${encodeURIComponent(cursor)}` : '/api/letters', { signal });
}

export function fetchLetter(id: string, signal?: AbortSignal): Promise<Letter> {
  return api.get<Letter>(`/api/letters/${encodeURIComponent(id)}`, { signal });
}

/** `id` is the client's own UUID for this letter: saving it again (a retry) cannot make a copy. */
export function writeLetter(letter: Required<WriteLetterRequest>): Promise<Letter> {
  return api.post<Letter>('/api/letters', letter);
}

export function reviseLetter(id: string, change: ReviseLetterRequest): Promise<Letter> {
  return api.request<Letter>(`/api/letters/${encodeURIComponent(id)}`, { method: 'PUT', body: change });
}

export function deleteLetter(id: string): Promise<void> {
  return api.del<void>(`/api/letters/${encodeURIComponent(id)}`);
}

/** Seals the letter until a day (in the owner's time zone) for one recipient, or replaces its seal. */
export function sealLetter(id: string, seal: SealLetterRequest): Promise<Letter> {
  return api.request<Letter>(`/api/letters/${encodeURIComponent(id)}/seal`, { method: 'PUT', body: seal });
}

/** Removes the seal before its day. */
export function unsealLetter(id: string): Promise<Letter> {
  return api.request<Letter>(`/api/letters/${encodeURIComponent(id)}/seal`, { method: 'DELETE' });
}

/** A fresh UUID for a new letter. */
export const newLetterId = randomUuid;
