import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AccessKeysRpc, Queues, type RequestMeta, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { connectNats, scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { RpcClient } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { compileForChildProcess, createTestDatabase, generateTestKeys, startChild, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { accessKeysMigrations } from '../../src/migrations.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * access-keys as the fault and kill specs run it: a real child process (this checkout compiled to a
 * scratch directory) on a fresh database of its own, with its own STACK_ID (subjects, stream, queue
 * prefix), that a spec can SIGKILL and start again on the same database.
 */
export class AccessKeysProcess {
  readonly stackId: string;
  readonly signer: AccessTokenSigner;
  private readonly keys = generateTestKeys();
  private readonly viewerKeys = generateTestKeys();
  private scratch: string | undefined;
  private script = '';
  db!: TestDatabase;
  rpc!: RpcClient;
  redis!: Redis;
  /** The running process (the last one started). */
  service: ChildService | undefined;

  constructor(private readonly label: string, private readonly rpcTimeoutMs: number) {
    this.stackId = uniqueStackId(label);
    this.signer = new AccessTokenSigner(this.keys.privateKey);
  }

  /** Database, scratch build, clients, and the first process. */
  async setUp(): Promise<void> {
    this.db = await createTestDatabase(accessKeysMigrations.slice(1), this.label);
    this.scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/access-keys'], this.label);
    this.script = join(this.scratch, 'apps', 'access-keys', 'main.js');
    this.rpc = new RpcClient(NATS_URL, this.rpcTimeoutMs, `${this.label}-client`);
    await this.rpc.connect();
    this.redis = new Redis(REDIS_URL);
    await this.start();
  }

  /** Starts the process, resolved once it logs that it listens. */
  async start(): Promise<ChildService> {
    const started = startChild(this.script, [], {
      DATABASE_URL: this.db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: this.keys.publicKey, VIEWER_JWT_PUBLIC_KEY: this.viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: this.viewerKeys.privateKey,
      KEY_MAIL_SECRET: `${this.label}-key-mail-secret-`.padEnd(48, 'x'), STACK_ID: this.stackId, LOG_LEVEL: 'info',
    });
    this.service = started;
    // Its readiness log line, waited for as long as it takes (the test's timeout is the bound): a loaded machine is slow, not wrong.
    await started.waitForLine(/access-keys is listening on NATS/, null);
    // The line can come before NATS has its subscriptions (Nest subscribes without a flush): until then a call finds no responder.
    await waitFor(async () => (await this.call(AccessKeysRpc.health, {}), true), 30_000, 'access-keys to answer');
    return started;
  }

  /** SIGKILL, the way a crashed or evicted pod dies; resolves once it is gone. */
  async kill(): Promise<void> {
    this.service?.child.kill('SIGKILL');
    await this.service?.exited;
  }

  /** `meta` as the gateway would pass it (a client's address, a request id of its own); the label is the request id by default. */
  call<D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string, meta: Partial<RequestMeta> = {}) {
    return this.rpc.callUnchecked({ ...declaration, subject: scopedSubject(declaration, this.stackId) } as D, payload, { ...(token ? { accessToken: token } : {}), meta: { requestId: this.label, ...meta } });
  }

  /** A queue of this stack's (its prefix). */
  queue<T>(name: string): Queue<T> {
    return new Queue<T>(name, { connection: this.redis, prefix: queuePrefix(this.stackId) });
  }

  async tearDown(): Promise<void> {
    await this.service?.kill('SIGKILL');
    await this.rpc?.close();
    if (this.redis) {
      for (const name of [Queues.DeliveryTiming.name, Queues.KeyEmails.name, Queues.TrusteeNotices.name, Queues.AccessRequestNotices.name]) {
        const queue = this.queue(name);
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
      this.redis.disconnect();
    }
    const nc = await connectNats(NATS_URL, `${this.label}-cleanup`);
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('access-keys', this.stackId)).catch(() => undefined);
    await nc.close();
    await this.db?.drop();
    if (this.scratch) await rm(this.scratch, { recursive: true, force: true });
  }
}
