import { IdentityEvents, IdentityRpc, LettersRpc, NotificationsEvents, Queues, TRUSTEE_LINK_VALID_DAYS, type RequestMeta, type EventDeclaration } from '@lv/contracts';
import { RevokedViewSessions, ViewerTokenSigner } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { RedisRateBudgets } from '@lv/platform/limits';
import { OwnerLinkSigner } from '@lv/platform/links';
import { DurableConsumer, ErasureJournal, ErasureJournalKeeper, erasureJournalUrl, type DurableConsumerOptions } from '@lv/platform/event-store';
import { defineService, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection, createWorker, sleepUntil } from '@lv/platform/queues';
import { AccessKeysController } from './access-keys.controller.js';
import { KeyStatusController } from './keys/key-status.controller.js';
import { KeyStatusService } from './keys/key-status.service.js';
import { AccessKeysService } from './access-keys.service.js';
import { accessKeysConfigSchema } from './config.js';
import { DeliveryReviewsController } from './if-im-not-there/delivery-reviews.controller.js';
import { DeliveryReviewsService } from './if-im-not-there/delivery-reviews.service.js';
import { DeliveryService } from './if-im-not-there/delivery.service.js';
import { IfImNotThereController } from './if-im-not-there/if-im-not-there.controller.js';
import { IfImNotThereService } from './if-im-not-there/if-im-not-there.service.js';
import { InactivityController } from './if-im-not-there/inactivity.controller.js';
import { CHECK_IN_LINK_DAYS, CHECK_IN_PURPOSE, InactivityService } from './if-im-not-there/inactivity.service.js';
import { accessKeysMigrations } from './migrations.js';
import { TRUSTEE_ERASURE_TYPE, trusteeIdOfErasure } from './trustees/trustee-sealing.js';
import { AccountErasure } from './account-erasure.js';
import { TrusteesController } from './trustees/trustees.controller.js';
import { TRUSTEE_LINK_PURPOSE, TrusteesService } from './trustees/trustees.service.js';
import { LetterKeysService } from './milestones/letter-keys.service.js';
import { TimerRearm } from './timers/timer-rearm.js';
import { MilestonesController } from './milestones/milestones.controller.js';

/** How long a due job waits, retrying, for the transaction that queued it to become visible. */
const DELIVERY_VISIBILITY_WINDOW_MS = 120_000;

/**
 * access-keys: family access, and If I'm Not There's contacts and delivery settings. Mints viewer tokens (it alone holds their private key), queues each key's
 * e-mail and each access request's notice to its owner for notifications, and reads notifications' events back to show each key's e-mail status.
 */
export const accessKeysService = defineService({
  name: 'access-keys',
  configSchema: accessKeysConfigSchema,
  migrations: accessKeysMigrations,
  async setup({ config, core, logger }) {
    const stackId = process.env.STACK_ID;
    const producer = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'access-keys' });
    const keyEmails = createQueue(Queues.KeyEmails, producer);
    const limits = new RedisRateBudgets(core.redis, stackId ? `lv:${stackId}:access` : 'lv:access');
    const requestNotices = createQueue(Queues.AccessRequestNotices, producer);
    // Milestone letters ask letters back; a key's landing page and a request link ask identity whose vault it is.
    const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'access-keys');
    await rpc.connect();
    const ownerName = async (ownerId: string, meta: RequestMeta) =>
      (await rpc.call(IdentityRpc.ownerDisplayName, { user_id: ownerId }, { meta: { requestId: meta.requestId } })).full_name;
    const service = new AccessKeysService({
      orm: core.orm,
      viewerTokens: new ViewerTokenSigner(await readPem(config.VIEWER_JWT_PRIVATE_KEY)),
      revokedViewSessions: new RevokedViewSessions(core.redis),
      limits,
      limitValues: {
        redeemFailuresPerMinute: config.REDEEM_FAILURES_PER_MINUTE, requestsPerHour: config.ACCESS_REQUESTS_PER_HOUR, requestFormLookupsPerMinute: config.REQUEST_FORM_LOOKUPS_PER_MINUTE,
      },
      keyEmails,
      keyMailSecret: config.KEY_MAIL_SECRET,
      requestNotices,
      ownerName,
    });
    // notifications' stream is notifications' own: the consumer waits for it when it is not there yet.
    const emailStatus = new DurableConsumer({
      name: 'access-keys-key-emails',
      source: 'notifications',
      events: [NotificationsEvents.KeyEmailSent, NotificationsEvents.KeyEmailFailed],
      orm: core.orm,
      nats: core.nats,
      logger: logger.child({ component: 'key-email-status' }),
      stackId,
      // The key's decider ignores repeats, so a redelivered report changes nothing.
      handle: async (_em, event) => {
        if (event.subject === NotificationsEvents.KeyEmailSent.subject) {
          const d = event.data;
          await service.recordEmailStatus({ keyId: d.keyId, status: 'sent', at: d.sentAt, messageId: d.messageId, reason: null });
        } else {
          const d = event.data;
          await service.recordEmailStatus({ keyId: d.keyId, status: 'failed', at: d.failedAt, messageId: null, reason: d.reason });
        }
      },
    });
    const ifImNotThere = new IfImNotThereService({ orm: core.orm, store: service.store, keys: service });
    // Vault delivery: its due jobs are processed here, by the service that owns the state machine.
    const deliveryJobs = createQueue(Queues.DeliveryTiming, producer);
    const trusteeNotices = createQueue(Queues.TrusteeNotices, producer);
    const inactivityJobs = createQueue(Queues.InactivityTiming, producer);
    const inactivityWarnings = createQueue(Queues.InactivityWarnings, producer);
    const delivery = new DeliveryService({
      orm: core.orm, store: service.store, keys: service, jobs: deliveryJobs, keyEmails, trusteeNotices, inactivityQueues: { timing: inactivityJobs, warnings: inactivityWarnings },
    });
    const workerConnection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'access-keys' });
    const deliveryWorker = createWorker(Queues.DeliveryTiming, async (data, job, token) => {
      const result = await delivery.release(data);
      if (result.outcome === 'not-due') {
        // Woken before its time (clock skew): this job waits again, under the id the timers derive.
        if (result.dueAt === data.dueAt) await sleepUntil(job, token, result.dueAt);
        // The due time moved later: the wake is the job of the new time (added unless the move added it).
        await delivery.schedule({ ...data, dueAt: result.dueAt });
      }
      // Queued inside a transaction that may not have committed yet: try again shortly (with backoff)
      // while the job is young; an old one is stale (its delivery was replaced) and ends here.
      if (result.outcome === 'unknown' && Date.now() - job.timestamp < DELIVERY_VISIBILITY_WINDOW_MS) throw new Error('the delivery is not visible yet');
      return result.outcome;
    }, workerConnection, {
      autorun: false,
      onDeadLetter: (job, error, data) => logger.error({ releaseId: data?.subjectId, jobId: job.id, attempts: job.attemptsMade, err: error }, 'vault delivery failed for good'),
    });
    deliveryWorker.on('error', (err) => logger.error({ err }, 'delivery worker error'));

    // Trustees: their invitations and links go to notifications, each link signed under its own sub-key.
    const trusteeLinks = createQueue(Queues.TrusteeLinks, producer);
    const trusteeReportNotices = createQueue(Queues.TrusteeReportNotices, producer);
    const trustees = new TrusteesService({
      orm: core.orm, store: service.store, mail: trusteeLinks, keyMailSecret: config.KEY_MAIL_SECRET, ownerName, limits, delivery, reportNotices: trusteeReportNotices,
      vetoHours: config.TRUSTEE_REPORT_VETO_HOURS,
      links: new OwnerLinkSigner({ namespace: 'access-keys/trustee', secret: config.KEY_MAIL_SECRET, secretName: 'KEY_MAIL_SECRET', purposes: [TRUSTEE_LINK_PURPOSE], ttlSeconds: TRUSTEE_LINK_VALID_DAYS * 24 * 3600 }),
    });
    // The inactivity watch: its wakes are processed here; its warning e-mails go to notifications.
    const inactivity = new InactivityService({
      orm: core.orm, store: service.store, delivery, jobs: inactivityJobs, warnings: inactivityWarnings, keyMailSecret: config.KEY_MAIL_SECRET,
      onCheckIn: (em, ownerId, at, metadata) => trustees.closeIn(em, ownerId, 'check-in', at, metadata),
      // Its own sub-key of the key e-mail secret (notifications, which sends the links, holds it too).
      links: new OwnerLinkSigner({ namespace: 'access-keys/check-in', secret: config.KEY_MAIL_SECRET, secretName: 'KEY_MAIL_SECRET', purposes: [CHECK_IN_PURPOSE], ttlSeconds: CHECK_IN_LINK_DAYS * 24 * 3600 }),
    });
    const inactivityWorker = createWorker(Queues.InactivityTiming, async (data, job, token) => {
      const { outcome, next } = await inactivity.wake(data);
      // Woken before its time: this job waits again, under the id the timers derive.
      if (outcome === 'early' && next) await sleepUntil(job, token, next);
      return outcome;
    }, workerConnection, {
      autorun: false,
      onDeadLetter: (job, error, data) => logger.error({ ownerId: data?.ownerId, jobId: job.id, attempts: job.attemptsMade, err: error }, 'inactivity wake failed for good'),
    });
    inactivityWorker.on('error', (err) => logger.error({ err }, 'inactivity worker error'));
    /** A durable consumer of one of identity's events, handled inside its inbox transaction. */
    const fromIdentity = <E extends EventDeclaration>(name: string, declaration: E, handle: DurableConsumerOptions<E>['handle']) => new DurableConsumer({
      name, source: 'identity', events: [declaration], orm: core.orm, nats: core.nats, logger: logger.child({ component: name }), stackId, handle,
    });
    // Keeps the latest sign-in (greatest), so a redelivered or late event changes nothing.
    // A sign-in after a trustee's report closes it (one made before the report, delivered late, does not).
    const signIns = fromIdentity('access-keys-sign-ins', IdentityEvents.UserSignedIn, async (em, { data }) => {
      await inactivity.recordSignIn(em, data.userId, data.signedInAt);
      await trustees.closeIn(em, data.userId, 'sign-in', data.signedInAt, { actor: { kind: 'user', id: data.userId } });
    });
    // The inactivity warnings go to the account's current address; the same address again records nothing.
    const ownerEmails = fromIdentity('access-keys-owner-emails', IdentityEvents.EmailChanged, (em, { data }) => inactivity.followOwnerEmail(em, data.userId, data.email));
    // Milestone letters: letters asks for the recipient's key once a release has committed; we ask it back for whom.
    const letterKeys = new LetterKeysService({
      orm: core.orm, keys: service,
      releaseOf: (letterId, releaseId) => rpc.call(LettersRpc.milestoneRelease, { letter_id: letterId, release_id: releaseId }, { meta: { requestId: `milestone-${releaseId}` } }),
    });
    // Timed jobs live in Redis, their truth in PostgreSQL: re-derived at start and then periodically.
    const timers = new TimerRearm({
      orm: core.orm, store: service.store, deliveryJobs, inactivityJobs, reportNotices: trusteeReportNotices,
      // As a trustee's report names the owner in the contacts' key e-mails (identity unreachable: a plain phrase).
      sharedBy: async (ownerId) => (await ownerName(ownerId, { requestId: `timer-rearm-${ownerId}` }).catch(() => null)) || 'A Legacy Vault owner',
    });
    let rearmPass: Promise<void> = Promise.resolve();
    const rearm = () => (rearmPass = timers.rearm().then(
      (counts) => logger.info(counts, 'timed jobs re-derived'),
      (err: unknown) => logger.error({ err }, 'could not re-derive the timed jobs'),
    ));
    let rearmTimer: NodeJS.Timeout | undefined;
    // An erased account (identity, after its grace period): trustees removed, keys revoked, sessions ended,
    // delivery cancelled, watch off, then every personal-data key of the owner's streams destroyed (journaled).
    const accountErasure = new AccountErasure({ orm: core.orm, access: service, trustees, delivery, inactivity });
    const accountErasures = fromIdentity('access-keys-account-erasures', IdentityEvents.AccountErased, async (_em, { data }) => {
      const report = await accountErasure.run(data.userId);
      logger.info({ userId: data.userId, ...report }, report ? 'erased the account\'s keys, sessions, trustees and people' : 'the account was already erased');
    });
    // Before requests are taken and timers re-armed: trustees removed and accounts erased after a restored
    // snapshot are removed and erased again, their names and addresses gone.
    const erasures = new ErasureJournalKeeper({
      journal: new ErasureJournal(erasureJournalUrl(config, 'access-keys')), orm: core.orm, service: 'access-keys', sealings: [service.sealing.inner], logger,
      handlers: [{ streamType: TRUSTEE_ERASURE_TYPE, eraseAgain: (streamId) => trustees.eraseAgain(trusteeIdOfErasure(streamId), service.sealing) }, accountErasure.handler],
    });
    // A key's landing page: whose vault, from identity (the only thing access-keys asks it).
    const keyStatus = new KeyStatusService({ orm: core.orm, limits, redeemFailuresPerMinute: config.REDEEM_FAILURES_PER_MINUTE, ownerName });
    return {
      controllers: [AccessKeysController, IfImNotThereController, DeliveryReviewsController, InactivityController, TrusteesController, MilestonesController, KeyStatusController],
      providers: [
        { provide: AccessKeysService, useValue: service },
        { provide: IfImNotThereService, useValue: ifImNotThere },
        { provide: DeliveryService, useValue: delivery },
        { provide: DeliveryReviewsService, useValue: new DeliveryReviewsService({ orm: core.orm, store: service.store, delivery, ownerName }) },
        { provide: InactivityService, useValue: inactivity },
        { provide: TrusteesService, useValue: trustees },
        { provide: LetterKeysService, useValue: letterKeys },
        { provide: KeyStatusService, useValue: keyStatus },
        { provide: TimerRearm, useValue: timers },
        { provide: ErasureJournalKeeper, useValue: erasures },
      ],
      health: { redis: async () => void (await producer.ping()) },
      // Due deliveries are taken once the service is ready, and no new one after shutdown begins.
      consumers: [erasures, emailStatus, signIns, ownerEmails, accountErasures, {
        start: () => {
          void deliveryWorker.run().catch((err: unknown) => logger.error({ err }, 'delivery worker stopped'));
          void inactivityWorker.run().catch((err: unknown) => logger.error({ err }, 'inactivity worker stopped'));
          void rearm();
          rearmTimer = setInterval(() => void rearm(), config.TIMER_REARM_INTERVAL_SECONDS * 1000);
          rearmTimer.unref();
          return Promise.resolve();
        },
        stop: async () => {
          clearInterval(rearmTimer);
          await rearmPass;
          await Promise.all([deliveryWorker.close(), inactivityWorker.close()]);
        },
      }],
      close: async () => {
        await keyEmails.close();
        await requestNotices.close();
        await deliveryJobs.close();
        await trusteeNotices.close();
        await inactivityJobs.close();
        await inactivityWarnings.close();
        await trusteeLinks.close();
        await trusteeReportNotices.close();
        await rpc.close();
        producer.disconnect();
        workerConnection.disconnect();
      },
    };
  },
});
