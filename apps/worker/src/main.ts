import 'reflect-metadata';
import { Queues, VaultMediaRpc } from '@lv/contracts';
import { ConfigError, loadConfig } from '@lv/platform/config';
import { createLogger } from '@lv/platform/logging';
import { enableProcessMetrics, startOpsServer, type OpsServer } from '@lv/platform/observability';
import { RpcClient } from '@lv/platform/nest';
import { createRedisConnection, createWorker } from '@lv/platform/queues';
import { createObjectStorage } from '@lv/platform/storage';
import { workerConfigSchema, type WorkerConfig } from './config.js';
import { mediaHashingProcessor } from './media-hashing.processor.js';
import { mediaTranscodingProcessor } from './media-transcoding.processor.js';
import { scheduledBackupSettings, startScheduledBackups } from './scheduled-backup.js';

/**
 * The worker: BullMQ processors for background work with retries. It owns no data: what a job
 * finds goes back to the owning service as a command over NATS. Queues: media-hashing, media-transcoding,
 * and scheduled-backups when BACKUP_REPOSITORY is set (ops work on the databases and buckets themselves). (Key e-mails
 * are processed by notifications and delivery timing by access-keys, each next to the state its jobs
 * change, so a job's effect and its record commit together.)
 */
const logger = createLogger('worker');
enableProcessMetrics('worker');

function configured<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = configured((): WorkerConfig => loadConfig(workerConfigSchema, process.env, 'worker'));
// Scheduled backups: on when BACKUP_REPOSITORY is set (README, "Backups and restores").
const backupSettings = configured(() => scheduledBackupSettings(config, process.env));
const storage = createObjectStorage(config);
const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'worker');
await rpc.connect();
const connection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'worker' });
connection.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));

const hashing = createWorker(
  Queues.MediaHashing,
  mediaHashingProcessor({
    storage,
    report: (payload) => rpc.call(VaultMediaRpc.reportHash, payload, { meta: { requestId: `media-hashing-${payload.recordingId}` } }),
    logger: logger.child({ queue: Queues.MediaHashing.name }),
  }),
  connection,
  {
    concurrency: config.MEDIA_HASHING_CONCURRENCY,
    onDeadLetter: (job, error, data) => logger.error({ queue: Queues.MediaHashing.name, jobId: job.id, recordingId: data?.mediaId, attempts: job.attemptsMade, err: error }, 'job failed for good: kept in the failed set (dead letter)'),
  },
);
hashing.on('failed', (job, error) => {
  if (job) logger.warn({ queue: Queues.MediaHashing.name, jobId: job.id, attempt: job.attemptsMade, err: error }, 'job attempt failed');
});
hashing.on('error', (error) => logger.warn({ err: error }, 'media-hashing worker error'));
await hashing.waitUntilReady();

const transcoding = createWorker(
  Queues.MediaTranscoding,
  mediaTranscodingProcessor({
    storage,
    report: (payload) => rpc.call(VaultMediaRpc.reportTranscode, payload, { meta: { requestId: `media-transcoding-${payload.recordingId}` } }),
    logger: logger.child({ queue: Queues.MediaTranscoding.name }),
  }),
  connection,
  {
    concurrency: config.MEDIA_TRANSCODING_CONCURRENCY,
    // ffmpeg may run for minutes: the job's lock is renewed meanwhile, and a stalled one is taken again.
    lockDuration: 120_000,
    onDeadLetter: (job, error, data) => logger.error({ queue: Queues.MediaTranscoding.name, jobId: job.id, recordingId: data?.mediaId, attempts: job.attemptsMade, err: error }, 'job failed for good: kept in the failed set (dead letter)'),
  },
);
transcoding.on('failed', (job, error) => {
  if (job) logger.warn({ queue: Queues.MediaTranscoding.name, jobId: job.id, attempt: job.attemptsMade, err: error }, 'job attempt failed');
});
transcoding.on('error', (error) => logger.warn({ err: error }, 'media-transcoding worker error'));
await transcoding.waitUntilReady();
if (!backupSettings) logger.info('scheduled backups are off: BACKUP_REPOSITORY is not set');
const backups = backupSettings
  ? await startScheduledBackups({ settings: backupSettings, schedule: config.BACKUP_SCHEDULE, verifySchedule: config.BACKUP_VERIFY_SCHEDULE, retention: config.BACKUP_RETENTION, connection, logger })
  : null;
logger.info({ queues: [Queues.MediaHashing.name, Queues.MediaTranscoding.name, ...(backups ? [Queues.ScheduledBackups.name] : [])], concurrency: config.MEDIA_HASHING_CONCURRENCY }, 'worker is processing jobs');

// The ops listener (metrics, liveness, readiness: Redis answers and the processors run). OPS_HTTP_PORT
// is every process's; WORKER_HEALTH_PORT is where the worker's containers probed /health before it.
const opsPort = config.OPS_HTTP_PORT || config.WORKER_HEALTH_PORT;
const ops: OpsServer | null = opsPort
  ? await startOpsServer({
    port: opsPort,
    host: config.OPS_HTTP_PORT ? config.OPS_HTTP_HOST : config.WORKER_HEALTH_HOST,
    logger,
    readiness: async () => {
      const redis = await connection.ping().then(() => ({ status: 'up' as const }), (error: Error) => ({ status: 'down' as const, detail: error.message }));
      const running = hashing.isRunning();
      const transcodingRunning = transcoding.isRunning();
      const backing = backups ? backups.worker.isRunning() : true;
      return {
        status: redis.status === 'up' && running && transcodingRunning && backing ? 'up' : 'down',
        checks: {
          redis, [Queues.MediaHashing.name]: running ? { status: 'up' } : { status: 'down', detail: 'not running' },
          [Queues.MediaTranscoding.name]: transcodingRunning ? { status: 'up' } : { status: 'down', detail: 'not running' },
          ...(backups && { [Queues.ScheduledBackups.name]: backing ? { status: 'up' as const } : { status: 'down' as const, detail: 'not running' } }),
        },
      };
    },
  })
  : null;

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker stopping: finishing the jobs in hand');
  await ops?.close();
  await hashing.close().catch(() => undefined);
  await transcoding.close().catch(() => undefined);
  await backups?.close();
  await rpc.close().catch(() => undefined);
  connection.disconnect();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
