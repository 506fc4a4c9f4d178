import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const PUBLIC_ROUTE = 'lv:public-route';
/** Marks a public operation in the OpenAPI document; buildOpenApiDocument turns it into `security: []`. */
export const OPENAPI_PUBLIC_EXTENSION = 'x-lv-public';

/**
 * Opens one handler (or a whole controller) to callers without an access token. Every other handler
 * is guarded by CallerGuard: making something public is a deliberate, visible decision, in the OpenAPI
 * document too (no security requirement, even inside a controller documented as bearer-only).
 * `verifiesOwnToken`: not open to anyone, only past CallerGuard, because the handler checks a credential
 * of its own (the refresh cookie, the export cookie): its documented security stays.
 */
export const Public = (options: { verifiesOwnToken?: boolean } = {}) =>
  options.verifiesOwnToken ? SetMetadata(PUBLIC_ROUTE, true) : applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiExtension(OPENAPI_PUBLIC_EXTENSION, true));
