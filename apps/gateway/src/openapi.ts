import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { REFRESH_COOKIE } from '@lv/contracts';
import { HealthCheckDto } from './http/api-models.js';

export const OPENAPI_JSON_PATH = '/api/openapi.json';
export const OPENAPI_DOCS_PATH = '/api/docs';

/** The gateway's OpenAPI document, from the controllers' decorators (also used to write the committed copy). */
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
  return SwaggerModule.createDocument(app, config, { extraModels: [HealthCheckDto] });
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
