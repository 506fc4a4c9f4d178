import { DEFAULT_RETENTION, isRefusal, parseBackupRetention, parseBackupSchedule } from './backup-schedule.js';
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
    for (const value of ['', 'nightly', '0 3 * * *', '12', '1.5h', '-1h', '12 h']) expect(parseBackupSchedule(value)).toEqual({ error: expect.stringContaining('is not a schedule') });
    for (const value of ['4m', '0h', '32d']) expect(parseBackupSchedule(value)).toEqual({ error: expect.stringContaining('out of range') });
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
    expect(config.BACKUP_SCHEDULE).toBe(24 * HOUR);
    expect(config.BACKUP_RETENTION).toEqual(DEFAULT_RETENTION);
  });

  it('names the variable it refuses', () => {
    const schedule = workerConfigSchema.safeParse({ ...base, BACKUP_SCHEDULE: 'sometimes' });
    expect(schedule.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_SCHEDULE'], message: expect.stringContaining('"sometimes" is not a schedule') })]);
    const retention = workerConfigSchema.safeParse({ ...base, BACKUP_RETENTION: 'daily=0,weekly=0,monthly=0' });
    expect(retention.error?.issues).toEqual([expect.objectContaining({ path: ['BACKUP_RETENTION'] })]);
  });
});
