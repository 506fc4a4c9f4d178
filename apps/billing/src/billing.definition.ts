import { IdentityEvents } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import { defineService } from '@lv/platform/nest';
import { BillingController } from './billing.controller.js';
import { BillingService } from './billing.service.js';
import { billingConfigSchema, paymentProviderOf } from './config.js';
import { billingMigrations } from './migrations.js';
import { PgLocalSessionStore } from './providers/local-sessions.js';
import { httpWebhookDelivery, LocalProvider, StripeProvider, type WebhookDelivery } from './providers/payment-provider.js';

export interface BillingSetupOptions {
  /** Replaces the local provider's HTTP delivery (integration specs deliver straight to the service). */
  deliverWebhook?: WebhookDelivery;
}

/**
 * billing: plans, the owner's subscription through a payment provider's hosted checkout and its
 * signed webhooks, and the FAQ. identity follows its events to set each profile's tier.
 */
export function billingServiceWith(options: BillingSetupOptions = {}) {
  return defineService({
    name: 'billing',
    configSchema: billingConfigSchema,
    migrations: billingMigrations,
    setup: ({ config, core, logger }) => {
      const sessions = new PgLocalSessionStore(core.orm);
      const local = paymentProviderOf(config) === 'stripe'
        ? null
        : new LocalProvider({
          webhookSecret: config.LOCAL_WEBHOOK_SECRET!,
          publicUrl: config.PUBLIC_URL,
          sessions,
          deliver: options.deliverWebhook ?? httpWebhookDelivery(config.BILLING_WEBHOOK_URL ?? new URL('/api/billing/webhook', config.PUBLIC_URL).toString()),
        });
      const provider = local ?? new StripeProvider(config.STRIPE_SECRET_KEY!, config.STRIPE_WEBHOOK_SECRET!);
      logger.info({ provider: provider.name }, 'payment provider');
      const service = new BillingService({ orm: core.orm, provider, local: local ? { provider: local, sessions } : null, publicUrl: config.PUBLIC_URL, logger });
      // An erased account (identity, after its grace period): its subscription is cancelled at the provider.
      const accountErasures = new DurableConsumer({
        name: 'billing-account-erasures', source: 'identity', events: [IdentityEvents.AccountErased], orm: core.orm, nats: core.nats,
        logger: logger.child({ component: 'account-erasures' }), stackId: process.env.STACK_ID,
        handle: async (_em, { eventId, data }) => {
          logger.info({ userId: data.userId, cancelled: await service.cancelForErasedAccount(data.userId, eventId) }, 'an erased account\'s subscription');
        },
      });
      return { controllers: [BillingController], providers: [{ provide: BillingService, useValue: service }], consumers: [accountErasures] };
    },
  });
}

export const billingService = billingServiceWith();
