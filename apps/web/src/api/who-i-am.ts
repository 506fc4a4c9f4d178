import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type Portrait = Schema<'PortraitDto'>;
export type SavePortraitRequest = Schema<'SavePortraitDto'>;

export const whoIAmKeys = { portrait: ['who-i-am', 'portrait'] as const };

/** The signed-in owner's Who I Am portrait, kept (encrypted) in his vault. */
export function fetchPortrait(signal?: AbortSignal): Promise<Portrait> {
  return http.get('/api/who-i-am', { signal });
}

/** Saves the whole portrait (Save Profile); the server trims it and drops empty core values. */
export function savePortrait(portrait: SavePortraitRequest): Promise<Portrait> {
  return http.put('/api/who-i-am', { body: portrait });
}
