// deploy/monitoring against the code: the alert rules and the Grafana dashboard parse, name only
// metrics the processes export (or a listed outside exporter's), cover what an operator must be woken
// for, and the PodMonitor scrapes every process's ops port.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectDefaultMetrics, Registry } from 'prom-client';
import YAML from 'yaml';
import { registerBackupMetrics } from '@lv/platform/backup';
import { metricsRegistry } from '@lv/platform/observability';
import { services } from '../dev/services.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
type Json = any; // parsed YAML / JSON

/** Metrics no Legacy Vault process exports, and who does. */
const EXTERNAL_METRICS: Record<string, string> = {
  certmanager_certificate_expiration_timestamp_seconds: "cert-manager, which renews the Ingress's certificate (Secret lv-tls)",
};

/** What an operator must be alerted on (issue: outbox backlog, consumer lag, failed jobs, backup age, 5xx, certificates). */
const MUST_ALERT_ON = ['lv_outbox_lag_seconds', 'lv_consumer_pending', 'lv_queue_jobs_processed_total', 'lv_backup_last_success_timestamp_seconds', 'lv_backup_verify_last_run_ok', 'lv_http_requests_total', 'certmanager_certificate_expiration_timestamp_seconds'];

/** PromQL words that look like names: functions are followed by "(", so only these keywords are left to drop. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool', 'time']);

/** The metric names a PromQL expression reads: names outside label matchers, strings, groupings and function calls. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)].map((m) => m[1]!).filter((n) => !PROMQL_WORDS.has(n) && !/^\d/.test(n) && !/^[0-9.e]+$/.test(n));
  return [...new Set(names)];
}

async function exportedMetrics(): Promise<Set<string>> {
  registerBackupMetrics(async () => null);
  const node = new Registry();
  collectDefaultMetrics({ register: node });
  const names = new Set<string>();
  for (const m of [...(await metricsRegistry.getMetricsAsJSON()), ...(await node.getMetricsAsJSON())]) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${m.name}${suffix}`);
  }
  return names;
}

const alerts: Json = YAML.parse(read('deploy/monitoring/alerts.yaml'));
const rules: Json[] = alerts.spec.groups.flatMap((g: Json) => g.rules);
const dashboard: Json = JSON.parse(read('deploy/monitoring/grafana-dashboard.json'));
const dashboardExprs: string[] = dashboard.panels.flatMap((p: Json) => (p.targets ?? []).map((t: Json) => t.expr));

describe('deploy/monitoring', () => {
  let exported: Set<string>;
  beforeAll(async () => { exported = await exportedMetrics(); });

  it('reads metric names out of PromQL, leaving labels, groupings, ranges and functions aside', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (le, subject) (rate(lv_rpc_request_duration_seconds_bucket{status=~"5.."}[5m]))) > 2')).toEqual(['lv_rpc_request_duration_seconds_bucket']);
    expect(metricNames('time() - max(lv_backup_last_success_timestamp_seconds) > 36 * 3600')).toEqual(['lv_backup_last_success_timestamp_seconds']);
    expect(metricNames('a_total / ignoring (x) b_total')).toEqual(['a_total', 'b_total']);
  });

  it('names in its alerts and dashboard only metrics the processes export, or a listed outside exporter’s', () => {
    const unknown = [...rules.map((r) => r.expr as string), ...dashboardExprs]
      .flatMap((expr) => metricNames(expr).filter((name) => !exported.has(name) && !(name in EXTERNAL_METRICS)).map((name) => `${name} in ${expr}`));
    expect(unknown).toEqual([]);
    expect(dashboardExprs.length).toBeGreaterThanOrEqual(10);
  });

  it('alerts on the outbox backlog, consumer lag, failed jobs, backup age, 5xx rate and certificate expiry, each with a severity and a summary', () => {
    const alerted = new Set(rules.flatMap((r) => metricNames(r.expr)));
    expect(MUST_ALERT_ON.filter((name) => !alerted.has(name))).toEqual([]);
    expect(rules.filter((r) => !r.alert || !['warning', 'critical'].includes(r.labels?.severity) || !r.annotations?.summary).map((r) => r.alert ?? r.expr)).toEqual([]);
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('scrapes the ops port of every process', () => {
    const podMonitor: Json = YAML.parse(read('deploy/monitoring/pod-monitor.yaml'));
    const scraped: string[] = podMonitor.spec.selector.matchExpressions.find((e: Json) => e.key === 'app.kubernetes.io/name').values;
    expect([...scraped].sort()).toEqual(services.map((s) => s.name).sort());
    expect(podMonitor.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'ops', path: '/metrics' })]);
  });
});
