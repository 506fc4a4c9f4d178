import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { ServiceName } from '@lv/contracts';
import type { Logger } from '@lv/platform/logging';
import { ACCESS_CONTROLLERS, accessProviders } from './access/access.providers.js';
import { QueueSessionController } from './admin/queue-session.controller.js';
import { MetricsController } from './admin/metrics.controller.js';
import { AdminController } from './admin/admin.controller.js';
import { DeliveryReviewsController } from './admin/delivery-reviews.controller.js';
import { ExportController } from './export/export.controller.js';
import { VaultExportService } from './export/vault-export.service.js';
import { AuthController } from './auth/auth.controller.js';
import type { GatewayConfig } from './config.js';
import { CourtController } from './court/court.controller.js';
import { courtProviders } from './court/court.providers.js';
import { HealthController } from './health/health.controller.js';
import { HealthService } from './health/health.service.js';
import { OwnerStrategy, ViewerStrategy } from './auth/caller.strategies.js';
import { CallerGuard } from './http/caller.guard.js';
import { HttpErrorFilter } from './http/http-error.filter.js';
import { closeConnections, type GatewayConnections } from './infra/connections.js';
import { LettersController } from './letters/letters.controller.js';
import { MEDIA_CONTROLLERS, mediaProviders } from './media/media.providers.js';
import { ACCESS_TOKEN_VERIFIER, GATEWAY_CONFIG, NATS_PROBE, REDIS, ROOT_LOGGER, RPC_CLIENT, STATS_PROVIDERS, VIEWER_TOKEN_VERIFIER } from './infra/tokens.js';
import { MeController } from './me/me.controller.js';
import { PasskeysController } from './me/passkeys.controller.js';
import { AccountDeletionController, KeepAccountController } from './me/account-deletion.controller.js';
import { ReflectionController } from './vault/reflection.controller.js';
import { WhoIAmController } from './who-i-am/who-i-am.controller.js';
import { IfImNotThereController } from './if-im-not-there/if-im-not-there.controller.js';
import { TrusteeController } from './if-im-not-there/trustee.controller.js';
import { VaultStatsController } from './vault/vault-stats.controller.js';
import { VaultStatsService } from './vault/vault-stats.service.js';
import { ViewContentController } from './view/view-content.controller.js';
import { ViewController } from './view/view.controller.js';
import { ViewMediaController } from './view/view-media.controller.js';
import { viewMediaProviders } from './view/view-media.providers.js';
import { KeyStatusController } from './view/key-status.controller.js';
import { BillingController, FaqController } from './billing/billing.controller.js';
import { CommunityController, MusicPlaybackController } from './community/community.controller.js';

const CONNECTIONS = Symbol('CONNECTIONS');

/** Closes the gateway's clients when the app closes (SIGTERM through enableShutdownHooks, or app.close() in tests). */
@Injectable()
class ConnectionsCloser implements OnApplicationShutdown {
  constructor(
    @Inject(CONNECTIONS) private readonly connections: GatewayConnections,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.logger.info({ signal }, 'gateway shutting down: closing NATS and Redis connections');
    await closeConnections(this.connections);
  }
}

export interface GatewayModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  connections: GatewayConnections;
  /** Services asked for the vault home numbers (the contracts' VAULT_STATS_PROVIDERS). */
  statsProviders: readonly ServiceName[];
}

/**
 * The gateway: controllers per area (auth, me, vault, letters, media, timeline, court, access, view, health, admin), one global guard (every
 * handler needs an owner's access token, or a viewer token on @ViewerRoute() handlers, unless it is @Public) and one global error filter.
 */
@Module({})
export class GatewayModule {
  static register(options: GatewayModuleOptions): DynamicModule {
    const { config, logger, connections, statsProviders } = options;
    return {
      module: GatewayModule,
      controllers: [AuthController, MeController, PasskeysController, AccountDeletionController, KeepAccountController, VaultStatsController, ReflectionController, WhoIAmController, IfImNotThereController, TrusteeController, LettersController, ...MEDIA_CONTROLLERS, CourtController, HealthController, QueueSessionController, ...ACCESS_CONTROLLERS, ViewController, KeyStatusController, ViewMediaController, ViewContentController, MetricsController, BillingController, FaqController, AdminController, DeliveryReviewsController, ExportController, CommunityController, MusicPlaybackController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: CONNECTIONS, useValue: connections },
        { provide: RPC_CLIENT, useValue: connections.rpc },
        { provide: REDIS, useValue: connections.redis },
        { provide: ACCESS_TOKEN_VERIFIER, useValue: connections.verifier },
        { provide: VIEWER_TOKEN_VERIFIER, useValue: connections.viewerVerifier ?? null },
        { provide: NATS_PROBE, useValue: connections.nats },
        { provide: STATS_PROVIDERS, useValue: statsProviders },
        { provide: APP_GUARD, useClass: CallerGuard },
        OwnerStrategy,
        ViewerStrategy,
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        ConnectionsCloser,
        ...mediaProviders(config),
        ...courtProviders(config),
        ...viewMediaProviders(config),
        ...accessProviders,
        VaultStatsService,
        HealthService,
        VaultExportService,
      ],
    };
  }
}
