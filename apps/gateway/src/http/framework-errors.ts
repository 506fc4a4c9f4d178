import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes, type ErrorBody, type ErrorCode } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { sendErrorResponse } from './error-response.js';

// Two kinds of refusal never reach Nest's exception filter or a route's error handler: an address the
// router cannot decode, and requests Node's HTTP parser rejects before Fastify sees them (headers too
// large, too slow, malformed). Both would answer in Fastify's own shape ({"error","message","statusCode"});
// here they answer like every other refusal of the API: {code, message}.

/** Fastify's `frameworkErrors`: a path that is not valid percent-encoding (%ED%A0%80, %ZZ) is 400 BAD_ADDRESS. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal = error.code === 'FST_ERR_BAD_URL' ? new DomainError('BAD_ADDRESS') : error;
  sendErrorResponse(reply, request.log, refusal);
}

/** The answer to a request Node's parser refused: its status and body, by the parser's error code. */
export function clientErrorAnswer(parserCode: string | undefined): { status: number; body: ErrorBody } {
  const code: ErrorCode = parserCode === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : parserCode === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'VALIDATION_FAILED';
  return { status: ErrorCodes[code].status, body: { code, message: ErrorCodes[code].message } };
}

/**
 * Fastify's `clientErrorHandler`: writes the refusal straight to the socket (there is no request or
 * reply yet) and closes it, as Fastify's default does, but in the API's shape.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset leaves nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = clientErrorAnswer(error.code);
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
