// Counting for tools/test/run-all.mjs, apart from it so a unit spec can check it (tiers.spec.ts).

/** The projects of the root jest.config.mjs, run once together. */
export const JEST_PROJECTS = ['unit', 'web', 'int'];

/** The root config's project a spec file belongs to (Jest's JSON report does not name it). */
export const jestProjectOf = (file) => (file.includes('/apps/web/') ? 'web' : /\.int\.spec\.ts$/.test(file) ? 'int' : 'unit');

/**
 * Per-project counts of one Jest JSON report. A suite that could not run (syntax error, failing
 * import, a throwing beforeAll) has no failed test but is a failure.
 */
export function countJestByProject(report) {
  const counts = Object.fromEntries(JEST_PROJECTS.map((p) => [p, { passed: 0, failed: 0, skipped: 0, broken: 0 }]));
  for (const suite of report.testResults ?? []) {
    const c = counts[jestProjectOf(suite.name ?? '')];
    const tests = suite.assertionResults ?? [];
    for (const t of tests) {
      if (t.status === 'passed') c.passed++;
      else if (t.status === 'failed') c.failed++;
      else c.skipped++; // pending, todo, skipped, disabled
    }
    if (suite.status === 'failed' && !tests.some((t) => t.status === 'failed')) c.broken++;
  }
  return Object.fromEntries(JEST_PROJECTS.map((p) => {
    const { broken, ...c } = counts[p];
    return [p, { ...c, failed: c.failed + broken, note: broken ? `${broken} suite(s) failed to run` : undefined }];
  }));
}

/**
 * Fails every tier that ran fewer tests (passed + failed; skipped ones do not count) than its floor.
 * `minimums` maps "<tier> (<label>)" to a floor (keys starting with "//" are comments); tiers not
 * enabled in this run are left alone. Changes `results` in place; returns lines to print.
 */
export function applyMinimums(results, minimums, enabled = () => true) {
  const lines = [];
  for (const [name, minimum] of Object.entries(minimums)) {
    if (name.startsWith('//')) continue;
    const [, tier, label] = /^(\S+) \((.*)\)$/.exec(name) ?? [undefined, name, 'all'];
    if (!enabled(tier)) continue;
    const r = results.find((x) => x.tier === tier && x.label === label);
    const ran = r ? r.passed + r.failed : 0;
    if (ran > minimum) lines.push(`${name} ran ${ran} tests, more than its floor of ${minimum}: raise it in tools/test/minimums.json`);
    if (ran >= minimum) continue;
    const note = `ran ${ran} tests, fewer than its floor of ${minimum} (tools/test/minimums.json)`;
    lines.push(`${name} ${note}`);
    if (r) {
      r.failed += 1;
      r.note = r.note ? `${r.note}; ${note}` : note;
    } else {
      results.push({ tier, label, passed: 0, failed: 1, skipped: 0, note });
    }
  }
  return lines;
}
