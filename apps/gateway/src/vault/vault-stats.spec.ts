import { DomainError } from '@lv/platform/errors';
import type { CallContext, RpcClient } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { aggregateVaultStats } from './vault-stats.js';
import { VaultStatsService } from './vault-stats.service.js';

describe('aggregateVaultStats', () => {
  it('sums videos and letters across providers', () => {
    expect(aggregateVaultStats([
      { videosSaved: 3, activeDays: [] },
      { lettersWritten: 2, activeDays: [] },
      { videosSaved: 1, lettersWritten: 1, activeDays: [] },
    ])).toEqual({ videosSaved: 4, lettersWritten: 3, thoughtsSaved: 0, daysActive: 1 });
  });

  it('counts distinct calendar days across all contributions', () => {
    expect(aggregateVaultStats([
      { videosSaved: 2, activeDays: ['2026-11-01', '2026-11-02'] },
      { lettersWritten: 1, activeDays: ['2026-11-02', '2026-11-05'] },
    ]).daysActive).toBe(3);
  });

  it('is at least one active day for a signed-in user, even with nothing saved', () => {
    expect(aggregateVaultStats([])).toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
    expect(aggregateVaultStats([{ activeDays: [] }]).daysActive).toBe(1);
  });

  it('shows a saved reflection as one thought (never more), and its save day as an active day', () => {
    expect(aggregateVaultStats([
      { videosSaved: 1, activeDays: ['2026-11-01'] },
      { lettersWritten: 2, thoughtsSaved: 1, activeDays: ['2026-11-01', '2026-11-20'] },
    ])).toEqual({ videosSaved: 1, lettersWritten: 2, thoughtsSaved: 1, daysActive: 2 });
    expect(aggregateVaultStats([{ thoughtsSaved: 1, activeDays: [] }, { thoughtsSaved: 3, activeDays: [] }]).thoughtsSaved).toBe(1);
    expect(aggregateVaultStats([{ thoughtsSaved: 0, activeDays: [] }, null]).thoughtsSaved).toBe(0);
    expect(aggregateVaultStats([{ thoughtsSaved: -1 as never, activeDays: [] }, { thoughtsSaved: 'yes' as never, activeDays: [] }]).thoughtsSaved).toBe(0);
  });

  it('counts a failed provider (null) as zero', () => {
    expect(aggregateVaultStats([null, { videosSaved: 5, activeDays: ['2026-11-01'] }, undefined])).toEqual({ videosSaved: 5, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
  });

  it('ignores junk in a contribution instead of inventing numbers', () => {
    expect(aggregateVaultStats([{ videosSaved: -4, lettersWritten: Number.NaN, activeDays: ['yesterday', 7 as never, '2026-11-01'] }])).toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
    expect(aggregateVaultStats([{ videosSaved: '9' as never, activeDays: 'nope' as never }])).toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
  });
});

describe('VaultStatsService', () => {
  const call: CallContext = { accessToken: 'token', meta: { requestId: 'req-1' } };
  const config = { RPC_TIMEOUT_MS: 5000 } as GatewayConfig;

  function service(answers: Record<string, () => Promise<unknown>>, providers = Object.keys(answers)) {
    const calls: { subject: string; context: CallContext; timeoutMs?: number }[] = [];
    const rpc = {
      call: ({ subject }: { subject: string }, _payload: unknown, context: CallContext, timeoutMs?: number) => {
        calls.push({ subject, context, timeoutMs });
        const service = subject.split('.')[1]!;
        return answers[service]!();
      },
    } as unknown as RpcClient;
    const warnings: Record<string, unknown>[] = [];
    const log = { warn: (object: object) => void warnings.push(object as Record<string, unknown>) };
    return { stats: new VaultStatsService(rpc, providers as never, config), calls, warnings, log };
  }

  it('asks every provider with the caller token and request meta, and adds the answers up', async () => {
    const { stats, calls, log } = service({
      'vault-media': async () => ({ videosSaved: 4, activeDays: ['2026-11-01', '2026-11-03'] }),
      letters: async () => ({ lettersWritten: 2, thoughtsSaved: 1, activeDays: ['2026-11-03'] }),
    });
    await expect(stats.statsFor(call, log)).resolves.toEqual({ videosSaved: 4, lettersWritten: 2, thoughtsSaved: 1, daysActive: 2 });
    expect(calls.map((c) => c.subject).sort()).toEqual(['rpc.letters.stats', 'rpc.vault-media.stats']);
    expect(calls.every((c) => c.context === call && c.timeoutMs === 2000)).toBe(true);
  });

  it('counts a failing or timed-out provider as 0 and logs it, never failing the request', async () => {
    const { stats, warnings, log } = service({
      'vault-media': async () => {
        throw new DomainError('SERVICE_UNAVAILABLE');
      },
      letters: async () => ({ lettersWritten: 1, activeDays: ['2026-11-03'] }),
    });
    await expect(stats.statsFor(call, log)).resolves.toEqual({ videosSaved: 0, lettersWritten: 1, thoughtsSaved: 0, daysActive: 1 });
    expect(warnings).toEqual([expect.objectContaining({ service: 'vault-media' })]);
  });

  it('falls back to zeros and one day when every provider fails', async () => {
    const { stats, log } = service({ letters: async () => Promise.reject(new Error('boom')) });
    await expect(stats.statsFor(call, log)).resolves.toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
  });

  it('answers zeros and one day while no service provides stats yet', async () => {
    const { stats, calls, log } = service({}, []);
    await expect(stats.statsFor(call, log)).resolves.toEqual({ videosSaved: 0, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
    expect(calls).toHaveLength(0);
  });
});
