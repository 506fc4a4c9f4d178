import type { VaultStats } from '@lv/contracts';
import { api } from './api.js';

export const vaultKeys = {
  stats: ['vault', 'stats'] as const,
};

export function fetchVaultStats(signal?: AbortSignal): Promise<VaultStats> {
  return api.get<VaultStats>('/api/vault/stats', { signal });
}
