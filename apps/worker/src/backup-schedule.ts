import { getNextMillis } from 'bullmq';
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
 * A cron expression's runs examined at start: at most this many (each costs a parse in BullMQ), within
 * a year and a month, so the gaps of a monthly or quarterly pattern are all seen.
 */
const CRON_RUNS = 300;
const CRON_WINDOW_MS = 396 * UNIT_MS.d;
/** Five fields (minute hour day month weekday) or six (seconds first), as BullMQ's cron-parser reads them. */
const CRON_SHAPE = /^\S+(\s+\S+){4,5}$/;
/** Cron expressions run in UTC, whatever the worker's TZ: the same time on every replica, and in the docs. */
export const CRON_TIME_ZONE = 'UTC';

/**
 * When the scheduled backup runs: every `everyMs`, or at the times of the cron expression `pattern`
 * (then `everyMs` is the longest gap between two of its runs, what "overdue" is measured against).
 */
export interface BackupSchedule {
  everyMs: number;
  pattern?: string;
}

/** The job scheduler's repeat options for a schedule (BullMQ's `every`, or `pattern` in UTC). */
export const schedulerRepeat = (schedule: BackupSchedule): { every: number } | { pattern: string; tz: string } =>
  schedule.pattern ? { pattern: schedule.pattern, tz: CRON_TIME_ZONE } : { every: schedule.everyMs };

/** When the job scheduler runs the schedule next after `now`, computed as BullMQ computes it (its own getNextMillis). */
export function nextBackupAt(schedule: BackupSchedule, now: number): Date | null {
  const next = getNextMillis(now, schedulerRepeat(schedule));
  return next === undefined ? null : new Date(next);
}

/** A cron expression's runs after `now` (BullMQ's own parser), its longest gap, or why it is refused. */
function parseCron(value: string, pattern: string, now: number): BackupSchedule | { error: string } {
  const runs: number[] = [];
  try {
    for (let at = now; runs.length < CRON_RUNS; ) {
      const next = getNextMillis(at, { pattern, tz: CRON_TIME_ZONE });
      if (next === undefined || next > now + CRON_WINDOW_MS) break;
      runs.push(next);
      at = next;
    }
  } catch (error) {
    return { error: `"${value}" is not a schedule: not a cron expression BullMQ reads (${error instanceof Error ? error.message : String(error)})` };
  }
  const gaps = runs.slice(1).map((at, i) => at - runs[i]!);
  const first = runs[0];
  if (first === undefined || first - now > MAX_EVERY_MS || !gaps.length || gaps.some((gap) => gap > MAX_EVERY_MS)) return { error: `"${value}" is out of range: it runs less often than every 31 days` };
  if (gaps.some((gap) => gap < MIN_EVERY_MS)) return { error: `"${value}" is out of range: it runs more often than every 5 minutes` };
  return { everyMs: Math.max(...gaps), pattern };
}

/**
 * BACKUP_SCHEDULE: `hourly`, `daily` (the default), `weekly`, an interval `<n>m`, `<n>h`, `<n>d`
 * (5 minutes to 31 days), or a cron expression of five or six fields, in UTC (`0 3 * * *`: 03:00
 * every day), whose runs are 5 minutes to 31 days apart. BullMQ runs an interval at its multiples since
 * the epoch: `daily` at 00:00 UTC. Returns the schedule, or the reason it is refused.
 */
export function parseBackupSchedule(value: string, now = Date.now()): BackupSchedule | { error: string } {
  const text = value.trim().toLowerCase();
  const named = NAMED[text];
  if (named) return { everyMs: named };
  const pattern = value.trim().replace(/\s+/g, ' ');
  if (CRON_SHAPE.test(pattern)) return parseCron(value, pattern, now);
  const match = /^(\d{1,4})([mhd])$/.exec(text);
  if (!match) return { error: `"${value}" is not a schedule: hourly, daily, weekly, an interval such as 12h, 30m, 2d, or a cron expression such as "0 3 * * *" (UTC)` };
  const everyMs = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (everyMs < MIN_EVERY_MS || everyMs > MAX_EVERY_MS) return { error: `"${value}" is out of range: from 5m to 31d` };
  return { everyMs };
}

/**
 * BACKUP_VERIFY_SCHEDULE's default: Sundays at 04:00 UTC, after the night's backup (a cron expression,
 * so a worker's start does not restore a whole snapshot at once, as an interval's first run would).
 */
export const DEFAULT_VERIFY_SCHEDULE = '0 4 * * 0';

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

/** BACKUP_VERIFY_SCHEDULE: `off` (null), or what BACKUP_SCHEDULE takes. */
export const parseVerifySchedule = (value: string): BackupSchedule | null | { error: string } =>
  value.trim().toLowerCase() === 'off' ? null : parseBackupSchedule(value);

/** Whether a parse refused its value. */
export const isRefusal = <T>(parsed: T | { error: string }): parsed is { error: string } => typeof parsed === 'object' && parsed !== null && 'error' in parsed;
