import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { healthRpc, type HealthReport, type ServiceHealthReply, type ServiceName } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import type { NatsProbe } from '../infra/nats-probe.js';
import { GATEWAY_CONFIG, NATS_PROBE, REDIS, ROOT_LOGGER, RPC_CLIENT } from '../infra/tokens.js';
import { HEALTH_CHECK_TIMEOUT_MS, runCheck, toHealthReport, type CheckResult } from './health-check.js';

function isServiceHealthReply(value: unknown): value is ServiceHealthReply {
  if (!value || typeof value !== 'object') return false;
  const reply = value as Partial<ServiceHealthReply>;
  return (reply.status === 'up' || reply.status === 'down') && (reply.checks === undefined || (typeof reply.checks === 'object' && reply.checks !== null));
}

/**
 * What /api/health reports, all checks in parallel and each bounded by HEALTH_CHECK_TIMEOUT_MS:
 * - `nats`: a PING round trip on the bus;
 * - `redis`: PING (the revocation list lives there);
 * - `<service>` for each HEALTH_SERVICES entry, via `rpc.<service>.health`, and each check the service
 *   reports about itself as `<check>:<service>` (e.g. `postgres:identity`, its own database, and
 *   `storage:vault-media`: object storage is checked by the service that holds its keys).
 * A report that is down is logged with its details, since anonymous callers only see the status.
 */
@Injectable()
export class HealthService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(NATS_PROBE) private readonly nats: NatsProbe,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async report(meta: CallContext['meta']): Promise<HealthReport> {
    const [nats, redis, ...services] = await Promise.all([
      runCheck(async () => `rtt ${Math.round(await this.nats.ping())} ms`),
      runCheck(async () => {
        const answer = await this.redis.ping();
        if (answer !== 'PONG') throw new Error(`unexpected PING answer ${String(answer)}`);
      }),
      ...this.config.HEALTH_SERVICES.map((service) => this.checkService(service, meta)),
    ]);
    const checks: Record<string, CheckResult> = { nats, redis };
    for (const serviceChecks of services) Object.assign(checks, serviceChecks);
    const report = toHealthReport(checks);
    if (report.status !== 'up') {
      const down = Object.fromEntries(Object.entries(checks).filter(([, check]) => check.status !== 'up'));
      this.logger.warn({ requestId: meta.requestId, down }, `health: down (${Object.keys(down).join(', ')})`);
    }
    return report;
  }

  private async checkService(service: ServiceName, meta: CallContext['meta']): Promise<Record<string, CheckResult>> {
    let reply: ServiceHealthReply | undefined;
    const result = await runCheck(async () => {
      const answer = await this.rpc.call(healthRpc(service), {}, { meta }, HEALTH_CHECK_TIMEOUT_MS).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE') throw new Error(`no answer (not running, or slower than ${HEALTH_CHECK_TIMEOUT_MS} ms)`);
        throw error;
      });
      if (!isServiceHealthReply(answer)) throw new Error('malformed health reply');
      reply = answer;
      if (answer.status !== 'up') {
        const failing = Object.entries(answer.checks ?? {}).filter(([, check]) => check?.status !== 'up').map(([name]) => name);
        throw new Error(failing.length ? `reports ${failing.join(', ')} down` : 'reports itself down');
      }
    }, HEALTH_CHECK_TIMEOUT_MS + 250);
    const checks: Record<string, CheckResult> = { [service]: result.status === 'down' && !reply ? { ...result, detail: `${service}: ${result.detail}` } : result };
    if (reply) {
      for (const [name, check] of Object.entries(reply.checks ?? {})) {
        checks[`${name}:${service}`] = { status: check?.status === 'up' ? 'up' : 'down', latencyMs: result.latencyMs, ...(check?.detail ? { detail: String(check.detail) } : {}) };
      }
    } else {
      // The service's own dependencies cannot be known when it does not answer: report them down, not missing.
      checks[`postgres:${service}`] = { status: 'down', latencyMs: result.latencyMs, detail: `unknown: ${service} did not answer` };
    }
    return checks;
  }
}
