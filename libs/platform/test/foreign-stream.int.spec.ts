import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { z } from 'zod';
import { event as declare, type PublishedEvent } from '@lv/contracts';
import { generateTestKeys, POSTGRES_ADMIN_URL, uniqueStackId, waitFor } from '@lv/testing';
import { commonConfigSchema, databaseConfigSchema, type z as zod } from '../src/config/index.js';
import { DurableConsumer } from '../src/event-store/durable-consumer.js';
import { withEventStoreSchema } from '../src/event-store/schema.js';
import { createLogger } from '../src/logging/index.js';
import { migrateService, startService, type RunningService, type ServiceDefinition } from '../src/nest/run-service.js';
import { awaitServiceStream, connectNats, ensureServiceStream } from '../src/messaging/jetstream.js';
import { scopedStreamName, scopedSubject } from '../src/messaging/subjects.js';

// A consumer service started by the platform's startService on the machine's NATS (no auth), under
// a STACK_ID of its own: it reads letters' stream, which letters (standing in: another connection)
// creates only later. A spy on the JetStream API sees every stream create or update request.

jest.setTimeout(60_000);

const STACK_ID = uniqueStackId('foreign');
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const FOREIGN = scopedStreamName('letters', STACK_ID);
const OWN = scopedStreamName('timeline', STACK_ID);
const happened = declare('letters.spec.happened.v1', z.object({ n: z.number() }));

/** Log lines of the service, as JSON objects. */
const lines: { msg: string; stream?: string }[] = [];
const logger = createLogger('foreign-stream-spec', 'info', {}, { write: (line: string) => { lines.push(JSON.parse(line) as { msg: string }); } });

const configSchema = commonConfigSchema.extend(databaseConfigSchema.shape);
type SpecConfig = zod.infer<typeof configSchema>;

describe("a consumer of another service's stream", () => {
  const databaseName = `lv_test_foreign_${randomBytes(4).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${databaseName}` }).toString();
  const env = { DATABASE_URL: databaseUrl, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'info', STACK_ID };
  const handled: number[] = [];
  /** Stream create and update requests seen on the API, with the inbox their answer goes to. */
  const requests: { subject: string; reply: string }[] = [];
  let spy: NatsConnection;
  let owner: NatsConnection;
  let service: RunningService | undefined;

  const definition: ServiceDefinition<SpecConfig> = {
    name: 'timeline',
    configSchema,
    migrations: withEventStoreSchema([]),
    setup: ({ core }) => ({
      controllers: [],
      consumers: [new DurableConsumer({
        name: 'spec-timeline-from-letters', source: 'letters', events: [happened], orm: core.orm, nats: core.nats, logger, stackId: STACK_ID,
        handle: async (_em, e) => { handled.push(e.data.n); },
      })],
    }),
  };

  beforeAll(async () => {
    spy = await connect({ servers: NATS_URL, name: 'spec-api-spy' });
    const sub = spy.subscribe('$JS.API.STREAM.>');
    void (async () => {
      for await (const m of sub) if (/^\$JS\.API\.STREAM\.(CREATE|UPDATE)\./.test(m.subject)) requests.push({ subject: m.subject, reply: m.reply ?? '' });
    })();
    await spy.flush();
    // The owner's connection answers under an inbox prefix of its own, so its requests are told apart.
    owner = await connect({ servers: NATS_URL, name: 'spec-letters', inboxPrefix: '_INBOX_spec_letters' });
  });

  afterAll(async () => {
    await service?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    const jsm = await jetstreamManager(nc);
    for (const stream of [FOREIGN, OWN]) await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
    await Promise.allSettled([spy?.close(), owner?.close()]);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
  });

  it('starts without the foreign stream, waits for it with a log line, and never creates or updates it', async () => {
    await migrateService(definition, env, logger);
    service = await startService(definition, env, { logger });

    // Its own stream it made (and the spy saw that request: the spy can see what it counts).
    await waitFor(() => requests.some((r) => r.subject === `$JS.API.STREAM.CREATE.${OWN}`), 5000, 'the own stream create request');
    await waitFor(() => lines.some((l) => l.stream === FOREIGN && l.msg.startsWith('waiting for the letters stream')), 5000, 'the waiting log line');
    // Still waiting after several polls: the stream is not there, and nobody asked to make it.
    const polls = async () => (await jetstreamManager(spy)).streams.info(FOREIGN).then(() => 'there', () => 'missing');
    const infoRequests: string[] = [];
    const infoSub = spy.subscribe(`$JS.API.STREAM.INFO.${FOREIGN}`, { callback: (_e, m) => { infoRequests.push(m.reply ?? ''); } });
    await waitFor(() => infoRequests.filter((r) => !r.startsWith('_INBOX_spec')).length >= 2, 10_000, 'two more polls for the stream');
    infoSub.unsubscribe();
    expect(await polls()).toBe('missing');
    expect(requests.filter((r) => r.subject.endsWith(`.${FOREIGN}`))).toEqual([]);
    expect(handled).toEqual([]);

    // letters starts: it makes its stream and publishes; the consumer attaches and reads from the first event.
    await ensureServiceStream(owner, 'letters', STACK_ID);
    const js = jetstream(owner);
    for (const n of [1, 2, 3]) {
      const e: PublishedEvent = { eventId: randomUUID(), type: 'Happened', streamId: 's-1', version: n, occurredAt: new Date().toISOString(), data: { n }, metadata: {} };
      await js.publish(scopedSubject(happened.subject, STACK_ID), JSON.stringify(e), { msgID: e.eventId });
    }
    await waitFor(() => handled.length === 3, 20_000, 'the three events at the consumer');
    expect(handled).toEqual([1, 2, 3]);
    expect(lines.some((l) => l.stream === FOREIGN && l.msg === `the letters stream ${FOREIGN} is there now`)).toBe(true);

    // The only create or update of letters' stream came from letters itself.
    const foreign = requests.filter((r) => r.subject.endsWith(`.${FOREIGN}`));
    expect(foreign.map((r) => r.subject)).toEqual([`$JS.API.STREAM.CREATE.${FOREIGN}`]);
    expect(foreign.every((r) => r.reply.startsWith('_INBOX_spec_letters.'))).toBe(true);
  });

  it('stops while still waiting without leaving anything behind', async () => {
    const nc = await connectNats(NATS_URL, 'spec-stop');
    try {
      const waiting = new DurableConsumer({
        name: 'spec-waits-forever', source: 'billing', events: [happened], orm: service!.core.orm, nats: nc, logger, stackId: STACK_ID, handle: async () => undefined,
      });
      await waiting.start();
      await waitFor(() => lines.some((l) => l.stream === scopedStreamName('billing', STACK_ID)), 5000, "the wait for billing's stream");
      await waiting.stop();
      await expect(awaitServiceStream(nc, 'billing', { stackId: STACK_ID, signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
      expect(requests.filter((r) => r.subject.endsWith(`.${scopedStreamName('billing', STACK_ID)}`))).toEqual([]);
    } finally {
      await nc.close();
    }
  });
});
