// The permission file of deploy/ (generated from tools/deploy-check/nats-permissions.mjs) on a
// PRIVATE nats-server: each process's credentials reach only its own subjects. The connections are
// made the way the services make them (natsConnectionOptions, connectNats, RpcClient, Nest's NATS
// transport, ensureServiceStream, DurableConsumer), so a rule that blocks a real path fails here too.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { event as declareEvent, IdentityEvents, IdentityRpc, LettersEvents, LettersRpc, VaultMediaEvents, type LetterDeletedV1, type PublishedEvent, type RpcRequest, type ServiceName } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import { createLogger } from '@lv/platform/logging';
import { connectNats, ensureServiceStream, natsConnectionOptions, scopedConsumerName, scopedStreamName, type NatsSettings } from '@lv/platform/messaging';
import { DomainError } from '@lv/platform/errors';
import { RpcClient } from '@lv/platform/nest';
import { createTestDatabase, waitFor, type TestDatabase } from '@lv/testing';
import { NATS_USERS } from './nats-permissions.mjs';
import { startPrivateNats, type PrivateNats } from './test-support/private-nats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

jest.setTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), 'lv-nats-auth-'));
const logger = createLogger('nats-permissions-spec', 'silent');

let nats: PrivateNats;
let url: string;
let tlsCa: string;
let passwords: Record<string, string>;
const open: NatsConnection[] = [];

const settings = (user: string): NatsSettings => nats.settings(user);
async function connectAs(user: string): Promise<NatsConnection> {
  const nc = await connectNats(settings(user), `spec-${user}`);
  open.push(nc);
  return nc;
}

const event = (type: string): PublishedEvent => ({
  eventId: randomUUID(), type, streamId: randomUUID(), version: 1, occurredAt: new Date().toISOString(), data: {}, metadata: {},
});

/** One attempt, no retries: connectNats waits for a server forever, as a service should. */
const connectOnce = (s: NatsSettings | string) => connect({ ...natsConnectionOptions(s, 'spec-once'), maxReconnectAttempts: 0, reconnect: false, timeout: 2000 });

/** Messages a subscription received within a short window, and the error it was closed with. */
async function collect(sub: Subscription): Promise<{ received: number; closedWith: string | null }> {
  let received = 0;
  void (async () => { for await (const _ of sub) received++; })().catch(() => undefined);
  const closed = await Promise.race([sub.closed.then((e) => (e ? String(e.message ?? e) : 'closed')), new Promise<null>((r) => setTimeout(() => r(null), 1500))]);
  return { received, closedWith: closed };
}

beforeAll(async () => {
  // docker-compose's own server config on a free port, with its TLS and the generated permission file (test-support/private-nats.ts).
  nats = await startPrivateNats(dir);
  ({ url, tlsCa, passwords } = nats);
});

afterAll(async () => {
  await Promise.allSettled(open.map((nc) => nc.close()));
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('NATS permissions of deploy/nats/auth.conf', () => {
  it('refuses a connection without TLS, without credentials or with a wrong password', async () => {
    await expect(connectOnce({ ...settings('letters'), NATS_TLS_CA: undefined })).rejects.toThrow(/tls|certificate/i);
    await expect(connectOnce({ NATS_URL: url, NATS_TLS_CA: tlsCa })).rejects.toThrow(/Authorization/i);
    await expect(connectOnce({ ...settings('letters'), NATS_PASSWORD: passwords.identity })).rejects.toThrow(/Authorization/i);
  });

  it("runs every service's stream set-up under its own user: consumers wait for streams that are not there yet, owners make theirs", async () => {
    // Before any owner has started: every consumer of another's stream starts (and waits), refused nothing.
    const db = await createTestDatabase([], 'natsetup');
    const consumers: { user: string; source: ServiceName; consumer: DurableConsumer; seen: string[] }[] = [];
    const startConsumer = async (user: string, source: ServiceName) => {
      const seen: string[] = [];
      const consumer = new DurableConsumer({
        name: `spec-setup-${user}-from-${source}`, source, events: [declareEvent(`${source}.spec.setup.v1`, z.object({}))], orm: db.orm, nats: await connectAs(user), logger,
        handle: async (_em, e) => { seen.push(e.eventId); },
      });
      await consumer.start();
      consumers.push({ user, source, consumer, seen });
    };
    try {
      for (const u of NATS_USERS) for (const source of u.consumes) if (source !== u.stream) await startConsumer(u.user, source as ServiceName);
      expect(consumers.length).toBeGreaterThan(0);
      // Each owner makes its stream under its own user, twice (the second start is an update), and publishes.
      const published = new Map<string, string>();
      for (const u of NATS_USERS.filter((x) => x.stream)) {
        const nc = await connectAs(u.user);
        await ensureServiceStream(nc, u.stream as ServiceName);
        await ensureServiceStream(nc, u.stream as ServiceName);
        const e = event('SpecSetup');
        await jetstream(nc).publish(`${u.stream}.spec.setup.v1`, JSON.stringify(e), { msgID: e.eventId });
        published.set(u.stream!, e.eventId);
      }
      // A consumer of its own stream starts once the stream is there.
      for (const u of NATS_USERS) if (u.stream && u.consumes.includes(u.stream)) await startConsumer(u.user, u.stream as ServiceName);
      for (const c of consumers) await waitFor(() => c.seen.includes(published.get(c.source)!), 20_000, `${c.source}'s event at ${c.user}'s consumer`);
      const admin = await jetstreamManager(await connectAs('timeline'));
      expect((await admin.consumers.info(scopedStreamName('letters'), scopedConsumerName('spec-setup-timeline-from-letters'))).config.durable_name).toBe('spec-setup-timeline-from-letters');
    } finally {
      await Promise.allSettled(consumers.map((c) => c.consumer.stop()));
      await db.drop();
    }
  });

  it('lets a service create its stream and publish its own events', async () => {
    const letters = await connectAs('letters');
    const { jsm, stream } = await ensureServiceStream(letters, 'letters');
    // The set-up spec above left its own event there.
    const before = (await jsm.streams.info(stream)).state.messages;
    const ack = await jetstream(letters).publish(LettersEvents.LetterWritten.subject, JSON.stringify(event('LetterWritten')));
    expect(ack.stream).toBe(stream);
    expect((await jsm.streams.info(stream)).state.messages).toBe(before + 1);
  });

  it("lets identity read its own stream and delete an erased account's message from it, and refuses letters the same", async () => {
    const identity = await connectAs('identity');
    const { jsm, stream } = await ensureServiceStream(identity, 'identity');
    const registered = (userId: string) => JSON.stringify({ eventId: randomUUID(), data: { userId, email: `${userId}@example.com`, registeredAt: new Date().toISOString() } });
    const erased = await jetstream(identity).publish(IdentityEvents.UserRegistered.subject, registered('erased-user'));
    await jetstream(identity).publish(IdentityEvents.UserRegistered.subject, registered('bystander'));
    // What account deletion does (apps/identity/src/account-deletion/published-words.ts): an ordered consumer over its stream, then MSG.DELETE.
    const consumer = await jetstream(identity).consumers.get(stream, { filter_subjects: IdentityEvents.UserRegistered.subject, deliver_policy: DeliverPolicy.All });
    expect((await consumer.info()).num_pending).toBeGreaterThanOrEqual(2);
    const letters = await connectAs('letters');
    await expect(jetstreamManager(letters).then((other) => other.streams.deleteMessage(stream, erased.seq, true))).rejects.toThrow(/permission|timeout/i);
    const before = (await jsm.streams.info(stream)).state;
    expect(await jsm.streams.deleteMessage(stream, erased.seq, true)).toBe(true);
    const after = (await jsm.streams.info(stream)).state;
    expect(after.messages).toBe(before.messages - 1);
  });

  it("refuses letters' credentials publishing vault-media's events", async () => {
    const media = await connectAs('vault-media');
    const { jsm, stream } = await ensureServiceStream(media, 'vault-media');
    const before = (await jsm.streams.info(stream)).state.messages;

    const letters = await connectAs('letters');
    await expect(jetstream(letters).publish(VaultMediaEvents.RecordingDeleted.subject, JSON.stringify(event('RecordingDeleted')), { timeout: 2000 }))
      .rejects.toThrow(/permission/i);
    // A plain publish is dropped by the server as well: nothing reached the stream.
    letters.publish(VaultMediaEvents.RecordingDeleted.subject, JSON.stringify(event('RecordingDeleted')));
    await letters.flush().catch(() => undefined);
    expect((await jsm.streams.info(stream)).state.messages).toBe(before);
    // Nor may it touch another service's stream through the JetStream API.
    await expect(ensureServiceStream(letters, 'vault-media')).rejects.toThrow(/permission|timeout/i);
  });

  it("refuses letters' credentials reading identity's RPC traffic and other processes' replies", async () => {
    const identity = await connectAs('identity');
    const served = identity.subscribe(IdentityRpc.signIn.subject, { queue: 'identity' });
    void (async () => { for await (const m of served) m.respond(JSON.stringify({ response: { accessToken: 'secret-token' }, isDisposed: true })); })();

    const letters = await connectAs('letters');
    const spies = ['rpc.identity.>', '>', '_INBOX.>', '_INBOX_gateway.>'].map((subject) => ({ subject, sub: letters.subscribe(subject) }));

    const gateway = await connectAs('gateway');
    const reply = await gateway.request(IdentityRpc.signIn.subject, JSON.stringify({ email: 'sam@example.com', password: 'correct horse' }), { timeout: 3000 });
    expect(reply.json<{ response: { accessToken: string } }>().response.accessToken).toBe('secret-token');

    for (const { subject, sub } of spies) {
      const seen = await collect(sub);
      expect({ subject, received: seen.received }).toEqual({ subject, received: 0 });
      expect({ subject, closedWith: seen.closedWith }).toEqual({ subject, closedWith: expect.stringMatching(/permission/i) });
    }
  });

  describe('request-reply through Nest, as the services run it', () => {
    let lettersService: INestMicroservice;
    const rpcClients: RpcClient[] = [];
    const client = async (user: string) => {
      const rpc = new RpcClient(settings(user), 1500, `spec-${user}-rpc`);
      await rpc.connect();
      rpcClients.push(rpc);
      return rpc;
    };

    @Controller()
    class LettersListController {
      @MessagePattern(LettersRpc.list.subject)
      list(@Payload() request: RpcRequest<{ limit: number }>) {
        return { items: [], nextCursor: null, limit: request.payload.limit };
      }

      @MessagePattern(LettersRpc.titles.subject)
      titles() {
        return { titles: {} };
      }

      @MessagePattern(LettersRpc.health.subject)
      health() {
        return { status: 'up', checks: {} };
      }
    }
    @Module({ controllers: [LettersListController] })
    class LettersListModule {}

    beforeAll(async () => {
      lettersService = await NestFactory.createMicroservice<MicroserviceOptions>(LettersListModule, {
        transport: Transport.NATS, options: { ...natsConnectionOptions(settings('letters'), 'spec-letters-rpc'), queue: 'letters' }, logger: false,
      });
      await lettersService.listen();
    });

    afterAll(async () => {
      await Promise.allSettled(rpcClients.map((c) => c.close()));
      await lettersService?.close();
    });

    it("lets the gateway call letters' RPC, and the timeline its titles (and nothing else of letters)", async () => {
      const meta = { requestId: 'spec' };
      await expect((await client('gateway')).call(LettersRpc.list, { limit: 5 }, { meta })).resolves.toEqual({ items: [], nextCursor: null, limit: 5 });
      await expect((await client('timeline')).call(LettersRpc.titles, { ids: [] }, { meta })).resolves.toEqual({ titles: {} });
      await expect((await client('timeline')).call(LettersRpc.list, { limit: 7 }, { meta })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });

    it("passes the container health check (deploy/healthcheck.mjs) with the service's own credentials only", async () => {
      const probe = (user: string) => new Promise<number>((resolve) => {
        const child = spawn(process.execPath, [join(root, 'deploy', 'healthcheck.mjs'), 'rpc', 'letters'], {
          env: { PATH: process.env.PATH, NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user], NATS_TLS_CA: tlsCa },
          stdio: 'ignore',
        });
        child.once('exit', (code) => resolve(code ?? -1));
      });
      expect(await probe('letters')).toBe(0);
      // identity's credentials may not request letters' subjects.
      expect(await probe('identity')).toBe(1);
    });

    it("refuses a call outside a process's list: the worker to letters, the gateway to operators' commands", async () => {
      const meta = { requestId: 'spec' };
      // The server drops the request, so the caller sees what it sees of a service that is down.
      const refused = (await client('worker')).call(LettersRpc.list, { limit: 1 }, { meta });
      await expect(refused).rejects.toBeInstanceOf(DomainError);
      await expect(refused).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const gateway = await connectAs('gateway');
      await expect(gateway.request(IdentityRpc.setAdmin.subject, '{}', { timeout: 1000 })).rejects.toThrow(/permission/i);
    });
  });

  describe("durable consumers read only the streams a process consumes", () => {
    let db: TestDatabase;
    beforeAll(async () => { db = await createTestDatabase([], 'natsperm'); });
    afterAll(async () => { await db?.drop(); });

    it("lets the timeline's durable consumer read letters' events, and refuses the gateway the same consumer", async () => {
      const letters = await connectAs('letters');
      await ensureServiceStream(letters, 'letters');
      // Data its declaration accepts: the consumer would park anything else.
      const written = { ...event('LetterDeleted'), data: { letterId: randomUUID(), ownerId: randomUUID(), deletedAt: new Date().toISOString() } satisfies LetterDeletedV1 };
      await jetstream(letters).publish(LettersEvents.LetterDeleted.subject, JSON.stringify(written), { msgID: written.eventId });

      const seen: string[] = [];
      const consumer = new DurableConsumer({
        name: 'spec-timeline-from-letters', source: 'letters', events: [LettersEvents.LetterDeleted], orm: db.orm, nats: await connectAs('timeline'), logger,
        handle: async (_em, e) => { seen.push(e.eventId); },
      });
      await consumer.start();
      try {
        await waitFor(() => seen.includes(written.eventId), 10_000, "letters' event at the timeline's consumer");
      } finally {
        await consumer.stop();
      }

      const intruder = new DurableConsumer({
        name: 'spec-gateway-reads-letters', source: 'letters', events: [LettersEvents.LetterDeleted], orm: db.orm, nats: await connectAs('gateway'), logger,
        handle: async () => undefined,
      });
      await expect(intruder.start()).rejects.toThrow(/permission|timeout/i);
    });
  });
});
