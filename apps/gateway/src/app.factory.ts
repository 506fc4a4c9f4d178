import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { VAULT_STATS_PROVIDERS, type ServiceName } from '@lv/contracts';
import { createLogger, type Logger } from '@lv/platform/logging';
import { GatewayModule } from './app.module.js';
import type { GatewayConfig } from './config.js';
import { registerCrossSiteGuard } from './http/cross-site.guard.js';
import { sendErrorResponse } from './http/error-response.js';
import { answerClientError, answerFrameworkError } from './http/framework-errors.js';
import { PinoNestLogger } from './http/pino-nest-logger.js';
import { REQUEST_ID_HEADER, requestIdFor } from './http/request-id.js';
import { registerRequestTracing } from './http/request-tracing.js';
import { registerByteStreamBodyParsers } from './http/byte-stream-proxy.js';
import { registerBillingWebhook } from './billing/billing-webhook.route.js';
import { COURT_BODY_TYPES } from './court/court.tokens.js';
import { MEDIA_BODY_TYPES, RESUMABLE_BODY_TYPE } from './media/media.tokens.js';
import { closeConnections, openConnections, type GatewayConnections } from './infra/connections.js';
import { setupOpenApi } from './openapi.js';
import { registerSpa } from './spa/spa.js';
import { isApiPath, isBuildScriptOrStyle, themeInitHash } from './spa/spa-files.js';

export interface CreateGatewayOptions {
  /** Defaults to a pino logger named "gateway" at LOG_LEVEL. */
  logger?: Logger;
  /** Services asked for the vault home numbers; defaults to the contracts' VAULT_STATS_PROVIDERS. */
  statsProviders?: readonly ServiceName[];
  /**
   * Registers more Fastify plugins before the app is initialised (main.ts mounts the queue dashboard
   * here; tests mount stand-ins). Gets a Fastify scope whose errors are answered as ErrorBody, and
   * the gateway's connections.
   */
  extend?: (fastify: FastifyInstance, context: { config: GatewayConfig; logger: Logger; connections: GatewayConnections }) => Promise<void>;
}

/** Fastify names the request id `reqId` in its child loggers; the whole system calls it `requestId`. */
const requestIdChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, childOptions) {
  const { reqId, ...rest } = bindings as { reqId?: unknown };
  return logger.child({ ...rest, requestId: reqId }, childOptions);
};

/**
 * Content-Security-Policy for the SPA: scripts only from the gateway itself, plus the built
 * theme-init.js inline by its hash (the prerendered pages carry it inline); inline styles allowed
 * (Tailwind and Radix set style attributes); images and media also from blob: and data: (recordings
 * preview from blobs; playback streams through /api/media/play); nothing may frame the vault.
 */
function contentSecurityPolicy(config: GatewayConfig) {
  const themeInit = themeInitHash(config.WEB_DIST_DIR);
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: themeInit ? ["'self'", themeInit] : ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'blob:', 'data:'],
      mediaSrc: ["'self'", 'blob:', 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // Only behind TLS: on http://127.0.0.1 it would send the browser to an https:// that is not there.
      upgradeInsecureRequests: config.COOKIE_SECURE ? [] : null,
    },
  };
}

/**
 * Builds the whole gateway, initialised but not listening: security headers, cookies, request ids,
 * the API under /api (guarded by default), OpenAPI at /api/openapi.json and /api/docs, and the SPA
 * with deep-link fallback. main.ts adds the queue dashboard and listens; tests use `inject()`.
 */
export async function createGatewayApp(config: GatewayConfig, options: CreateGatewayOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const connections = await openConnections(config, logger);
  try {
    const adapter = new FastifyAdapter({
      loggerInstance: logger,
      genReqId: requestIdFor,
      // Every log line of a request carries `requestId` (the same id the services log from the RPC meta).
      childLoggerFactory: requestIdChildLogger,
      // A hop count is valid at run time (Fastify passes it to proxy-addr) though its types omit it.
      trustProxy: config.TRUST_PROXY as boolean | string[],
      return503OnClosing: true,
      // A slow client cannot hold a connection: headers, idle gaps and whole requests are bounded.
      // Node checks the headers and request deadlines every connectionsCheckingInterval.
      http: { headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS, connectionsCheckingInterval: Math.min(1000, config.HTTP_HEADERS_TIMEOUT_MS) },
      connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      // Refusals made before any route runs answer in the API's {code, message} shape too.
      frameworkErrors: answerFrameworkError,
      clientErrorHandler: answerClientError,
    });
    const app = await NestFactory.create<NestFastifyApplication>(
      GatewayModule.register({ config, logger, connections, statsProviders: options.statsProviders ?? VAULT_STATS_PROVIDERS }),
      adapter,
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
    app.setGlobalPrefix('api');

    const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
    registerRequestTracing(fastify);
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      // API answers are personal: never stored by a browser or a proxy.
      if (isApiPath(request.url.split('?', 1)[0] ?? '')) reply.header('cache-control', 'no-store');
      done();
    });
    // Right after the request id: a cross-site or non-JSON request is refused before anything reads it.
    registerCrossSiteGuard(fastify, { extraOrigins: config.APP_ORIGINS, secure: config.COOKIE_SECURE });
    // Security headers on every answer. helmet's middleware is built once here: @fastify/helmet built
    // it again for every request (about 5% of the gateway's CPU on GET /api/me, issue 10).
    const securityHeaders = helmet({
      contentSecurityPolicy: contentSecurityPolicy(config),
      crossOriginEmbedderPolicy: false,
      // HSTS only means something over TLS.
      strictTransportSecurity: config.COOKIE_SECURE ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    fastify.addHook('onRequest', (request, reply, done) => {
      if (isBuildScriptOrStyle(request.url)) {
        // A page loads 20-30 of these: the document's headers (about 700 bytes each) are left off
        // (issue 10, first load: they are not compressed over HTTP/1.1); these two apply to them.
        reply.header('x-content-type-options', 'nosniff');
        reply.header('cross-origin-resource-policy', 'same-origin');
      } else {
        // helmet 8 throws instead of passing an error on; it sets headers only, so nothing is awaited.
        securityHeaders(request.raw, reply.raw, () => undefined);
      }
      done();
    });
    await fastify.register(fastifyCookie);
    // Upload bodies (recordings to vault-media, court documents to court-journal) stream through unparsed.
    registerByteStreamBodyParsers(fastify, [...MEDIA_BODY_TYPES, RESUMABLE_BODY_TYPE, ...COURT_BODY_TYPES]);
    // The payment provider's webhook reads its body unparsed (the signature covers the exact bytes).
    await registerBillingWebhook(fastify, connections.rpc);

    setupOpenApi(app);
    if (!existsSync(join(config.WEB_DIST_DIR, 'index.html'))) logger.warn({ WEB_DIST_DIR: config.WEB_DIST_DIR }, 'WEB_DIST_DIR has no index.html: build the SPA (apps/web) to serve it');
    await registerSpa(fastify, config.WEB_DIST_DIR);
    const { extend } = options;
    if (extend) {
      // Plugins registered now load before Nest installs its error handler on the root, so their
      // scope gets the same ErrorBody handler explicitly (no framework message ever leaks).
      await fastify.register(async (scope) => {
        scope.setErrorHandler((error, request, reply) => sendErrorResponse(reply, request.log, error));
        await extend(scope, { config, logger, connections });
      });
    }

    await app.init();
    return app;
  } catch (error) {
    await closeConnections(connections);
    throw error;
  }
}
