import { Inject, Injectable } from '@nestjs/common';
import { statsRpc, type ServiceName, type VaultStats } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, RPC_CLIENT, STATS_PROVIDERS } from '../infra/tokens.js';
import { aggregateVaultStats } from './vault-stats.js';

/** The little a stats lookup needs to log a provider that did not answer. */
export interface WarnLogger {
  warn(object: object, message: string): void;
}

/** A slow provider must not hold the vault home hostage: each gets at most this long. */
export const STATS_PROVIDER_TIMEOUT_MS = 2000;

/**
 * Asks every stats provider (`rpc.<service>.stats`) in parallel for the caller's numbers and adds
 * them up. A provider that fails or times out is logged and counted as 0, never a 500.
 */
@Injectable()
export class VaultStatsService {
  private readonly timeoutMs: number;

  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(STATS_PROVIDERS) private readonly providers: readonly ServiceName[],
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.timeoutMs = Math.min(config.RPC_TIMEOUT_MS, STATS_PROVIDER_TIMEOUT_MS);
  }

  async statsFor(call: CallContext, log: WarnLogger): Promise<VaultStats> {
    const contributions = await Promise.all(
      this.providers.map(async (service) => {
        try {
          return await this.rpc.call(statsRpc(service), {}, call, this.timeoutMs);
        } catch (error) {
          log.warn({ service, err: error }, `stats provider ${service} did not answer; counted as 0`);
          return null;
        }
      }),
    );
    return aggregateVaultStats(contributions);
  }
}
