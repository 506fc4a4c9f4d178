import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMinimums, countJestByProject, jestProjectOf, type TierResult } from './tiers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const suite = (name: string, statuses: string[], status = statuses.includes('failed') ? 'failed' : 'passed') =>
  ({ name: join(root, name), status, assertionResults: statuses.map((s) => ({ status: s })) });

describe('the test runner counts each test once', () => {
  it('runs the web project once, inside the root config, and counts it apart from unit and int', async () => {
    const { default: config } = (await import(join(root, 'jest.config.mjs'))) as { default: { projects: unknown[] } };
    expect(config.projects.filter((p) => p === '<rootDir>/apps/web/jest.config.mjs')).toHaveLength(1);
    // run-all runs Jest with the root config only: naming the web config again would count it twice.
    const runner = readFileSync(join(root, 'tools', 'test', 'run-all.mjs'), 'utf8');
    expect(runner).not.toContain('apps/web/jest.config.mjs');
    expect(runner).not.toContain('--passWithNoTests');

    const counts = countJestByProject({
      testResults: [
        suite('apps/web/src/pages/letters.spec.tsx', ['passed', 'passed', 'pending']),
        suite('apps/letters/src/letters/letter.decider.spec.ts', ['passed', 'failed']),
        suite('apps/letters/test/letters.int.spec.ts', ['passed', 'passed', 'passed']),
        suite('libs/platform/src/broken.int.spec.ts', [], 'failed'),
      ],
    });
    expect(counts).toEqual({
      web: { passed: 2, failed: 0, skipped: 1, note: undefined },
      unit: { passed: 1, failed: 1, skipped: 0, note: undefined },
      int: { passed: 3, failed: 1, skipped: 0, note: '1 suite(s) failed to run' },
    });
    expect(jestProjectOf(join(root, 'tools/test/tiers.spec.ts'))).toBe('unit');
  });
});

describe('a tier that runs fewer tests than its floor fails, by name', () => {
  const results = (): TierResult[] => [
    { tier: 'jest', label: 'unit', passed: 300, failed: 0, skipped: 0 },
    { tier: 'jest', label: 'web', passed: 0, failed: 0, skipped: 0 },
    { tier: 'jest', label: 'int', passed: 90, failed: 2, skipped: 4 },
  ];

  it('fails an empty tier and a shrunken one, and names them', () => {
    const r = results();
    const lines = applyMinimums(r, { '// note': 'ignored' as unknown as number, 'jest (unit)': 300, 'jest (web)': 170, 'jest (int)': 95 });
    expect(r.map((x) => [x.label, x.failed])).toEqual([['unit', 0], ['web', 1], ['int', 3]]);
    expect(r[1]!.note).toBe('ran 0 tests, fewer than its floor of 170 (tools/test/minimums.json)');
    expect(lines).toEqual([
      'jest (web) ran 0 tests, fewer than its floor of 170 (tools/test/minimums.json)',
      'jest (int) ran 92 tests, fewer than its floor of 95 (tools/test/minimums.json)',
    ]);
  });

  it('fails a tier that recorded nothing, and leaves tiers this run skipped alone', () => {
    const r = results();
    applyMinimums(r, { 'e2e (playwright)': 60, 'jest (unit)': 10 }, (tier) => tier === 'e2e');
    expect(r.at(-1)).toEqual({ tier: 'e2e', label: 'playwright', passed: 0, failed: 1, skipped: 0, note: 'ran 0 tests, fewer than its floor of 60 (tools/test/minimums.json)' });
    expect(r.slice(0, 3).every((x) => x.failed === results().find((y) => y.label === x.label)!.failed)).toBe(true);
  });

  it('has a floor for every counted tier', () => {
    const minimums = JSON.parse(readFileSync(join(root, 'tools', 'test', 'minimums.json'), 'utf8')) as Record<string, number>;
    for (const name of ['jest (unit)', 'jest (web)', 'jest (int)', 'e2e (playwright)']) expect(minimums[name]).toBeGreaterThan(0);
  });
});
