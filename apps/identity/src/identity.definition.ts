import { setTimeout as sleep } from 'node:timers/promises';
import { AccessTokenSigner, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { BillingEvents, Queues } from '@lv/contracts';
import { DurableConsumer, ErasureJournal, ErasureJournalKeeper, erasureJournalUrl } from '@lv/platform/event-store';
import { createQueue, createRedisConnection, enqueue } from '@lv/platform/queues';
import { accountErasureJobId } from './account-deletion/account-deletion.js';
import { accountErasureRunner } from './account-deletion/account-erasure.runner.js';
import { deletePublishedWords } from './account-deletion/published-words.js';
import { defineService } from '@lv/platform/nest';
import { identityConfigSchema } from './config.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { IdentityController } from './identity.controller.js';
import { IdentityService } from './identity.service.js';
import { identityMigrations } from './migrations.js';

/** identity: accounts, sessions, profiles. The only service holding the private key: it mints access tokens. */
export const identityService = defineService({
  name: 'identity',
  configSchema: identityConfigSchema,
  migrations: identityMigrations,
  async setup({ config, core, logger }) {
    // Revocations are written to last as long as the longest access token they cut short.
    const revokedSessions = new RevokedSessions(core.redis, Math.max(3600, config.ACCESS_TOKEN_TTL_SECONDS));
    // Account e-mails (reset links, password changed) go to notifications' worker through BullMQ.
    const producer = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'identity' });
    const accountEmails = createQueue(Queues.AccountEmails, producer);
    const accountErasures = createQueue(Queues.AccountErasure, producer);
    const service = new IdentityService({
      orm: core.orm,
      signer: new AccessTokenSigner(await readPem(config.JWT_PRIVATE_KEY)),
      revokedSessions,
      limiter: new SignInLimiter(core.redis, {
        maxFailuresPerAccountAddress: config.SIGNIN_MAX_FAILURES_PER_ACCOUNT_ADDRESS,
        maxFailuresPerAddress: config.SIGNIN_MAX_FAILURES_PER_ADDRESS,
        maxFailuresPerAccount: config.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
        maxFailuresPerDevice: config.SIGNIN_MAX_FAILURES_PER_DEVICE,
        windowSeconds: config.SIGNIN_WINDOW_SECONDS,
        maxSignUpsPerAddress: config.SIGNUP_MAX_PER_ADDRESS,
        signUpWindowSeconds: config.SIGNUP_WINDOW_SECONDS,
        maxResetsPerEmail: config.PASSWORD_RESETS_PER_EMAIL,
        maxResetsPerAddress: config.PASSWORD_RESETS_PER_ADDRESS,
        resetWindowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      }, process.env.STACK_ID ? `lv:${process.env.STACK_ID}:signin` : 'lv:signin'),
      accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
      refreshReuseGraceMs: config.REFRESH_REUSE_GRACE_MS,
      sendAccountEmail: (job) => enqueue(accountEmails, job, `account-email-${job.emailId}`),
      keyMailSecret: config.KEY_MAIL_SECRET,
      passwordResetTtlSeconds: config.PASSWORD_RESET_TTL_SECONDS,
      emailChangeTtlSeconds: config.EMAIL_CHANGE_TTL_SECONDS,
      emailChangeUndoTtlSeconds: config.EMAIL_CHANGE_UNDO_TTL_SECONDS,
      emailVerifyTtlSeconds: config.EMAIL_VERIFY_TTL_SECONDS,
      accountDeletion: {
        graceSeconds: config.ACCOUNT_DELETION_GRACE_SECONDS,
        schedule: (job) => enqueue(accountErasures, job, accountErasureJobId(job.deletionId), { delay: Math.max(0, Date.parse(job.dueAt) - Date.now()) }),
        deletePublishedWords: (userId) => deletePublishedWords(core.nats, userId, process.env.STACK_ID),
      },
      logger: logger.child({ component: 'account-recovery' }),
      publicUrl: config.PUBLIC_URL,
    });
    // billing's stream is billing's own: the consumer waits for it when billing has not started yet.
    const billingTiers = new DurableConsumer({
      name: 'identity-billing-tiers',
      source: 'billing',
      events: [BillingEvents.SubscriptionActivated, BillingEvents.SubscriptionRenewed, BillingEvents.CancelRequested, BillingEvents.SubscriptionEnded],
      orm: core.orm,
      nats: core.nats,
      logger: logger.child({ component: 'billing-tiers' }),
      stackId: process.env.STACK_ID,
      // Every one of these events carries the tier it leaves the owner on (one without is parked, never applied).
      handle: async (_em, event) => {
        const { ownerId, tier } = event.data;
        const outcome = await service.applyBillingTier(ownerId, tier, event.eventId);
        if (outcome === 'unknown-user') logger.warn({ ownerId, eventId: event.eventId }, 'billing event for an owner identity does not know: skipped');
      },
    });
    // Sign-in never waits for billing: the consumer attaches in the background, retrying until it can.
    const stopping = new AbortController();
    let attaching: Promise<void> = Promise.resolve();
    const attach = async () => {
      for (let delayMs = 1000; !stopping.signal.aborted; delayMs = Math.min(delayMs * 2, 30_000)) {
        try {
          await billingTiers.start();
          return;
        } catch (err) {
          logger.warn({ err, retryInMs: delayMs }, "cannot attach to billing's stream yet");
          await sleep(delayMs, undefined, { signal: stopping.signal }).catch(() => undefined);
        }
      }
    };
    // Before requests are taken: accounts erased after a restored snapshot are erased again (identity has no sealed streams: the handler does it all).
    const erasures = new ErasureJournalKeeper({
      journal: new ErasureJournal(erasureJournalUrl(config, 'identity')), orm: core.orm, service: 'identity',
      sealings: [], handlers: [service.accountDeletion.erasureHandler], logger,
    });
    const erasureTimers = accountErasureRunner(config, service.accountDeletion, logger);
    return {
      controllers: [IdentityController],
      providers: [{ provide: IdentityService, useValue: service }, { provide: ErasureJournalKeeper, useValue: erasures }],
      consumers: [erasures, erasureTimers, {
        start: () => {
          attaching = attach();
          return Promise.resolve();
        },
        stop: async () => {
          stopping.abort();
          await attaching;
          await billingTiers.stop();
          await service.passwords.settle();
        },
      }],
      close: async () => {
        await accountEmails.close();
        await accountErasures.close();
        erasureTimers.disconnect();
        producer.disconnect();
      },
    };
  },
});
