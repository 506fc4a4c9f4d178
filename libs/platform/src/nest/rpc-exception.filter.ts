import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';
import { ErrorCodes, type ErrorBody } from '@lv/contracts';
import { isTransientDatabaseError } from '../database/transient-errors.js';
import { DomainError } from '../errors/index.js';
import { recordRefusedRpc } from './rpc-observation.js';

/**
 * Turns whatever a handler threw into an ErrorBody for the caller: domain errors keep their code and
 * message; a busy or unreachable database is SERVICE_UNAVAILABLE (try again); anything else is logged
 * with an error id and answered as INTERNAL, never with a stack.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    recordRefusedRpc(host as never, exception);
    let body: ErrorBody;
    if (exception instanceof DomainError) body = exception.toBody();
    else if (exception instanceof RpcException && typeof exception.getError() === 'object') body = exception.getError() as ErrorBody;
    else if (isTransientDatabaseError(exception)) {
      // A busy or restarting database: the caller may try again; nothing about the request was wrong.
      this.logger.warn(`Database unavailable: ${(exception as Error).message}`);
      body = { code: 'SERVICE_UNAVAILABLE', message: ErrorCodes.SERVICE_UNAVAILABLE.message, retryAfter: 1 };
    } else {
      const errorId = randomUUID();
      this.logger.error(`Unhandled error ${errorId}: ${(exception as Error)?.stack ?? String(exception)}`);
      body = { code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId };
    }
    return throwError(() => body);
  }
}
