import { AccessKeysRpc, IdentityRpc, isSubscriptionTier, LettersRpc, NotificationsRpc, rebuildRpc, SERVICES, SUBSCRIPTION_TIERS, type PayloadInput, type ReplyOf, type RpcDeclaration, type ServiceName } from '@lv/contracts';

/** What a command needs from the outside world: one RPC call with the operator's token. */
export type OperatorCall = <D extends RpcDeclaration>(declaration: D, payload: PayloadInput<D>) => Promise<ReplyOf<D>>;

export interface CommandSpec {
  usage: string;
  summary: string;
  run(args: string[], call: OperatorCall): Promise<unknown>;
}

export class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const requireArg = (args: string[], index: number, name: string): string => {
  const value = args[index];
  if (!value) throw new UsageError(`missing <${name}>`);
  return value;
};

/**
 * The operator commands. Each acts through a service's own command over NATS (events, checks and
 * all), never through SQL, so what an operator does is in the history like anything else.
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
  'access:resend-email': {
    usage: 'access:resend-email <keyId>',
    summary: "retry a key e-mail whose job failed (never sends a key twice)",
    async run(args, call) {
      const keyId = requireArg(args, 0, 'keyId');
      if (!UUID.test(keyId)) throw new UsageError(`"${keyId}" is not a key id (a UUID, as access:pending and the owner's key list show it)`);
      return call(NotificationsRpc.resendKeyEmail, { key_id: keyId.toLowerCase() });
    },
  },
  'milestone:due': {
    usage: 'milestone:due',
    summary: 'release the letters sealed until a day that has come (never one early) and finish any release whose key is missing',
    run: (_args, call) => call(LettersRpc.milestonesDue, {}),
  },
  'projections:rebuild': {
    usage: `projections:rebuild <${SERVICES.join('|')}>`,
    summary: "rebuild a service's read models from its event store",
    async run(args, call) {
      const service = requireArg(args, 0, 'service');
      if (!(SERVICES as readonly string[]).includes(service)) throw new UsageError(`unknown service "${service}": use one of ${SERVICES.join(', ')}`);
      return call(rebuildRpc(service as ServiceName), {});
    },
  },
};

export function helpText(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return ['Usage: npm run vault -- <command> [args]', '', ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`)].join('\n');
}
