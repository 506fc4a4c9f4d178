import { jetstreamManager } from '@nats-io/jetstream';
import { accountEmailSealContext, Queues, type AccountEmailJob, type IssuedSession, type RpcDeclaration, type TwoStepChallenge } from '@lv/contracts';
import { createQueue, createRedisConnection, openFromJob } from '@lv/platform/queues';
import { createTestDatabase, makeStreamsAsOwners, uniqueStackId, type TestDatabase } from '@lv/testing';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import type { IdentityConfig } from '../../src/config.js';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** The secret identity seals e-mail links with in these specs; notifications opens them with the same. */
export const KEY_MAIL_SECRET = 'identity-spec-key-mail-secret-of-32-characters';

export interface IdentityHarness {
  db: TestDatabase;
  identity: RunningService<IdentityConfig>;
  rpc: RpcClient;
  close(): Promise<void>;
}

/**
 * identity on a fresh database of its own and a stack id of its own (subjects and its JetStream stream),
 * migrated and started as in production, with an RPC client; close() removes all of it.
 */
export async function startIdentity(label: string, keys: { publicKey: string; privateKey: string }, env: Record<string, string> = {}): Promise<IdentityHarness> {
  // Subjects are fixed when the controller module loads: choose the stack first.
  process.env.STACK_ID = uniqueStackId(label);
  const { identityService } = await import('../../src/identity.definition.js');
  const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');
  const { createLogger } = await import('@lv/platform/logging');
  const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');
  const db = await createTestDatabase([], label);
  await db.orm.close(); // the service opens its own connection with its migrations
  const config = {
    DATABASE_URL: db.url, NATS_URL, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey, LOG_LEVEL: 'silent',
    KEY_MAIL_SECRET, ...env,
  };
  const logger = createLogger(`${label}-test`, 'silent');
  await migrateService(identityService, config, logger);
  // billing's stream, as billing makes it: the tier specs publish billing's events into it.
  await makeStreamsAsOwners(NATS_URL, ['billing'], process.env.STACK_ID);
  const identity = await startService(identityService, config, { logger });
  const rpc = new RpcClient(NATS_URL, 5000);
  await rpc.connect();
  return {
    db, identity, rpc,
    async close() {
      await rpc.close();
      await identity.close();
      const nc = await connectNats(NATS_URL, 'cleanup');
      for (const service of ['identity', 'billing'] as const) await (await jetstreamManager(nc)).streams.delete(scopedStreamName(service)).catch(() => undefined);
      await nc.close();
      await db.drop();
    },
  };
}

/**
 * An RPC caller whose every call comes from a new address of its own subnet (10.<subnet>.x.y), so the
 * per-address limits of one test never meet another's.
 */
export function callerFrom(rpc: RpcClient, subnet: number) {
  let seq = 0;
  const meta = (userAgent?: string) => ({ requestId: 'test', ip: `10.${subnet}.${Math.floor(seq / 250) % 250}.${(seq++ % 250) + 1}`, ...(userAgent ? { userAgent } : {}) });
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string, userAgent?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken, meta: meta(userAgent) });
  return { call, nextAddress: () => meta().ip };
}

/** The account e-mails identity queues, read as notifications would: by address and kind, oldest first, links opened. */
export function accountEmailJobs(identity: RunningService<IdentityConfig>, name: string) {
  const redis = createRedisConnection(identity.config.REDIS_URL, { role: 'producer', name });
  const queue = createQueue(Queues.AccountEmails, redis);
  return {
    async jobsFor(to: string, kind: AccountEmailJob['kind']): Promise<AccountEmailJob[]> {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
      return jobs.filter((job) => job?.data.to === to && job.data.kind === kind).map((job) => job.data).sort((a, b) => a.at.localeCompare(b.at));
    },
    /** The link's path, opened with the secret as notifications opens it. */
    linkOf(job: AccountEmailJob): string {
      if (!job.sealedLink) throw new Error(`the ${job.kind} e-mail carries no link`);
      return openFromJob(KEY_MAIL_SECRET, accountEmailSealContext(job.emailId), job.sealedLink);
    },
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      redis.disconnect();
    },
  };
}

export interface MailingIdentity extends IdentityHarness {
  /** The account e-mails it queues. */
  emails: ReturnType<typeof accountEmailJobs>;
  /** Calls from new addresses of the subnet given. */
  caller: ReturnType<typeof callerFrom>;
}

/** identity as startIdentity starts it, with the account e-mails it queues and a caller of its own subnet; close() ends all of it. */
export async function startMailingIdentity(label: string, keys: { publicKey: string; privateKey: string }, subnet: number, env: Record<string, string> = {}): Promise<MailingIdentity> {
  const harness = await startIdentity(label, keys, env);
  const emails = accountEmailJobs(harness.identity, `${label}-spec`);
  return {
    ...harness, emails, caller: callerFrom(harness.rpc, subnet),
    async close() {
      await emails.close();
      await harness.close();
    },
  };
}

/** A sign-in's reply as the session it is for an account without two-step sign-in (these specs' accounts). */
export function asSession(reply: IssuedSession | TwoStepChallenge): IssuedSession {
  if ('twoStepRequired' in reply) throw new Error('the sign-in asked for a second step');
  return reply;
}
