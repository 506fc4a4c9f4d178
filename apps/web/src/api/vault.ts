import type { Reflection, SaveReflectionRequest, VaultStats } from '@lv/contracts';
import { api } from './api.js';

export function fetchVaultStats(signal?: AbortSignal): Promise<VaultStats> {
  return api.get<VaultStats>('/api/vault/stats', { signal });
}

/** The signed-in user's "Thoughts & Feelings" reflection, kept (encrypted) in their vault. */
export function fetchReflection(signal?: AbortSignal): Promise<Reflection> {
  return api.get<Reflection>('/api/vault/reflection', { signal });
}

/** Saves the reflection (trimmed by the server); a blank text clears it. */
export function saveReflection(text: string): Promise<Reflection> {
  return api.request<Reflection>('/api/vault/reflection', { method: 'PUT', body: { text } satisfies SaveReflectionRequest });
}
