import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@lv/platform/logging';
import { natsConnectionOptions, type NatsSettings } from '@lv/platform/messaging';

/**
 * A NATS connection used only to tell /api/health whether the bus is reachable (a PING round trip).
 * It never blocks the gateway's start: when NATS is down at boot it keeps retrying in the
 * background, and once connected the client reconnects by itself. RPCs go through RpcClient.
 */
export class NatsProbe {
  private connection: NatsConnection | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private lastError = 'not connected yet';

  constructor(private readonly nats: NatsSettings | string, private readonly logger: Logger, private readonly retryMs = 2000) {}

  start(): void {
    void this.attempt();
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    try {
      const nc = await connect({ ...natsConnectionOptions(this.nats, 'gateway-health'), timeout: 2000 });
      if (this.closed) {
        await nc.close().catch(() => undefined);
        return;
      }
      this.connection = nc;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.logger.warn({ err: error }, 'NATS not reachable yet; retrying');
      this.retryTimer = setTimeout(() => void this.attempt(), this.retryMs);
      this.retryTimer.unref();
    }
  }

  /** Round-trip time to the server in ms; throws when NATS cannot be reached. */
  async ping(): Promise<number> {
    const nc = this.connection;
    if (!nc || nc.isClosed()) throw new Error(`not connected: ${this.lastError}`);
    return nc.rtt();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const nc = this.connection;
    this.connection = null;
    if (nc && !nc.isClosed()) await nc.close().catch(() => undefined);
  }
}
