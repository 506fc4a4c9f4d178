import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '@lv/contracts';
import { runDeliveryChecks, type DeliveryCheckInputs } from './delivery-checks.js';

const now = '2026-11-25T10:00:00.000Z';
const inputs = (over: Partial<DeliveryCheckInputs> & { timing?: DeliverySettings['delivery_timing']; legal?: boolean } = {}): DeliveryCheckInputs => ({
  settings: async () => ({ ...DEFAULT_DELIVERY_SETTINGS, delivery_timing: over.timing ?? 'after_30_days', require_legal_verification: over.legal ?? false, updated_at: null }),
  contactCount: async () => 2,
  deliveryQueue: { getJobCounts: async () => ({ delayed: 1, waiting: 0, failed: 0 }), getWorkers: async () => [{}] as never },
  keyEmailQueue: { getWorkers: async () => [{}] as never },
  inactivityQueues: { timing: { getWorkers: async () => [{}] as never }, warnings: { getWorkers: async () => [{}] as never } },
  now,
  ...over,
});
const byName = (checks: { name: string; passed: boolean; detail: string }[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('delivery checks (/test-vault-delivery)', () => {
  it.each(['immediately', 'after_30_days', 'legal_verification'] as const)('all pass for a ready pipeline with %s timing', async (timing) => {
    const checks = await runDeliveryChecks(inputs({ timing }));
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ['Delivery settings load', true], ['Emergency contacts ready', true], ['Delivery timing queue reachable', true], ['Delivery worker running', true],
      ['Key e-mail worker running', true], ['Inactivity workers running', true], ['Never released early', true], ['Released exactly once', true],
    ]);
  });

  it('names the due time the owner’s settings give: 30 days after a report, or at once', async () => {
    expect(byName(await runDeliveryChecks(inputs({ timing: 'after_30_days' })))['Never released early']!.detail).toContain('2026-12-25T10:00:00.000Z');
    expect(byName(await runDeliveryChecks(inputs({ timing: 'immediately', legal: true })))['Never released early']!.detail).toContain(now);
  });

  it('counts the delivery workers in words that agree with the count', async () => {
    const detail = async (workers: number) => byName(await runDeliveryChecks(inputs({
      deliveryQueue: { getJobCounts: async () => ({ delayed: 0, waiting: 0, failed: 0 }), getWorkers: async () => Array.from({ length: workers }, () => ({})) as never },
    })))['Delivery worker running']!.detail;
    expect(await detail(1)).toBe('1 worker takes due deliveries.');
    expect(await detail(2)).toBe('2 workers take due deliveries.');
  });

  it('fails what is missing, and says why, without stopping the other checks', async () => {
    const checks = byName(await runDeliveryChecks(inputs({
      contactCount: async () => 0,
      deliveryQueue: { getJobCounts: async () => { throw new Error('Connection is closed.'); }, getWorkers: async () => [] },
      keyEmailQueue: { getWorkers: async () => [] },
      inactivityQueues: { timing: { getWorkers: async () => [{}] as never }, warnings: { getWorkers: async () => [] } },
    })));
    expect(checks['Emergency contacts ready']).toMatchObject({ passed: false, detail: 'Add at least one emergency contact: nobody would receive your vault.' });
    expect(checks['Delivery timing queue reachable']).toMatchObject({ passed: false, detail: 'Connection is closed.' });
    expect(checks['Delivery worker running']!.passed).toBe(false);
    expect(checks['Key e-mail worker running']!.passed).toBe(false);
    expect(checks['Inactivity workers running']).toMatchObject({ passed: false, detail: 'If you stop signing in: no worker sends its warning e-mails.' });
    expect(checks['Never released early']!.passed).toBe(true);
  });
});
