import { AccessKeysRpc, IdentityEvents, Queues } from '@lv/contracts';
import { DurableConsumer, ErasureJournal, ErasureJournalKeeper, erasureJournalUrl } from '@lv/platform/event-store';
import { defineService, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection, createWorker, sleepUntil } from '@lv/platform/queues';
import { CommunityController } from './community/community.controller.js';
import { CommunityService } from './community/community.service.js';
import { lettersConfigSchema } from './config.js';
import { LettersController } from './letters.controller.js';
import { LettersService } from './letters.service.js';
import { lettersMigrations } from './migrations.js';

/** letters: Letters Unsent, the vault home's reflection, the Who I Am portrait (words sealed per stream), letters sealed until a day (released on it) and the Parent Circle's posts and stories. */
export const lettersService = defineService({
  name: 'letters',
  configSchema: lettersConfigSchema,
  migrations: lettersMigrations,
  async setup({ config, core, logger }) {
    const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'letters');
    await rpc.connect();
    const producer = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'letters' });
    const jobs = createQueue(Queues.MilestoneRelease, producer);
    const service = new LettersService({
      orm: core.orm,
      milestones: {
        jobs,
        issueKey: async (letterId, releaseId) => (await rpc.call(AccessKeysRpc.issueLetterKey, { letter_id: letterId, release_id: releaseId }, { meta: { requestId: `milestone-${releaseId}` } })).key_id,
      },
    });
    const milestones = service.milestones!;
    const workerConnection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'letters' });
    const worker = createWorker(Queues.MilestoneRelease, async (data, job, token) => {
      const result = await milestones.release(data);
      // Woken before its day (clock skew): this job waits again, under the id the re-derivation uses.
      if (result.outcome === 'not-due') await sleepUntil(job, token, result.dueAt);
      // Released, but access-keys did not issue the key (yet): retried with backoff; `milestone:due` finishes what is left.
      if ((result.outcome === 'released' || result.outcome === 'key-issued') && !result.keyId) throw new Error('the recipient\'s key is not issued yet');
      return result.outcome;
    }, workerConnection, {
      autorun: false,
      onDeadLetter: (job, error, data) => logger.error({ releaseId: data?.releaseId, jobId: job.id, attempts: job.attemptsMade, err: error }, 'milestone letter release failed for good'),
    });
    worker.on('error', (err) => logger.error({ err }, 'milestone worker error'));
    // Release jobs live in Redis, the seals in PostgreSQL: the jobs are re-derived at start and then periodically.
    const rearm = () => milestones.rearm().then(
      (pending) => logger.info({ pending }, 'milestone release jobs re-derived'),
      (err: unknown) => logger.error({ err }, 'could not re-derive the milestone release jobs'),
    );
    let rearmTimer: NodeJS.Timeout | undefined;
    // Before requests are taken: letters and posts deleted after a restored snapshot are deleted again.
    const community = new CommunityService(core.orm);
    const erasures = new ErasureJournalKeeper({
      journal: new ErasureJournal(erasureJournalUrl(config, 'letters')), orm: core.orm, service: 'letters',
      sealings: [service.sealing, community.sealing], handlers: [...service.erasureHandlers, ...community.erasureHandlers], logger,
    });
    // An erased account (identity, after its grace period): every letter, post, story, reflection and
    // portrait of the owner erased through the same deletions as one by one, so each is journaled.
    const accountErasures = new DurableConsumer({
      name: 'letters-account-erasures', source: 'identity', events: [IdentityEvents.AccountErased], orm: core.orm, nats: core.nats,
      logger: logger.child({ component: 'account-erasures' }), stackId: process.env.STACK_ID,
      handle: async (_em, { data }) => {
        const erased = { ...await service.eraseOwner(data.userId), ...await community.eraseMember(data.userId) };
        logger.info({ userId: data.userId, ...erased }, 'erased the account\'s letters, posts, stories, reflection and portrait');
      },
    });
    return {
      controllers: [LettersController, CommunityController],
      providers: [{ provide: LettersService, useValue: service }, { provide: CommunityService, useValue: community }, { provide: ErasureJournalKeeper, useValue: erasures }],
      health: { redis: async () => void (await producer.ping()) },
      // Due letters are taken once the service is ready, and no new one after shutdown begins.
      consumers: [erasures, accountErasures, {
        start: () => {
          void worker.run().catch((err: unknown) => logger.error({ err }, 'milestone worker stopped'));
          void rearm();
          rearmTimer = setInterval(() => void rearm(), config.MILESTONE_REARM_INTERVAL_SECONDS * 1000);
          rearmTimer.unref();
          return Promise.resolve();
        },
        stop: () => {
          clearInterval(rearmTimer);
          return worker.close();
        },
      }],
      close: async () => {
        await jobs.close();
        await rpc.close();
        producer.disconnect();
        workerConnection.disconnect();
      },
    };
  },
});
