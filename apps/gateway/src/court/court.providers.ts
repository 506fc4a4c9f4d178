import type { Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { ByteStreamProxy, byteStreamProxyProviders } from '../http/byte-stream-proxy.js';
import { COURT_BINDING_HEADER, COURT_FILE_HEADERS, COURT_JOURNAL_HTTP } from './court.tokens.js';

export function courtProviders(config: GatewayConfig): Provider[] {
  const proxy = new ByteStreamProxy({
    baseUrl: config.COURT_JOURNAL_URL, service: 'court-journal', idleTimeoutMs: config.COURT_JOURNAL_IDLE_TIMEOUT_MS,
    bindingHeader: COURT_BINDING_HEADER, answerHeaders: COURT_FILE_HEADERS, ranges: false,
  });
  return byteStreamProxyProviders(COURT_JOURNAL_HTTP, proxy);
}
