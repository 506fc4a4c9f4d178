import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@lv/platform/logging';
import { ROOT_LOGGER } from '../infra/tokens.js';
import { sendErrorResponse } from './error-response.js';

/**
 * The gateway's one HTTP exception filter (registered globally, so Nest's not-found and Fastify's
 * error handler go through it too): every failure leaves as an ErrorBody JSON with the status of its
 * code. Unexpected errors are logged with their stack and an errorId; the client only gets the id.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest | undefined>();
    sendErrorResponse(reply, request?.log ?? this.logger, exception);
  }
}
