import { AccessKeysRpc, ALL_QUEUES, ERASING_SERVICES, IdentityRpc, isSubscriptionTier, isUuid, LettersRpc, NotificationsRpc, rebuildRpc, replayErasuresRpc, SERVICES, SUBSCRIPTION_TIERS, type PayloadInput, type ReplyOf, type RpcDeclaration, type ServiceName } from '@lv/contracts';
import { backupCommands } from './backup/backup-commands.js';
import { musicCommands, type ByteSender } from './music-commands.js';
import { isQueueName, type QueueOperations } from './queue-operations.js';

/** What a command needs from the outside world: one RPC call with the operator's token. */
export type OperatorCall = <D extends RpcDeclaration>(declaration: D, payload: PayloadInput<D>) => Promise<ReplyOf<D>>;

/** What some commands need besides RPC: the queues' failed sets (opened only when a command asks), a file sender. */
export interface OperatorTools {
  queues?(): QueueOperations;
  /** For the few commands that send a file to a service's byte listener (music:add). */
  bytes?: ByteSender;
}

export interface CommandSpec {
  usage: string;
  summary: string;
  /** Acts on no service (backups): run without the operator token and NATS. */
  local?: boolean;
  run(args: string[], call: OperatorCall, tools?: OperatorTools): Promise<unknown>;
}

import { UsageError } from './usage-error.js';

export { UsageError };

const requireArg = (args: string[], index: number, name: string): string => {
  const value = args[index];
  if (!value) throw new UsageError(`missing <${name}>`);
  return value;
};

/**
 * The operator commands. Each acts through a service's own command over NATS (events, checks and
 * all), never through SQL, so what an operator does is in the history like anything else. The job
 * commands act on the queues through BullMQ itself, never by editing Redis keys.
 */
/** An operator's delivery command: the owner is looked up by e-mail, and access-keys acts for that owner only. */
function deliveryCommand(name: string, summary: string, declaration: typeof AccessKeysRpc.reportAbsence | typeof AccessKeysRpc.verifyDelivery): CommandSpec {
  return {
    usage: `${name} <email>`,
    summary,
    async run(args, call) {
      const owner = await call(IdentityRpc.findUserByEmail, { email: requireArg(args, 0, 'email') });
      return call(declaration, { owner_id: owner.id, owner_email: owner.email });
    },
  };
}

/** Rebuilding a service's read models is replaying its event store through its projections: one command, two names. */
function projectionsCommand(name: string): CommandSpec {
  return {
    usage: `${name} <${SERVICES.join('|')}>`,
    summary: "replay a service's event store into its read models (the service's own command over NATS)",
    async run(args, call) {
      const service = requireArg(args, 0, 'service');
      if (!(SERVICES as readonly string[]).includes(service)) throw new UsageError(`unknown service "${service}": use one of ${SERVICES.join(', ')}`);
      return call(rebuildRpc(service as ServiceName), {});
    },
  };
}

const queueArg = (args: string[]) => {
  const queue = requireArg(args, 0, 'queue');
  if (!isQueueName(queue)) throw new UsageError(`unknown queue "${queue}": use one of ${ALL_QUEUES.join(', ')}`);
  return queue;
};

const queuesOf = (tools: OperatorTools | undefined) => {
  if (!tools?.queues) throw new Error('this command needs the queues (Redis)');
  return tools.queues();
};

/** `--id <jobId>` (repeatable) or `--all`, exactly one of the two. */
function redriveTarget(args: string[]): { ids: string[] } | 'all' {
  const ids: string[] = [];
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '--id') {
      const id = args[++i];
      if (!id || id.startsWith('--')) throw new UsageError('--id needs a job id (as jobs:failed lists them)');
      ids.push(id);
    } else if (args[i] !== '--all') throw new UsageError(`unknown option "${args[i]}"`);
  }
  const all = args.includes('--all');
  if (all === (ids.length > 0)) throw new UsageError('say which jobs: --id <jobId> (one or more) or --all');
  return all ? 'all' : { ids };
}

export const COMMANDS: Record<string, CommandSpec> = {
  'user:show': {
    usage: 'user:show <email>',
    summary: "print the user's id and profile as JSON",
    async run(args, call) {
      const profile = await call(IdentityRpc.findUserByEmail, { email: requireArg(args, 0, 'email') });
      return { id: profile.id, profile };
    },
  },
  'user:admin': {
    usage: 'user:admin <email> [--revoke]',
    summary: 'grant admin rights (or revoke them with --revoke)',
    run: (args, call) => call(IdentityRpc.setAdmin, { email: requireArg(args, 0, 'email'), admin: !args.includes('--revoke') }),
  },
  'user:tier': {
    usage: `user:tier <email> <${SUBSCRIPTION_TIERS.join('|')}>`,
    summary: "set the user's subscription tier",
    async run(args, call) {
      const tier = requireArg(args, 1, 'tier');
      if (!isSubscriptionTier(tier)) throw new UsageError(`unknown tier "${tier}": use one of ${SUBSCRIPTION_TIERS.join(', ')}`);
      return call(IdentityRpc.setTier, { email: requireArg(args, 0, 'email'), tier });
    },
  },
  'access:pending': {
    usage: 'access:pending <email>',
    summary: "list the owner's pending access requests (newest first)",
    async run(args, call) {
      const owner = await call(IdentityRpc.findUserByEmail, { email: requireArg(args, 0, 'email') });
      return call(AccessKeysRpc.listPendingForOwner, { owner_id: owner.id });
    },
  },
  'delivery:report': deliveryCommand('delivery:report', "a trustee's report, confirmed: start the owner's vault delivery as their settings describe", AccessKeysRpc.reportAbsence),
  'delivery:verify': deliveryCommand('delivery:verify', "the legal documents are checked: let the owner's delivery that waits for verification go ahead", AccessKeysRpc.verifyDelivery),
  'delivery:show': {
    usage: 'delivery:show <email>',
    summary: "print the owner's vault delivery (its state) and its history, event by event with times and who acted, as JSON",
    async run(args, call) {
      const owner = await call(IdentityRpc.findUserByEmail, { email: requireArg(args, 0, 'email') });
      return call(AccessKeysRpc.deliveryHistory, { owner_id: owner.id });
    },
  },
  'access:resend-email': {
    usage: 'access:resend-email <keyId>',
    summary: "retry a key e-mail whose job failed (never sends a key twice)",
    async run(args, call) {
      const given = requireArg(args, 0, 'keyId');
      if (!isUuid(given)) throw new UsageError(`"${args[0]}" is not a key id (a UUID, as access:pending and the owner's key list show it)`);
      return call(NotificationsRpc.resendKeyEmail, { key_id: given.toLowerCase() });
    },
  },
  'milestone:due': {
    usage: 'milestone:due',
    summary: 'release the letters sealed until a day that has come (never one early) and finish any release whose key is missing',
    run: (_args, call) => call(LettersRpc.milestonesDue, {}),
  },
  'account:erase-due': {
    usage: 'account:erase-due',
    summary: 'erase the accounts whose deletion is past its 7-day grace period (what their timers do; never one early, never twice)',
    run: (_args, call) => call(IdentityRpc.eraseDueAccounts, {}),
  },
  'projections:rebuild': projectionsCommand('projections:rebuild'),
  'erasures:replay': {
    usage: `erasures:replay [${ERASING_SERVICES.join('|')}]`,
    summary: 'erase again what the erasure journal holds (every service does it as it starts, after a restore too): each service deletes again, by its own command, what a snapshot brought back',
    async run(args, call) {
      const named = args[0];
      if (named !== undefined && !(ERASING_SERVICES as readonly string[]).includes(named)) throw new UsageError(`unknown service "${named}": use one of ${ERASING_SERVICES.join(', ')}`);
      const services = named ? [named as (typeof ERASING_SERVICES)[number]] : ERASING_SERVICES;
      const reports: Record<string, unknown> = {};
      for (const service of services) reports[service] = await call(replayErasuresRpc(service), {});
      return reports;
    },
  },
  'projections:replay': projectionsCommand('projections:replay'),
  'jobs:failed': {
    usage: `jobs:failed <${ALL_QUEUES.join('|')}>`,
    summary: "list a queue's failed jobs (its dead letters): id, attempts, reason, times; never their data",
    async run(args, _call, tools) {
      const queue = queueArg(args);
      return queuesOf(tools).failed(queue);
    },
  },
  'jobs:redrive': {
    usage: 'jobs:redrive <queue> --id <jobId> | --all',
    summary: 'retry failed jobs through BullMQ (the same job and id, attempts reset); the worker stays idempotent',
    async run(args, _call, tools) {
      const queue = queueArg(args);
      return queuesOf(tools).redrive(queue, redriveTarget(args));
    },
  },
  ...musicCommands,
  ...backupCommands,
};

export function helpText(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return ['Usage: npm run vault -- <command> [args]', '', ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`)].join('\n');
}
