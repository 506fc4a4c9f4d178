// Small helpers for the benchmarks: percentiles of raw samples, table formatting, and CPU time read
// from Linux's /proc (the whole machine's, or one process's).
import { readFileSync } from 'node:fs';

/**
 * The p-th percentile (0-100) of `samples` by the nearest-rank method: the smallest value such that
 * at least p % of the samples are <= it. `samples` need not be sorted; NaN when empty.
 */
export function percentile(samples, p) {
  if (!samples.length) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  return percentileOfSorted(sorted, p);
}

export function percentileOfSorted(sorted, p) {
  if (!sorted.length) return Number.NaN;
  if (p <= 0) return sorted[0];
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** { count, min, mean, p50, p95, p99, max } of latency samples in ms. */
export function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  const count = sorted.length;
  const mean = count ? sorted.reduce((a, b) => a + b, 0) / count : Number.NaN;
  return {
    count,
    min: count ? sorted[0] : Number.NaN,
    mean,
    p50: percentileOfSorted(sorted, 50),
    p95: percentileOfSorted(sorted, 95),
    p99: percentileOfSorted(sorted, 99),
    max: count ? sorted[count - 1] : Number.NaN,
  };
}

export const ms = (value) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : 'n/a');
export const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-GB') : 'n/a');

/** A plain text table: rows of cells, first row is the header; numbers right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * The machine's CPU time so far (Linux /proc/stat, every core, in clock ticks): `busy` is everything but
 * idle and I/O wait. Two readings give how busy the cores were in between (`cpuBusyShare`).
 */
export function machineCpu() {
  // user, nice, system, idle, iowait, irq, softirq, steal (guest time is already inside user and nice).
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** The share of the machine's CPU (all cores) that was busy between two `machineCpu()` readings. */
export const cpuBusyShare = (before, after) => (after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : Number.NaN);

/** User + system CPU time of one process so far (Linux /proc/<pid>/stat), in ms (clock ticks of 10 ms). */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A bench's knob from the environment (or its default): a positive number, else a clear error. */
export function positiveEnv(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${process.env[name]}")`);
  return value;
}
