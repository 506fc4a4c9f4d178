import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUDO_WINDOW_SECONDS } from '@lv/contracts';
import { requireRecentProof, type AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { CallContext } from '@lv/platform/nest';
import { tokenCookieOptions, tokenExpiresAt } from '../admin/admin-access.js';
import type { GatewayConfig } from '../config.js';
import { Public } from '../http/public.decorator.js';
import { Route } from '../http/route.js';
import { bearerToken, CallCtx, callContextOf, verifyAccessToken } from '../http/request-context.js';
import { ACCESS_TOKEN_VERIFIER, GATEWAY_CONFIG, ROOT_LOGGER } from '../infra/tokens.js';
import { VaultExportService } from './vault-export.service.js';

export const EXPORT_PATH = '/api/me/export';
export const EXPORT_COOKIE = 'lv_export';
/** Long enough to start the download the SPA asks for right after; the export itself may run longer. */
export const EXPORT_COOKIE_MAX_AGE_SECONDS = 120;

/**
 * "Export Vault Data". A browser saves a download it navigates to, which carries no Bearer header:
 * POST /api/me/export/session (Bearer) answers with a short-lived httpOnly cookie holding the same
 * access token, sent only to GET /api/me/export, which verifies it like a Bearer token and clears it.
 */
@ApiTags('me')
@Controller('me/export')
export class ExportController {
  constructor(
    private readonly exporter: VaultExportService,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  @Post('session')
  @ApiBearerAuth()
  @Route({
    status: 204,
    description: `Sets the httpOnly ${EXPORT_COOKIE} cookie (${EXPORT_COOKIE_MAX_AGE_SECONDS} s, path ${EXPORT_PATH}); then navigate to ${EXPORT_PATH}.`,
    errors: {
      401: 'No valid access token.',
      403: 'SUDO_REQUIRED: the session last proved who it is more than 10 minutes ago; confirm the password (POST /api/me/confirm-identity) and ask again.',
    },
  })
  async open(@CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    // Sudo mode: the whole vault leaves in one file, so the password must have been given recently.
    requireRecentProof(await verifyAccessToken(this.verifier, call.accessToken), SUDO_WINDOW_SECONDS);
    const expiresAt = tokenExpiresAt(call.accessToken!);
    if (!expiresAt) throw new DomainError('UNAUTHENTICATED');
    reply.setCookie(EXPORT_COOKIE, call.accessToken!, tokenCookieOptions(EXPORT_PATH, EXPORT_COOKIE_MAX_AGE_SECONDS, expiresAt, this.config.COOKIE_SECURE));
  }

  /** Public for the Bearer guard only: the token comes from the header or the export cookie, and is verified here. */
  @Public({ verifiesOwnToken: true })
  @Get()
  @ApiBearerAuth()
  @ApiProduces('application/zip')
  @Route({
    description: 'vault_export-<date>.zip: the originals, a text file per letter, the settings as JSON, manifest.json (every item with its SHA-256) and index.html (browses it offline).',
    errors: {
      401: 'No valid access token (header or export cookie).',
      403: 'FORBIDDEN: not an account of a person (an operator token); SUDO_REQUIRED: no recent proof of who he is.',
    },
  })
  async download(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = bearerToken(request.headers.authorization) ?? request.cookies?.[EXPORT_COOKIE];
    // The cookie was set by `open`, which checked the proof; it may be followed up to its lifetime later.
    const caller = requireRecentProof(await verifyAccessToken(this.verifier, token), SUDO_WINDOW_SECONDS, Date.now() - EXPORT_COOKIE_MAX_AGE_SECONDS * 1000);
    const call: CallContext = { accessToken: token, meta: callContextOf(request).meta };
    // Every list first: a service that cannot answer fails the request with its error, before any byte.
    const plan = await this.exporter.plan(call);
    const now = new Date();
    const zip = this.exporter.zip(plan, now);
    const body = zip.outputStream as Readable;
    zip.on('error', (error: Error) => {
      // The status line is gone already: cutting the connection is the only way to tell the browser
      // the download failed, rather than leave it with a ZIP that silently lacks a file.
      this.logger.warn({ err: error, requestId: request.id, userId: caller.userId }, 'vault export failed mid-way; connection cut');
      reply.raw.destroy(error);
    });
    request.raw.once('close', () => {
      if (!reply.raw.writableFinished) body.destroy();
    });
    reply
      .clearCookie(EXPORT_COOKIE, { path: EXPORT_PATH, httpOnly: true, sameSite: 'strict', secure: this.config.COOKIE_SECURE })
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="vault_export-${now.toISOString().slice(0, 10)}.zip"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }
}
