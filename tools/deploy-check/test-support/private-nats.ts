// A private nats-server configured the way a deployment configures it: docker-compose's server config
// (deploy/nats/nats.conf: TLS required) on a free loopback port, certificates made the way
// tools/dev/compose-secrets.mjs makes them, the permission file rendered from the table of
// nats-permissions.mjs, JetStream in a store of its own, and a random password per user.
// Used by nats-permissions.int.spec.ts and production-shape.int.spec.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { natsConnectionOptions, type NatsSettings } from '@lv/platform/messaging';
import { freePort, waitFor } from '@lv/testing';
import { ensureNatsTls } from '../../dev/compose-secrets.mjs';
import { NATS_USERS, passwordVariable, renderAuthConf } from '../nats-permissions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface PrivateNats {
  url: string;
  /** The CA file every client verifies the server's certificate with (NATS_TLS_CA). */
  tlsCa: string;
  /** Each user's password (NATS_PASSWORD of its process). */
  passwords: Record<string, string>;
  /** The settings of a process connecting as `user`. */
  settings(user: string): NatsSettings;
  /** The server's last output (for a failure's message). */
  output(): string;
  /** Every permission violation the server logged (a process asked for something its user may not). */
  violations(): string[];
  /** Whether it has exited, and how. */
  exited(): string | null;
  stop(): Promise<void>;
}

/** Starts the server with its config, certificates and store under `dir`; resolves once it takes a connection. */
export async function startPrivateNats(dir: string, binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server'): Promise<PrivateNats> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  // As compose-secrets.mjs makes them: a letter first, or nats-server may read "4e5…" as a number.
  const passwords = Object.fromEntries(NATS_USERS.map((u) => [u.user, `lv${randomBytes(24).toString('hex')}`]));
  const tlsDir = join(dir, 'tls');
  ensureNatsTls(tlsDir);
  const tlsCa = join(tlsDir, 'client', 'ca.crt');
  const composeConf = readFileSync(join(root, 'deploy', 'nats', 'nats.conf'), 'utf8');
  const conf = composeConf.replace(/^port: 4222$/m, `listen: "127.0.0.1:${port}"`).replaceAll('/etc/nats/tls/', `${join(tlsDir, 'server')}/`);
  if (!conf.includes(`127.0.0.1:${port}`) || conf.includes('/etc/nats')) throw new Error('deploy/nats/nats.conf no longer has the port and TLS paths this helper rewrites');
  writeFileSync(join(dir, 'nats.conf'), conf);
  writeFileSync(join(dir, 'auth.conf'), renderAuthConf());
  const env = { ...process.env, ...Object.fromEntries(NATS_USERS.map((u) => [passwordVariable(u.user), passwords[u.user]])) };
  const server: ChildProcess = spawn(binary, ['-js', '-sd', join(dir, 'js'), '-c', join(dir, 'nats.conf')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const violations: string[] = [];
  server.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  if (server.stderr) createInterface({ input: server.stderr }).on('line', (line) => { if (/violation/i.test(line)) violations.push(line); });
  let exited: string | null = null;
  server.once('exit', (code, signal) => { exited = signal ? `was killed by ${signal}` : `exited with ${code}`; });
  const settings = (user: string): NatsSettings => ({ NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user], NATS_TLS_CA: tlsCa });
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    await new Promise<void>((resolve) => { server.once('exit', () => resolve()); server.kill('SIGTERM'); });
  };
  try {
    await waitFor(async () => {
      if (exited) throw new Error(`nats-server ${exited}: ${stderr}`);
      try {
        // One attempt each time, no reconnects: the probe must not wait for a server on its own.
        await (await connect({ ...natsConnectionOptions(settings('identity'), 'private-nats-probe'), maxReconnectAttempts: 0, reconnect: false, timeout: 2000 })).close();
        return true;
      } catch {
        return false;
      }
    }, 10_000, 'the private nats-server');
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, tlsCa, passwords, settings, output: () => stderr, violations: () => [...violations], exited: () => exited, stop };
}
