// An outbox relay in a process of its own, for the fault-injection spec (outbox-relay.int.spec.ts):
// the spec SIGKILLs it mid-way, the way a crashed or evicted relay dies. Node cannot load
// TypeScript, so the spec compiles this file and the libraries it imports to a scratch directory.
//
// Environment: DATABASE_URL, NATS_URL, STACK_ID (scopes the subjects), RELAY_BATCH_SIZE,
// RELAY_PUBLISH_TIMEOUT_MS, LOG_LEVEL.
import { createLogger } from '../../logging/index.js';
import { connectNats } from '../../messaging/jetstream.js';
import { OutboxRelay } from '../outbox-relay.js';

const databaseUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
if (!databaseUrl || !natsUrl) throw new Error('relay-process needs DATABASE_URL and NATS_URL');

const logger = createLogger('relay-process', process.env.LOG_LEVEL ?? 'warn');
const nats = await connectNats(natsUrl, `outbox-relay-${process.pid}`);
const relay = new OutboxRelay({
  databaseUrl,
  nats,
  logger,
  batchSize: Number(process.env.RELAY_BATCH_SIZE ?? 100),
  publishTimeoutMs: Number(process.env.RELAY_PUBLISH_TIMEOUT_MS ?? 5000),
  idlePollMs: 200,
});
await relay.start();
// The spec waits for this line before it counts on the relay.
process.stdout.write(`relay ready pid=${process.pid}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await relay.stop();
    await nats.drain().catch(() => undefined);
    process.stdout.write(`relay stopped published=${relay.publishedCount} duplicates=${relay.duplicateCount}\n`);
    process.exit(0);
  })();
});
