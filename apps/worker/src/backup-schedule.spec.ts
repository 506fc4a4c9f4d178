import { DEFAULT_RETENTION, isRefusal, nextBackupAt, parseBackupRetention, parseBackupSchedule, schedulerRepeat } from './backup-schedule.js';
import { workerConfigSchema } from './config.js';

const HOUR = 3_600_000;

describe('BACKUP_SCHEDULE', () => {
  it('reads the named schedules and intervals, daily by default', () => {
    expect(parseBackupSchedule('daily')).toEqual({ everyMs: 24 * HOUR });
    expect(parseBackupSchedule(' Hourly ')).toEqual({ everyMs: HOUR });
    expect(parseBackupSchedule('weekly')).toEqual({ everyMs: 7 * 24 * HOUR });
    expect(parseBackupSchedule('12h')).toEqual({ everyMs: 12 * HOUR });
    expect(parseBackupSchedule('30m')).toEqual({ everyMs: HOUR / 2 });
    expect(parseBackupSchedule('2d')).toEqual({ everyMs: 48 * HOUR });
  });

  it('refuses what it cannot read and intervals out of range', () => {
    for (const value of ['', 'nightly', '0 3 * *', '12', '1.5h', '-1h', '12 h']) expect(parseBackupSchedule(value)).toEqual({ error: expect.stringContaining('is not a schedule') });
    for (const value of ['4m', '0h', '32d']) expect(parseBackupSchedule(value)).toEqual({ error: expect.stringContaining('out of range') });
  });
});

describe('BACKUP_SCHEDULE as a cron expression (UTC)', () => {
  // A Monday, 10:00 UTC: the runs below are counted from it.
  const now = Date.parse('2026-12-07T10:00:00.000Z');

  it('reads five or six fields, its longest gap between two runs as the interval "overdue" is measured by', () => {
    expect(parseBackupSchedule('0 3 * * *', now)).toEqual({ everyMs: 24 * HOUR, pattern: '0 3 * * *' });
    expect(parseBackupSchedule('  30   2 * * 1-5 ', now)).toEqual({ everyMs: 72 * HOUR, pattern: '30 2 * * 1-5' });
    expect(parseBackupSchedule('0 0 */6 * * *', now)).toEqual({ everyMs: 6 * HOUR, pattern: '0 0 */6 * * *' });
    expect(parseBackupSchedule('0 4 1 * *', now)).toEqual({ everyMs: 31 * 24 * HOUR, pattern: '0 4 1 * *' });
    expect(parseBackupSchedule('*/5 * * * *', now)).toEqual({ everyMs: 5 * 60_000, pattern: '*/5 * * * *' });
  });

  it('runs it at the times BullMQ computes, in UTC, and an interval at its multiples', () => {
    const daily3 = parseBackupSchedule('0 3 * * *', now);
    if (isRefusal(daily3)) throw new Error(daily3.error);
    expect(schedulerRepeat(daily3)).toEqual({ pattern: '0 3 * * *', tz: 'UTC' });
    expect(nextBackupAt(daily3, now)?.toISOString()).toBe('2026-12-08T03:00:00.000Z');
    expect(nextBackupAt({ everyMs: 24 * HOUR, pattern: '30 2 * * 1-5' }, Date.parse('2026-12-11T03:00:00.000Z'))?.toISOString()).toBe('2026-12-14T02:30:00.000Z');
    expect(schedulerRepeat({ everyMs: 12 * HOUR })).toEqual({ every: 12 * HOUR });
    expect(nextBackupAt({ everyMs: 12 * HOUR }, now)?.toISOString()).toBe('2026-12-07T12:00:00.000Z');
  });

  it('refuses an expression BullMQ cannot read, naming the problem', () => {
    expect(parseBackupSchedule('0 25 * * *', now)).toEqual({ error: '"0 25 * * *" is not a schedule: not a cron expression BullMQ reads (Constraint error, got value 25 expected range 0-23)' });
    expect(parseBackupSchedule('at three on every day', now)).toEqual({ error: '"at three on every day" is not a schedule: not a cron expression BullMQ reads (Invalid characters, got value: at)' });
    expect(parseBackupSchedule('0 3 * * * * *', now)).toEqual({ error: expect.stringContaining('is not a schedule') });
  });

  it('refuses runs closer than 5 minutes, further apart than 31 days, or never', () => {
    for (const value of ['* * * * *', '*/10 * * * * *', '0,1 3 * * *']) expect(parseBackupSchedule(value, now)).toEqual({ error: `"${value}" is out of range: it runs more often than every 5 minutes` });
    for (const value of ['0 0 1 1 *', '0 0 31 * *', '0 0 1 */3 *']) expect(parseBackupSchedule(value, now)).toEqual({ error: `"${value}" is out of range: it runs less often than every 31 days` });
    expect(parseBackupSchedule('0 0 30 2 *', now)).toEqual({ error: expect.stringContaining('"0 0 30 2 *" is not a schedule') });
  });
});

describe('BACKUP_RETENTION', () => {
  it('keeps 7 daily, 4 weekly and 12 monthly by default, a rule left out keeping its default', () => {
    expect(parseBackupRetention('')).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toEqual({ daily: 7, weekly: 4, monthly: 12 });
    expect(parseBackupRetention('daily=14, monthly=24')).toEqual({ daily: 14, weekly: 4, monthly: 24 });
    expect(parseBackupRetention('daily=0,weekly=0,monthly=1')).toEqual({ daily: 0, weekly: 0, monthly: 1 });
  });

  it('refuses unknown rules, repeats, huge counts and a policy that keeps nothing', () => {
    expect(parseBackupRetention('yearly=2')).toEqual({ error: expect.stringContaining('is not a rule') });
    expect(parseBackupRetention('daily=-1')).toEqual({ error: expect.stringContaining('is not a rule') });
    expect(parseBackupRetention('daily=7;weekly=4')).toEqual({ error: expect.stringContaining('is not a rule') });
    expect(parseBackupRetention('daily=7,daily=3')).toEqual({ error: 'daily is given twice' });
    expect(parseBackupRetention('weekly=5000')).toEqual({ error: expect.stringContaining('at most 1000') });
    expect(parseBackupRetention('daily=0,weekly=0,monthly=0')).toEqual({ error: expect.stringContaining('keeps no backup at all') });
    expect(isRefusal(parseBackupRetention('daily=1'))).toBe(false);
  });
});

describe('the worker configuration', () => {
  const base = { NATS_URL: 'nats://127.0.0.1:4222', REDIS_URL: 'redis://127.0.0.1:6379', JWT_PUBLIC_KEY: 'x', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' };

  it('schedules daily with the default retention and no repository unless told', () => {
    const config = workerConfigSchema.parse(base);
    expect(config.BACKUP_REPOSITORY).toBeUndefined();
    expect(config.BACKUP_SCHEDULE).toEqual({ everyMs: 24 * HOUR });
    expect(config.BACKUP_RETENTION).toEqual(DEFAULT_RETENTION);
    // The drill: Sundays at 04:00 UTC, a week apart.
    expect(config.BACKUP_VERIFY_SCHEDULE).toEqual({ everyMs: 7 * 24 * HOUR, pattern: '0 4 * * 0' });
  });

  it('turns the scheduled drill off, or takes any schedule the backup takes', () => {
    expect(workerConfigSchema.parse({ ...base, BACKUP_VERIFY_SCHEDULE: 'off' }).BACKUP_VERIFY_SCHEDULE).toBeNull();
    expect(workerConfigSchema.parse({ ...base, BACKUP_VERIFY_SCHEDULE: ' OFF ' }).BACKUP_VERIFY_SCHEDULE).toBeNull();
    expect(workerConfigSchema.parse({ ...base, BACKUP_VERIFY_SCHEDULE: '2d' }).BACKUP_VERIFY_SCHEDULE).toEqual({ everyMs: 48 * HOUR });
    const refused = workerConfigSchema.safeParse({ ...base, BACKUP_VERIFY_SCHEDULE: 'never' });
    expect(refused.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_VERIFY_SCHEDULE'], message: expect.stringContaining('"never" is not a schedule') })]);
  });

  it('names the variable it refuses', () => {
    const schedule = workerConfigSchema.safeParse({ ...base, BACKUP_SCHEDULE: 'sometimes' });
    expect(schedule.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_SCHEDULE'], message: expect.stringContaining('"sometimes" is not a schedule') })]);
    const cron = workerConfigSchema.safeParse({ ...base, BACKUP_SCHEDULE: '0 25 * * *' });
    expect(cron.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_SCHEDULE'], message: expect.stringContaining('"0 25 * * *" is not a schedule: not a cron expression BullMQ reads') })]);
    expect(workerConfigSchema.parse({ ...base, BACKUP_SCHEDULE: '15 1 * * *' }).BACKUP_SCHEDULE).toEqual({ everyMs: 24 * HOUR, pattern: '15 1 * * *' });
    const retention = workerConfigSchema.safeParse({ ...base, BACKUP_RETENTION: 'daily=0,weekly=0,monthly=0' });
    expect(retention.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_RETENTION'] })]);
  });
});
