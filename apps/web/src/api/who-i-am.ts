import type { Portrait, SavePortraitRequest } from '@lv/contracts';
import { api } from './api.js';

export const whoIAmKeys = { portrait: ['who-i-am', 'portrait'] as const };

/** The signed-in owner's Who I Am portrait, kept (encrypted) in his vault. */
export function fetchPortrait(signal?: AbortSignal): Promise<Portrait> {
  return api.get<Portrait>('/api/who-i-am', { signal });
}

/** Saves the whole portrait (Save Profile); the server trims it and drops empty core values. */
export function savePortrait(portrait: SavePortraitRequest): Promise<Portrait> {
  return api.request<Portrait>('/api/who-i-am', { method: 'PUT', body: portrait });
}
