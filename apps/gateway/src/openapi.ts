import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { pino } from 'pino';
import { REFRESH_COOKIE } from '@lv/contracts';
import type { RpcClient } from '@lv/platform/nest';
import { GatewayModule } from './app.module.js';
import type { GatewayConfig } from './config.js';
import { namedApiSchema } from './http/api-schemas.js';
import { OPENAPI_PUBLIC_EXTENSION } from './http/public.decorator.js';
import type { GatewayConnections } from './infra/connections.js';

export const OPENAPI_JSON_PATH = '/api/openapi.json';
export const OPENAPI_DOCS_PATH = '/api/docs';
/** The committed copy, next to the gateway's package.json; `npm run openapi` rewrites it. */
export const OPENAPI_FILE = 'apps/gateway/openapi.json';

/** Components no route refers to that the document still offers (the SPA's client names the health check by it). */
const EXTRA_COMPONENTS = ['HealthCheckDto'];

/** Every component name a `$ref` in the document points at. */
function referencedComponents(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedComponents(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(value.replace('#/components/schemas/', ''));
      else referencedComponents(value, found);
    }
  }
  return found;
}

/**
 * The gateway's OpenAPI document: paths, parameters and security from the controllers; bodies, replies
 * and statuses from each route's declaration (http/route.ts), whose contracts zod schemas become the
 * components under the names http/api-schemas.ts gives them.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Legacy Vault API')
    .setDescription(
      'The gateway (BFF) the SPA talks to. Every endpoint needs `Authorization: Bearer <access token>` unless marked otherwise; ' +
        'errors are always an ErrorBody JSON with the status of their code.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addCookieAuth(REFRESH_COOKIE, { type: 'apiKey', in: 'cookie', name: REFRESH_COOKIE }, 'refresh-cookie')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  markPublicOperations(document);
  const schemas: Record<string, unknown> = {};
  for (const name of [...referencedComponents(document.paths), ...EXTRA_COMPONENTS]) {
    const schema = namedApiSchema(name);
    if (!schema) throw new Error(`The document refers to ${name}, which no schema is named in http/api-schemas.ts.`);
    schemas[name] = schema;
  }
  // Sorted, so the committed copy only changes where the API does.
  document.components = { ...document.components, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) as never };
  return document;
}

/**
 * A @Public() handler needs no token: its operation says so with an empty security list, which also
 * overrides the bearer requirement of its controller (the public check-in inside the inactivity routes).
 */
function markPublicOperations(document: OpenAPIObject): void {
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods as Record<string, Record<string, unknown>>)) {
      if (typeof operation !== 'object' || !operation || !(OPENAPI_PUBLIC_EXTENSION in operation)) continue;
      delete operation[OPENAPI_PUBLIC_EXTENSION];
      operation.security = [];
    }
  }
}

/**
 * The document without a running gateway: the real module and controllers, with connections that
 * are never used (a document reads only the routes' metadata). The drift spec and `npm run openapi`
 * both use it.
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const unused = { close: () => Promise.resolve(), quit: () => Promise.resolve('OK'), disconnect: () => undefined };
  const connections = { rpc: unused as unknown as RpcClient, redis: unused, verifier: unused, nats: unused, storage: unused } as unknown as GatewayConnections;
  const config = { VAULT_MEDIA_URL: 'http://127.0.0.1:9', COURT_JOURNAL_URL: 'http://127.0.0.1:9', RPC_TIMEOUT_MS: 1000, COOKIE_SECURE: false } as GatewayConfig;
  const app = await NestFactory.create(
    GatewayModule.register({ config, logger: pino({ enabled: false }), connections, statsProviders: [] }),
    new FastifyAdapter(),
    { logger: false, abortOnError: false },
  );
  try {
    app.setGlobalPrefix('api');
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** The committed file's text: stable key order from the generator, two-space indent, final newline. */
export function openApiFileText(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** JSON at /api/openapi.json, browsable docs at /api/docs. Both public: the document holds no secret. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    useGlobalPrefix: true,
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Legacy Vault API',
  });
}
