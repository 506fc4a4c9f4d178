import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { ErrorCodes, errorCodeForStatus, type ErrorBody, type ErrorCode } from '@lv/contracts';
import { toErrorBody } from '@lv/platform/errors';

/** How any failure is answered over HTTP: the status, the ErrorBody, extra headers, and whether it is a fault to log. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True for failures on our side (unexpected errors, 5xx other than "unavailable"): log them with their id. */
  fault: boolean;
}

function internal(newErrorId: () => string): ErrorResponse {
  return { status: 500, body: { code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId: newErrorId() }, headers: {}, fault: true };
}

/**
 * Maps whatever a handler (or Fastify, or Nest) threw to the one error shape of the API:
 * - a DomainError, or an ErrorBody that came back over RPC: its code's status and text, with
 *   per-field messages, `Retry-After` for RATE_LIMITED and SERVICE_UNAVAILABLE (when the service gave one), and the service's errorId for INTERNAL;
 * - a Nest/Fastify HttpException (unknown route, malformed JSON, body too large...): the code
 *   matching its status, with the registry's text (never framework wording such as "Cannot GET");
 * - anything else: 500 INTERNAL with a fresh errorId, and no stack or message of the original.
 */
export function toErrorResponse(exception: unknown, newErrorId: () => string = randomUUID): ErrorResponse {
  const domain = toErrorBody(exception);
  if (domain) {
    const { code } = domain;
    const body: ErrorBody = { code, message: typeof domain.message === 'string' && domain.message ? domain.message : ErrorCodes[code].message };
    if (domain.fields && typeof domain.fields === 'object') body.fields = { ...domain.fields };
    const headers: Record<string, string> = {};
    if (code === 'RATE_LIMITED' || code === 'SERVICE_UNAVAILABLE') {
      const retryAfter = Number(domain.retryAfter);
      if (Number.isFinite(retryAfter) && retryAfter > 0) {
        body.retryAfter = Math.ceil(retryAfter);
        headers['retry-after'] = String(body.retryAfter);
      }
    }
    if (code === 'INTERNAL') body.errorId = typeof domain.errorId === 'string' && domain.errorId ? domain.errorId : newErrorId();
    return { status: ErrorCodes[code].status, body, headers, fault: code === 'INTERNAL' };
  }
  const status = exception instanceof HttpException ? exception.getStatus() : clientErrorStatus(exception);
  if (status === undefined || (status >= 500 && status !== 503)) return internal(newErrorId);
  // Other 4xx statuses (405, 406, 414, 431...) keep their status: the request was refused as sent.
  const code: ErrorCode = errorCodeForStatus(status) ?? (status >= 500 ? 'SERVICE_UNAVAILABLE' : 'VALIDATION_FAILED');
  return { status, body: { code, message: ErrorCodes[code].message }, headers: {}, fault: false };
}

/** The 4xx status of a Fastify error or an http-errors error (`statusCode`), if it is one. */
function clientErrorStatus(exception: unknown): number | undefined {
  if (!(exception instanceof Error)) return undefined;
  const status = (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

/** Where an error response is logged: the request's logger (which carries the request id). */
export interface ErrorLog {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
  debug(object: object, message: string): void;
}

/** Logs a failure at the level it deserves: faults with their stack and errorId, outages as warnings, refusals at debug. */
export function logErrorResponse(log: ErrorLog, exception: unknown, response: ErrorResponse): void {
  if (response.fault) {
    log.error({ err: exception, errorId: response.body.errorId }, `request failed: ${response.body.code} (errorId ${response.body.errorId})`);
  } else if (response.status === 503) {
    log.warn({ code: response.body.code }, 'a service the request needed is unavailable');
  } else {
    log.debug({ code: response.body.code, status: response.status }, 'request refused');
  }
}

/** The minimal reply surface needed to send an ErrorBody (a FastifyReply). */
export interface ErrorReply {
  readonly sent: boolean;
  status(code: number): ErrorReply;
  headers(values: Record<string, string>): ErrorReply;
  type(contentType: string): ErrorReply;
  send(body: unknown): unknown;
}

/** Maps, logs and sends a failure as the API's ErrorBody JSON. */
export function sendErrorResponse(reply: ErrorReply, log: ErrorLog, exception: unknown): void {
  const response = toErrorResponse(exception);
  logErrorResponse(log, exception, response);
  if (reply.sent) return;
  reply
    .status(response.status)
    .headers({ ...response.headers, 'cache-control': 'no-store' })
    .type('application/json; charset=utf-8')
    .send(response.body);
}
