import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A port nobody listens on, for a server started a little later: below the kernel's ephemeral range
 * (32768-60999 on Linux), where no outgoing connection can take it first (tools/dev/infra.mjs does the same).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!claimPort(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

/**
 * A port handed out is claimed across processes (specs run in parallel, and stacks beside them) by
 * creating its file, as tools/dev/infra.mjs claims its ports: nobody is given it again for ten minutes,
 * so two servers never race for one port between its check and its bind.
 */
function claimPort(port: number): boolean {
  const dir = join(tmpdir(), 'lv-port-claims');
  const file = join(dir, String(port));
  mkdirSync(dir, { recursive: true });
  try {
    if (Date.now() - statSync(file).mtimeMs < 10 * 60_000) return false;
    rmSync(file, { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
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

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts the server (again, after stop(): same port, same JetStream store). */
  async start(): Promise<void> {
    if (this.child) return;
    const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2000); });
    // Fail fast (with the server's own words) when it dies at boot, e.g. a port taken meanwhile.
    let exited: string | null = null;
    child.once('error', (error) => { exited = error.message; });
    child.once('exit', (code, signal) => { exited ??= `exited with ${code ?? signal}`; });
    try {
      await waitFor(async () => {
        if (exited !== null) throw new Error(`nats-server ${exited}: ${stderr.trim()}`);
        return canConnect(this.port);
      }, 10_000, 'nats-server to accept connections');
    } catch (error) {
      await this.stop('SIGKILL');
      throw error;
    }
  }

  /** Stops the server; SIGTERM shuts down cleanly, SIGKILL simulates a crash. The store is kept. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
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

/**
 * Polls until `check` is true; throws naming what it waited for. A check that is answered
 * SERVICE_UNAVAILABLE ("try again in a moment": a service that PostgreSQL refused for a moment, e.g.
 * too many connections on a loaded machine) is polled again, as a client would; any other error ends
 * the wait at once.
 */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let unavailable: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'SERVICE_UNAVAILABLE') throw error;
      unavailable = error;
    }
    if (Date.now() > deadline) {
      const last = unavailable === undefined ? '' : ` (last answered: ${(unavailable as Error).message})`;
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
