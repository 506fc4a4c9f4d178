import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A private nats-server with JetStream on a random port, for fault tests that stop and restart
 * NATS without disturbing the shared one. Its store survives restarts (same directory).
 */
export class PrivateNatsServer {
  private child: ChildProcess | null = null;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'lv-nats-'));
  constructor(readonly port: number) {}

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
    this.child = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    await waitFor(async () => canConnect(this.port), 10_000, 'nats-server to accept connections');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

async function canConnect(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** Polls until `check` is true; throws naming what it waited for. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
