import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type VaultStats = Schema<'VaultStatsDto'>;
export type Reflection = Schema<'ReflectionDto'>;

export function fetchVaultStats(signal?: AbortSignal): Promise<VaultStats> {
  return http.get('/api/vault/stats', { signal });
}

/** The signed-in user's "Thoughts & Feelings" reflection, kept (encrypted) in their vault. */
export function fetchReflection(signal?: AbortSignal): Promise<Reflection> {
  return http.get('/api/vault/reflection', { signal });
}

/** Saves the reflection (trimmed by the server); a blank text clears it. */
export function saveReflection(text: string): Promise<Reflection> {
  return http.put('/api/vault/reflection', { body: { text } });
}
