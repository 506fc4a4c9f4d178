import type { HealthReport, HealthStatus } from '@lv/contracts';

export interface CheckResult {
  status: HealthStatus;
  latencyMs: number;
  detail?: string;
}

/** Health never hangs: every check gets at most this long. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

/**
 * Runs one check with a deadline. The probe resolves with an optional detail when the dependency is
 * up and throws (or runs out of time) when it is not; either way the result carries the latency.
 */
export async function runCheck(probe: () => Promise<string | void>, timeoutMs = HEALTH_CHECK_TIMEOUT_MS, now: () => number = performance.now.bind(performance)): Promise<CheckResult> {
  const started = now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([probe(), deadline]);
    return { status: 'up', latencyMs: Math.round(now() - started), ...(detail ? { detail } : {}) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(now() - started), detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Up only when every check is up. */
export function toHealthReport(checks: Record<string, CheckResult>): HealthReport {
  const status: HealthStatus = Object.values(checks).every((check) => check.status === 'up') ? 'up' : 'down';
  return { status, checks };
}
