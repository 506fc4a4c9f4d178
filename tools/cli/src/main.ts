#!/usr/bin/env node
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import { BackupError } from '@lv/platform/backup';
import { ConfigError, readPem } from '@lv/platform/config';
import { DomainError } from '@lv/platform/errors';
import { RpcClient } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { COMMANDS, helpText, UsageError, type OperatorTools } from './commands.js';
import type { ByteSender } from './music-commands.js';
import { bullmqQueueOperations, type QueueOperations } from './queue-operations.js';
import { runningStack } from './running-stack.js';
import { CommandError } from './usage-error.js';

/** NATS_URL, else the NATS of the stack running from this checkout. */
function natsUrl(): string {
  return process.env.NATS_URL ?? runningStack().natsUrl ?? 'nats://127.0.0.1:4222';
}

/** The queues on REDIS_URL (else the running stack's Redis) under STACK_ID's key prefix, opened on first use. */
function lazyQueues(): { tools: OperatorTools; close(): Promise<void> } {
  let queues: QueueOperations | null = null;
  return {
    tools: {
      queues() {
        const stack = runningStack();
        queues ??= bullmqQueueOperations(process.env.REDIS_URL ?? stack.redisUrl ?? 'redis://127.0.0.1:6379', queuePrefix(process.env.STACK_ID ?? stack.stackId ?? ''));
        return queues;
      },
    },
    close: async () => { await queues?.close(); },
  };
}

/** vault-media's byte listener: VAULT_MEDIA_URL, else the one of the stack running from this checkout, else the dev default. */
function vaultMediaUrl(): string {
  return process.env.VAULT_MEDIA_URL ?? runningStack().mediaUrl ?? 'http://127.0.0.1:3001';
}

/** Files go to a service's own byte listener over HTTP, streamed from disk, with the operator's token. */
function byteSender(token: string): ByteSender {
  return {
    async facts(file) {
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw new UsageError(`no file at ${file}`);
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
      return { size: info.size, sha256: hash.digest('hex') };
    },
    async put(_service, path, file, contentType) {
      const { size } = await stat(file);
      const response = await fetch(new URL(path, vaultMediaUrl()), {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(size) },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: shown as it came
      }
      return { status: response.status, body };
    },
  };
}

/**
 * The operators' CLI: `npm run vault -- <command>`. It signs a two-minute operator token with the
 * identity key (operators run it where the key is: the dev stack's .data/keys, or JWT_PRIVATE_KEY
 * in production) and calls the services' commands over NATS.
 */
async function main(argv: string[]): Promise<number> {
  // Nest's NATS client logs connection status on stdout; the CLI's stdout is JSON for scripts.
  Logger.overrideLogger(false);
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help') {
    console.log(helpText());
    return name ? 0 : 1;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${helpText()}`);
    return 1;
  }
  if (command.local) {
    try {
      const result = await command.run(args, () => Promise.reject(new Error(`${name} calls no service`)));
      console.log(JSON.stringify(result, null, 2));
      return 0;
    } catch (error) {
      return reportFailure(error, command.usage);
    }
  }
  const keyPath = process.env.JWT_PRIVATE_KEY ?? join(process.cwd(), '.data', 'keys', 'jwt-private.pem');
  if (!keyPath.includes('-----BEGIN') && !existsSync(keyPath)) {
    console.error(`No identity key at ${keyPath}: start the stack once (npm start) or set JWT_PRIVATE_KEY.`);
    return 1;
  }
  const token = signOperatorToken(new AccessTokenSigner(await readPem(keyPath)));
  // In a deployment the CLI is NATS user `ops` (deploy/README.md): NATS_USER, NATS_PASSWORD, NATS_TLS_CA.
  const nats = { NATS_URL: natsUrl(), NATS_USER: process.env.NATS_USER, NATS_PASSWORD: process.env.NATS_PASSWORD, NATS_TLS_CA: process.env.NATS_TLS_CA };
  const rpc = new RpcClient(nats, Number(process.env.RPC_TIMEOUT_MS ?? 10_000), 'vault-cli');
  await rpc.connect();
  const queues = lazyQueues();
  try {
    const requestId = `cli-${Date.now()}`;
    const result = await command.run(args, (declaration, payload) => rpc.call(declaration, payload, { accessToken: token, meta: { requestId } }), { ...queues.tools, bytes: byteSender(token) });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    return reportFailure(error, command.usage);
  } finally {
    await queues.close();
    await rpc.close();
  }
}

/** An expected failure on stderr without a stack (exit 1); anything else is a defect and throws. */
function reportFailure(error: unknown, usage: string): number {
  if (error instanceof UsageError) console.error(`${error.message}\nUsage: npm run vault -- ${usage}`);
  else if (error instanceof DomainError || error instanceof ConfigError) console.error(`${error.code}: ${error.message}`);
  else if (error instanceof CommandError || error instanceof BackupError) console.error(error.message);
  else throw error;
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
