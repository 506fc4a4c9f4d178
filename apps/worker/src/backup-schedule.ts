import type { RetentionPolicy } from '@lv/platform/backup';

/**
 * The scheduled backup's settings, read from BACKUP_SCHEDULE and BACKUP_RETENTION (pure: the config
 * schema refuses a value these do not read, naming the variable).
 */

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const NAMED: Record<string, number> = { hourly: UNIT_MS.h, daily: UNIT_MS.d, weekly: 7 * UNIT_MS.d };
/** Shorter than this would start a backup before the last one could have ended on any real vault. */
const MIN_EVERY_MS = 5 * UNIT_MS.m;
const MAX_EVERY_MS = 31 * UNIT_MS.d;

/**
 * BACKUP_SCHEDULE: `hourly`, `daily` (the default), `weekly`, or an interval `<n>m`, `<n>h`, `<n>d`
 * (5 minutes to 31 days). BullMQ runs an interval at its multiples since the epoch: `daily` at 00:00 UTC.
 * Returns the interval in milliseconds, or the reason it is refused.
 */
export function parseBackupSchedule(value: string): { everyMs: number } | { error: string } {
  const text = value.trim().toLowerCase();
  const named = NAMED[text];
  if (named) return { everyMs: named };
  const match = /^(\d{1,4})([mhd])$/.exec(text);
  if (!match) return { error: `"${value}" is not a schedule: hourly, daily, weekly, or an interval such as 12h, 30m, 2d` };
  const everyMs = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (everyMs < MIN_EVERY_MS || everyMs > MAX_EVERY_MS) return { error: `"${value}" is out of range: from 5m to 31d` };
  return { everyMs };
}

const RULES = ['daily', 'weekly', 'monthly'] as const;

export const DEFAULT_RETENTION: RetentionPolicy = { daily: 7, weekly: 4, monthly: 12 };

/**
 * BACKUP_RETENTION: `daily=7,weekly=4,monthly=12` (the default); a rule left out keeps its default.
 * Each count is 0 to 1000, and at least one is above 0 (a policy that keeps nothing would delete every backup).
 */
export function parseBackupRetention(value: string): RetentionPolicy | { error: string } {
  const policy = { ...DEFAULT_RETENTION };
  const seen = new Set<string>();
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^(daily|weekly|monthly)=(\d{1,4})$/.exec(part);
    const rule = RULES.find((r) => r === match?.[1]);
    const count = match?.[2];
    if (!rule || count === undefined) return { error: `"${part}" is not a rule: daily=<n>, weekly=<n> or monthly=<n>, separated by commas` };
    if (seen.has(rule)) return { error: `${rule} is given twice` };
    seen.add(rule);
    if (Number(count) > 1000) return { error: `${rule}=${count}: at most 1000` };
    policy[rule] = Number(count);
  }
  if (!policy.daily && !policy.weekly && !policy.monthly) return { error: 'keeps no backup at all: at least one of daily, weekly, monthly must be above 0' };
  return policy;
}

/** Whether a parse refused its value. */
export const isRefusal = (parsed: object): parsed is { error: string } => 'error' in parsed;
