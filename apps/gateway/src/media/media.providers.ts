import type { Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { ByteStreamProxy, byteStreamProxyProviders } from '../http/byte-stream-proxy.js';
import { MediaController, TimelineController } from './media.controller.js';
import { PLAYBACK_HEADERS, VAULT_MEDIA_HTTP } from './media.tokens.js';

/** The media and timeline area of the gateway (registered by GatewayModule). */
export const MEDIA_CONTROLLERS = [MediaController, TimelineController];

export function mediaProviders(config: GatewayConfig): Provider[] {
  const proxy = new ByteStreamProxy({
    baseUrl: config.VAULT_MEDIA_URL, service: 'vault-media', idleTimeoutMs: config.VAULT_MEDIA_IDLE_TIMEOUT_MS,
    bindingHeader: 'x-lv-media-binding', answerHeaders: PLAYBACK_HEADERS, ranges: true,
  });
  return byteStreamProxyProviders(VAULT_MEDIA_HTTP, proxy);
}
