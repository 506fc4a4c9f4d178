import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { MediaController, TimelineController } from './media.controller.js';
import { VaultMediaHttp } from './media-proxy.js';
import { VAULT_MEDIA_HTTP } from './media.tokens.js';

@Injectable()
class VaultMediaHttpCloser implements OnApplicationShutdown {
  constructor(@Inject(VAULT_MEDIA_HTTP) private readonly http: VaultMediaHttp) {}

  onApplicationShutdown(): void {
    this.http.close();
  }
}

/** The media and timeline area of the gateway (registered by GatewayModule). */
export const MEDIA_CONTROLLERS = [MediaController, TimelineController];

export function mediaProviders(config: GatewayConfig): Provider[] {
  return [{ provide: VAULT_MEDIA_HTTP, useValue: new VaultMediaHttp(config.VAULT_MEDIA_URL, config.VAULT_MEDIA_IDLE_TIMEOUT_MS) }, VaultMediaHttpCloser];
}
