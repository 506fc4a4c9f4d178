import type { Provider } from '@nestjs/common';
import { VIEW_TOKEN_HEADER } from '@lv/contracts';
import type { GatewayConfig } from '../config.js';
import { COURT_FILE_HEADERS } from '../court/court.tokens.js';
import { ByteStreamProxy, byteStreamProxyProviders } from '../http/byte-stream-proxy.js';
import { PLAYBACK_HEADERS } from '../media/media.tokens.js';

/** The gateway's clients of the byte listeners for viewers: the lv_view cookie's token travels as x-lv-view-token (never an owner binding). */
export const VIEW_MEDIA_HTTP = Symbol('VIEW_MEDIA_HTTP');
export const VIEW_DOCUMENTS_HTTP = Symbol('VIEW_DOCUMENTS_HTTP');

export function viewMediaProviders(config: GatewayConfig): Provider[] {
  return [
    ...byteStreamProxyProviders(VIEW_MEDIA_HTTP, new ByteStreamProxy({
      baseUrl: config.VAULT_MEDIA_URL, service: 'vault-media', idleTimeoutMs: config.VAULT_MEDIA_IDLE_TIMEOUT_MS,
      bindingHeader: VIEW_TOKEN_HEADER, answerHeaders: PLAYBACK_HEADERS, ranges: true,
    })),
    ...byteStreamProxyProviders(VIEW_DOCUMENTS_HTTP, new ByteStreamProxy({
      baseUrl: config.COURT_JOURNAL_URL, service: 'court-journal', idleTimeoutMs: config.COURT_JOURNAL_IDLE_TIMEOUT_MS,
      bindingHeader: VIEW_TOKEN_HEADER, answerHeaders: COURT_FILE_HEADERS, ranges: false,
    })),
  ];
}
