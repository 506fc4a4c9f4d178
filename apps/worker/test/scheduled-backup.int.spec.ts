import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Buckets, Queues } from '@lv/contracts';
import { readBackupStatus, Restic, type BackupSettings, type BackupStatus } from '@lv/platform/backup';
import { createLogger } from '@lv/platform/logging';
import { renderMetrics } from '@lv/platform/observability';
import { createRedisConnection } from '@lv/platform/queues';
import { createObjectStorage } from '@lv/platform/storage';
import { createTestDatabase, waitFor, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { BACKUP_SCHEDULER_ID, BACKUP_VERIFY_SCHEDULER_ID, scheduledBackupProcessor, scheduledVerifyProcessor, startScheduledBackups, type ScheduledBackups } from '../src/scheduled-backup.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DAY = 86_400_000;
const PASSWORD = 'spec-repository-password-0123456789abcdef';
/** The drill's default: Sundays at 04:00 UTC (BACKUP_VERIFY_SCHEDULE). */
const WEEKLY_VERIFY = { everyMs: 7 * DAY, pattern: '0 4 * * 0' };

/** The value of a metric without labels other than the process's, from the Prometheus text. */
function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

/** Waits until the record holds a run finished after `after` (the scheduler's first one runs at once). */
async function waitForRun(redis: Redis, prefix: string, after: string | null): Promise<BackupStatus> {
  let status: BackupStatus | null = null;
  await waitFor(async () => {
    status = await readBackupStatus(redis, prefix);
    return Boolean(status?.last && status.last.finishedAt !== after);
  }, 60_000, 'a scheduled backup to be recorded');
  return status!;
}

describe('the scheduled backup (BullMQ job scheduler, restic, pg_dump, S3, Redis)', () => {
  let work: string;
  let s3: RunningS3Server;
  let db: TestDatabase;
  let connection: Redis;
  let backups: ScheduledBackups | undefined;
  const prefix = `lv-spec-backup-${randomBytes(4).toString('hex')}`;
  const logger = createLogger('worker-spec');

  const settings = (password = PASSWORD): BackupSettings => ({
    repository: { repository: join(work, 'repo'), password, env: { ...process.env, RESTIC_CACHE_DIR: join(work, 'restic-cache') } },
    serverUrl: db.url,
    databases: [{ service: 'letters', name: db.name }],
    databasePrefix: 'lv_',
    storage: { S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey },
    keysDir: join(work, 'keys'),
    secrets: {},
    stagingDir: join(work, 'staging'),
  });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'lv-scheduled-backup-'));
    s3 = await startS3Server({ port: 0, directory: join(work, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' });
    const storage = createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
    await storage.ensureBucket(Buckets.vaultmedia);
    await storage.upload(Buckets.vaultmedia, 'owner-1/recordings/hello.webm', Readable.from([randomBytes(50_000)]), { contentType: 'video/webm' });
    db = await createTestDatabase([], 'scheduled-backup');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('create table letter_keys (letter_id uuid primary key, data_key text not null)');
    await client.query('insert into letter_keys values ($1, $2)', [crypto.randomUUID(), randomBytes(32).toString('base64')]);
    await client.end();
    await mkdir(join(work, 'keys'), { mode: 0o700 });
    await writeFile(join(work, 'keys', 'jwt-private.pem'), '-----BEGIN PRIVATE KEY-----\nspec\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
    connection = createRedisConnection(REDIS_URL, { role: 'worker', name: 'scheduled-backup-spec' });
  });

  afterAll(async () => {
    await backups?.close();
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length) await connection.del(...keys);
    connection.disconnect();
    await db?.drop();
    await s3?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('runs once when scheduled, records the snapshot with its size and duration, and exports it on the metrics', async () => {
    const before = Date.now();
    backups = await startScheduledBackups({ settings: settings(), schedule: { everyMs: DAY }, verifySchedule: WEEKLY_VERIFY, retention: { daily: 7, weekly: 4, monthly: 12 }, connection, logger, prefix });
    const status = await waitForRun(connection, prefix, null);

    expect(status.everyMs).toBe(DAY);
    // The next run: the next multiple of a day since the epoch, as BullMQ computes it.
    expect(status.nextRunAt).toBe(new Date((Math.floor(Date.now() / DAY) + 1) * DAY).toISOString());
    expect(status.last).toEqual({
      startedAt: expect.any(String), finishedAt: expect.any(String), durationMs: expect.any(Number), ok: true,
      snapshot: expect.stringMatching(/^[0-9a-f]{64}$/), sizeBytes: expect.any(Number), removedSnapshots: 0, errorCode: null, error: null,
    });
    expect(status.lastSuccess).toEqual(status.last);
    expect(status.last!.sizeBytes).toBeGreaterThan(50_000);
    expect(Date.parse(status.last!.finishedAt)).toBeGreaterThanOrEqual(before);
    // The snapshot is in the repository, where `npm run vault -- restore` finds it.
    expect((await new Restic(settings().repository).snapshot('latest')).id).toBe(status.last!.snapshot);

    // Two schedulers: the backup, its next run a day away (the first ran at once), and its weekly drill,
    // which waits for its first Sunday (a cron expression does not run at once).
    const schedulers = await backups.queue.getJobSchedulers();
    expect(schedulers).toEqual(expect.arrayContaining([
      expect.objectContaining({ key: 'scheduled-backup', every: DAY }),
      expect.objectContaining({ key: 'scheduled-backup-verify', pattern: '0 4 * * 0', tz: 'UTC' }),
    ]));
    expect(schedulers).toHaveLength(2);
    const verifyNext = new Date(schedulers.find((j) => j.key === BACKUP_VERIFY_SCHEDULER_ID)!.next!);
    expect([verifyNext.getUTCDay(), verifyNext.getUTCHours(), verifyNext.getUTCMinutes()]).toEqual([0, 4, 0]);
    expect(status.verify).toEqual({ everyMs: 7 * DAY, pattern: '0 4 * * 0', nextRunAt: verifyNext.toISOString(), last: null, lastSuccess: null });
    expect(await backups.queue.getJobCounts('completed', 'failed')).toEqual({ completed: 1, failed: 0 });

    const metrics = await renderMetrics();
    expect(metric(metrics, 'lv_backup_last_run_ok')).toBe(1);
    expect(metric(metrics, 'lv_backup_missed')).toBe(0);
    expect(metric(metrics, 'lv_backup_last_size_bytes')).toBe(status.last!.sizeBytes);
    expect(metric(metrics, 'lv_backup_last_duration_seconds')).toBe(status.last!.durationMs / 1000);
    expect(metric(metrics, 'lv_backup_last_success_timestamp_seconds')).toBe(Date.parse(status.last!.finishedAt) / 1000);
    expect(Queues.ScheduledBackups.name).toBe('scheduled-backups');
  });

  it('verifies the newest snapshot when its drill runs on the worker: restored into scratch copies, read back, recorded and exported', async () => {
    const latest = (await new Restic(settings().repository).snapshot('latest')).id;
    await backups!.queue.add(Queues.ScheduledBackups.name, { task: 'verify' });
    let status: BackupStatus | null = null;
    await waitFor(async () => {
      status = await readBackupStatus(connection, prefix);
      return Boolean(status?.verify?.last);
    }, 60_000, 'the drill to be recorded');
    const verify = status!.verify!;

    expect(verify.last).toEqual({
      startedAt: expect.any(String), finishedAt: expect.any(String), durationMs: expect.any(Number), ok: true,
      snapshot: latest, objects: 1, rows: expect.any(Number), mismatches: [], errorCode: null, error: null,
    });
    // The letter key and the test database's own bookkeeping rows, each table as the manifest counted it.
    expect(verify.last!.rows).toBeGreaterThanOrEqual(1);
    expect(verify.lastSuccess).toEqual(verify.last);
    // The backup's part of the record is as it was; the scratch databases are gone.
    expect(status!.last!.snapshot).toBe(latest);
    const server = new pg.Client({ connectionString: db.url });
    await server.connect();
    const scratch = await server.query("select datname from pg_database where datname like 'lv_verify_%'");
    await server.end();
    expect(scratch.rows).toEqual([]);

    const metrics = await renderMetrics();
    expect(metric(metrics, 'lv_backup_verify_last_run_ok')).toBe(1);
    expect(metric(metrics, 'lv_backup_verify_last_success_timestamp_seconds')).toBe(Date.parse(verify.last!.finishedAt) / 1000);
  });

  it('records a drill the repository refuses as failed with its code, keeps its last success and the backup\'s record, and reports it', async () => {
    const before = (await readBackupStatus(connection, prefix))!;
    const drill = scheduledVerifyProcessor({ settings: settings('not-the-repository-password-0123456789'), schedule: WEEKLY_VERIFY, redis: connection, prefix, logger });
    await expect(drill()).rejects.toThrow('BACKUP_WRONG_PASSWORD: scheduled backup verify failed');

    const status = (await readBackupStatus(connection, prefix))!;
    expect(status.verify!.last).toEqual(expect.objectContaining({ ok: false, snapshot: null, objects: null, rows: null, errorCode: 'BACKUP_WRONG_PASSWORD', error: expect.stringContaining('refused the password') }));
    expect(status.verify!.lastSuccess).toEqual(before.verify!.lastSuccess);
    expect({ ...status, verify: undefined }).toEqual({ ...before, verify: undefined });
    expect(metric(await renderMetrics(), 'lv_backup_verify_last_run_ok')).toBe(0);
  });

  it('records a run the repository refuses as failed with its code, keeps the last success, and reports it', async () => {
    const before = (await readBackupStatus(connection, prefix))!;
    const run = scheduledBackupProcessor({ settings: settings('not-the-repository-password-0123456789'), retention: { daily: 7, weekly: 4, monthly: 12 }, schedule: { everyMs: DAY }, redis: connection, prefix, logger });
    await expect(run()).rejects.toThrow('BACKUP_WRONG_PASSWORD: scheduled backup failed');

    const status = (await readBackupStatus(connection, prefix))!;
    expect(status.last).toEqual(expect.objectContaining({ ok: false, snapshot: null, sizeBytes: null, errorCode: 'BACKUP_WRONG_PASSWORD', error: expect.stringContaining('refused the password') }));
    expect(status.lastSuccess).toEqual(before.lastSuccess);
    expect(status.since).toBe(before.since);

    const metrics = await renderMetrics();
    expect(metric(metrics, 'lv_backup_last_run_ok')).toBe(0);
    expect(metric(metrics, 'lv_backup_last_success_timestamp_seconds')).toBe(Date.parse(before.lastSuccess!.finishedAt) / 1000);
    expect(metric(metrics, 'lv_backup_missed')).toBe(0);
  });

  it('reports a backup as missed once its last success is older than 1.5 intervals, on the metrics and in the log', async () => {
    const status = (await readBackupStatus(connection, prefix))!;
    const stale = { ...status, lastSuccess: { ...status.lastSuccess!, finishedAt: new Date(Date.now() - 1.5 * DAY - 60_000).toISOString() } };
    expect(await backups!.checkMissed()).toBe(false);
    await connection.set(`${prefix}:backup:status`, JSON.stringify(stale));
    expect(metric(await renderMetrics(), 'lv_backup_missed')).toBe(1);
    // The worker's watch logs it at error level (BACKUP_MISSED).
    expect(await backups!.checkMissed()).toBe(true);
  });

  it('replaces the schedule with a cron expression in UTC when the worker restarts with one, and records its next run as BullMQ set it', async () => {
    const completed = (await backups!.queue.getJobCounts('completed')).completed;
    await backups!.close();
    backups = await startScheduledBackups({ settings: settings(), schedule: { everyMs: DAY, pattern: '0 3 * * *' }, verifySchedule: null, retention: { daily: 7, weekly: 4, monthly: 12 }, connection, logger, prefix });

    // BACKUP_VERIFY_SCHEDULE=off: the drill's scheduler and record are gone.
    const schedulers = await backups.queue.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: BACKUP_SCHEDULER_ID, pattern: '0 3 * * *', tz: 'UTC', next: expect.any(Number) })]);
    expect(schedulers[0]!.every).toBeUndefined();
    const next = new Date(schedulers[0]!.next!);
    expect(next.getUTCHours()).toBe(3);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(DAY);
    const status = (await readBackupStatus(connection, prefix))!;
    expect(status).toEqual(expect.objectContaining({ everyMs: DAY, pattern: '0 3 * * *', nextRunAt: next.toISOString() }));
    expect(status.verify).toBeUndefined();
    // Unlike an interval, a cron expression does not run at once: nothing ran since the restart.
    expect((await backups.queue.getJobCounts('completed')).completed).toBe(completed);
    expect(metric(await renderMetrics(), 'lv_backup_last_run_ok')).toBe(0);
  });
});
