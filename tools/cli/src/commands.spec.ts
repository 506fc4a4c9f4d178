import { ALL_QUEUES, CourtJournalRpc, IdentityRpc, TimelineRpc, type RpcDeclaration } from '@lv/contracts';
import { type OperatorCall, COMMANDS, helpText, UsageError } from './commands.js';
import type { QueueOperations } from './queue-operations.js';

describe('vault CLI commands', () => {
  const calls: { pattern: string; payload: unknown }[] = [];
  const call = (async (declaration: RpcDeclaration, payload: unknown) => {
    calls.push({ pattern: declaration.subject, payload });
    return { id: 'u-1', email: 'dad@example.com' };
  }) as OperatorCall;
  beforeEach(() => { calls.length = 0; });

  it('user:show prints the id beside the profile', async () => {
    expect(await COMMANDS['user:show']!.run(['dad@example.com'], call)).toEqual({ id: 'u-1', profile: { id: 'u-1', email: 'dad@example.com' } });
    expect(calls).toEqual([{ pattern: IdentityRpc.findUserByEmail.subject, payload: { email: 'dad@example.com' } }]);
  });

  it('user:admin grants, and revokes with --revoke', async () => {
    await COMMANDS['user:admin']!.run(['dad@example.com'], call);
    await COMMANDS['user:admin']!.run(['dad@example.com', '--revoke'], call);
    expect(calls.map((c) => c.payload)).toEqual([{ email: 'dad@example.com', admin: true }, { email: 'dad@example.com', admin: false }]);
  });

  it('user:tier refuses an unknown tier before calling anything', async () => {
    await expect(COMMANDS['user:tier']!.run(['dad@example.com', 'gold'], call)).rejects.toBeInstanceOf(UsageError);
    await expect(COMMANDS['user:tier']!.run([], call)).rejects.toThrow('missing <tier>');
    expect(calls).toHaveLength(0);
    await COMMANDS['user:tier']!.run(['dad@example.com', 'pro'], call);
    expect(calls[0]).toEqual({ pattern: IdentityRpc.setTier.subject, payload: { email: 'dad@example.com', tier: 'pro' } });
  });

  it('erasures:replay asks each service that keeps an erasure journal to replay its erasure journal (its operator RPC), or the one named', async () => {
    await COMMANDS['erasures:replay']!.run([], call);
    expect(calls.map((c) => c.pattern)).toEqual(['rpc.letters.op.replay-erasures', 'rpc.vault-media.op.replay-erasures', 'rpc.court-journal.op.replay-erasures', 'rpc.access-keys.op.replay-erasures', 'rpc.identity.op.replay-erasures']);
    calls.length = 0;
    await COMMANDS['erasures:replay']!.run(['vault-media'], call);
    expect(calls).toEqual([{ pattern: 'rpc.vault-media.op.replay-erasures', payload: {} }]);
    await expect(COMMANDS['erasures:replay']!.run(['no-such-service'], call)).rejects.toThrow('unknown service');
  });

  it('projections:rebuild targets the named service only', async () => {
    await COMMANDS['projections:rebuild']!.run(['identity'], call);
    expect(calls[0]!.pattern).toBe('rpc.identity.op.rebuild-projections');
    await expect(COMMANDS['projections:rebuild']!.run(['nope'], call)).rejects.toThrow('unknown service');
  });

  it('projections:rebuild timeline replays the streams into the timeline service (its operator RPC)', async () => {
    await COMMANDS['projections:rebuild']!.run(['timeline'], call);
    expect(calls[0]!.pattern).toBe(TimelineRpc.rebuildProjections.subject);
  });

  it('projections:rebuild court-journal rebuilds court documents from their event store (its operator RPC)', async () => {
    await COMMANDS['projections:rebuild']!.run(['court-journal'], call);
    expect(calls[0]!.pattern).toBe(CourtJournalRpc.rebuildProjections.subject);
    expect(COMMANDS['projections:rebuild']!.usage).toContain('court-journal');
  });

  it('access:pending looks the owner up by e-mail, then asks access-keys for that owner only', async () => {
    await COMMANDS['access:pending']!.run(['dad@example.com'], call);
    expect(calls.map((c) => c.pattern)).toEqual([IdentityRpc.findUserByEmail.subject, 'rpc.access-keys.op.list-pending']);
    expect(calls[1]!.payload).toEqual({ owner_id: 'u-1' });
  });

  it('delivery:report and delivery:verify look the owner up by e-mail, then act for that owner only', async () => {
    await COMMANDS['delivery:report']!.run(['dad@example.com'], call);
    await COMMANDS['delivery:verify']!.run(['dad@example.com'], call);
    expect(calls.map((c) => c.pattern)).toEqual([
      IdentityRpc.findUserByEmail.subject, 'rpc.access-keys.op.report-absence', IdentityRpc.findUserByEmail.subject, 'rpc.access-keys.op.verify-delivery',
    ]);
    expect(calls[1]!.payload).toEqual({ owner_id: 'u-1', owner_email: expect.any(String) });
    await expect(COMMANDS['delivery:report']!.run([], call)).rejects.toBeInstanceOf(UsageError);
  });

  it("delivery:show looks the owner up by e-mail, then asks access-keys for that owner's delivery history only (its operator RPC)", async () => {
    await expect(COMMANDS['delivery:show']!.run([], call)).rejects.toThrow('missing <email>');
    expect(calls).toHaveLength(0);
    await COMMANDS['delivery:show']!.run(['dad@example.com'], call);
    expect(calls).toEqual([
      { pattern: IdentityRpc.findUserByEmail.subject, payload: { email: 'dad@example.com' } },
      { pattern: 'rpc.access-keys.op.delivery-history', payload: { owner_id: 'u-1' } },
    ]);
  });

  it('milestone:due asks letters to release only what is due now (its operator RPC)', async () => {
    await COMMANDS['milestone:due']!.run([], call);
    expect(calls).toEqual([{ pattern: 'rpc.letters.op.milestones-due', payload: {} }]);
  });

  it('account:erase-due asks identity to erase only the accounts whose grace period is over (its operator RPC)', async () => {
    await COMMANDS['account:erase-due']!.run([], call);
    expect(calls).toEqual([{ pattern: 'rpc.identity.op.account-erase-due', payload: {} }]);
  });

  it('access:resend-email refuses what is not a key id before calling anything', async () => {
    await expect(COMMANDS['access:resend-email']!.run(['not-a-key'], call)).rejects.toBeInstanceOf(UsageError);
    expect(calls).toHaveLength(0);
    await COMMANDS['access:resend-email']!.run(['6F9619FF-8B86-4D01-B42D-00C04FC964FF'], call);
    expect(calls[0]).toMatchObject({ pattern: 'rpc.notifications.op.resend-key-email', payload: { key_id: '6f9619ff-8b86-4d01-b42d-00c04fc964ff' } });
  });

  it('lists every command in the help', () => {
    for (const name of Object.keys(COMMANDS)) expect(helpText()).toContain(name);
  });

  describe('jobs commands', () => {
    const asked: unknown[] = [];
    const queues: QueueOperations = {
      failed: async (queue) => { asked.push(['failed', queue]); return []; },
      redrive: async (queue, which) => { asked.push(['redrive', queue, which]); return { queue, retried: [], notFailed: [] }; },
      close: async () => undefined,
    };
    const tools = { queues: () => queues };
    beforeEach(() => { asked.length = 0; });

    it('jobs:failed and jobs:redrive take only the queues of the contracts, before touching Redis', async () => {
      await expect(COMMANDS['jobs:failed']!.run(['emails'], call, tools)).rejects.toThrow(`unknown queue "emails": use one of ${ALL_QUEUES.join(', ')}`);
      await expect(COMMANDS['jobs:redrive']!.run([], call, tools)).rejects.toThrow('missing <queue>');
      expect(asked).toEqual([]);
      await COMMANDS['jobs:failed']!.run(['key-emails'], call, tools);
      expect(asked).toEqual([['failed', 'key-emails']]);
      expect(calls).toHaveLength(0);
    });

    it('jobs:redrive needs exactly one of --id <jobId> (repeatable) or --all', async () => {
      for (const args of [['key-emails'], ['key-emails', '--id'], ['key-emails', '--all', '--id', 'key-1'], ['key-emails', '--every']]) {
        await expect(COMMANDS['jobs:redrive']!.run(args, call, tools)).rejects.toBeInstanceOf(UsageError);
      }
      expect(asked).toEqual([]);
      await COMMANDS['jobs:redrive']!.run(['key-emails', '--id', 'key-1', '--id', 'key-2'], call, tools);
      await COMMANDS['jobs:redrive']!.run(['trustee-notices', '--all'], call, tools);
      expect(asked).toEqual([['redrive', 'key-emails', { ids: ['key-1', 'key-2'] }], ['redrive', 'trustee-notices', 'all']]);
    });
  });

  it('projections:replay is the service\'s own rebuild command over NATS (never SQL)', async () => {
    await COMMANDS['projections:replay']!.run(['letters'], call);
    expect(calls[0]!.pattern).toBe('rpc.letters.op.rebuild-projections');
    await expect(COMMANDS['projections:replay']!.run(['nope'], call)).rejects.toThrow('unknown service');
  });

  it('backup, restore and backup:verify call no service, and check their arguments before anything else', async () => {
    for (const name of ['backup', 'restore', 'backup:verify']) expect(COMMANDS[name]!.local).toBe(true);
    await expect(COMMANDS.backup!.run(['--now'], call)).rejects.toThrow(UsageError);
    await expect(COMMANDS.restore!.run([], call)).rejects.toThrow('missing <snapshot>');
    await expect(COMMANDS['backup:verify']!.run(['024b6943', 'extra'], call)).rejects.toThrow('unexpected "extra"');
    expect(calls).toEqual([]);
  });
});
