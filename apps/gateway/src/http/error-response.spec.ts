import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException, ServiceUnavailableException } from '@nestjs/common';
import { ErrorCodes, type ErrorCode } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import { toErrorResponse } from './error-response.js';
import { HttpErrorFilter } from './http-error.filter.js';

const fixedId = () => 'err-1';

describe('toErrorResponse', () => {
  it.each(Object.keys(ErrorCodes) as ErrorCode[])('answers %s with its registry status and text', (code) => {
    const response = toErrorResponse(new DomainError(code), fixedId);
    expect(response.status).toBe(ErrorCodes[code].status);
    expect(response.body.code).toBe(code);
    expect(response.body.message).toBe(ErrorCodes[code].message);
  });

  it('keeps per-field messages of VALIDATION_FAILED', () => {
    const response = toErrorResponse(validationError({ email: 'Email is required' }), fixedId);
    expect(response).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', fields: { email: 'Email is required' } }, fault: false });
  });

  it('turns RATE_LIMITED retryAfter into a Retry-After header', () => {
    const response = toErrorResponse(new DomainError('RATE_LIMITED', undefined, { retryAfter: 42.2 }), fixedId);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('43');
    expect(response.body.retryAfter).toBe(43);
  });

  it('passes on the retryAfter a busy service gave with SERVICE_UNAVAILABLE, and adds none when it gave none', () => {
    const busy = toErrorResponse({ code: 'SERVICE_UNAVAILABLE', message: ErrorCodes.SERVICE_UNAVAILABLE.message, retryAfter: 1 }, fixedId);
    expect(busy).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { code: 'SERVICE_UNAVAILABLE', retryAfter: 1 }, fault: false });
    expect(toErrorResponse(new DomainError('SERVICE_UNAVAILABLE'), fixedId).headers).toEqual({});
  });

  it('maps an ErrorBody that came back over RPC like a DomainError, dropping anything extra', () => {
    const response = toErrorResponse({ code: 'EMAIL_TAKEN', message: 'An account with this email already exists. Try logging in instead.', stack: 'secret', sql: 'select' }, fixedId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: 'EMAIL_TAKEN', message: 'An account with this email already exists. Try logging in instead.' });
  });

  it("keeps a service's INTERNAL errorId so support can find the service's log line", () => {
    const response = toErrorResponse({ code: 'INTERNAL', message: 'Something went wrong on our side.', errorId: 'svc-9' }, fixedId);
    expect(response).toMatchObject({ status: 500, body: { errorId: 'svc-9' }, fault: true });
  });

  it('answers an unexpected error with 500 INTERNAL, a fresh errorId and nothing of the original', () => {
    const response = toErrorResponse(new TypeError('cannot read properties of undefined (reading "password")'), fixedId);
    expect(response).toEqual({ status: 500, body: { code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId: 'err-1' }, headers: {}, fault: true });
    expect(JSON.stringify(response.body)).not.toMatch(/password|TypeError|at /);
  });

  it.each([
    [new NotFoundException('Cannot GET /api/nope'), 404, 'NOT_FOUND'],
    [new BadRequestException('Unexpected token } in JSON'), 400, 'VALIDATION_FAILED'],
    [new PayloadTooLargeException(), 413, 'PAYLOAD_TOO_LARGE'],
    [new ServiceUnavailableException(), 503, 'SERVICE_UNAVAILABLE'],
    [new HttpException('Method Not Allowed', 405), 405, 'VALIDATION_FAILED'],
  ])('answers an HttpException with an ErrorBody (%s)', (exception, status, code) => {
    const response = toErrorResponse(exception, fixedId);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ code, message: ErrorCodes[code as ErrorCode].message });
  });

  it('answers a Fastify / http-errors client error by its statusCode, without its wording', () => {
    const fastifyError = Object.assign(new Error("Body cannot be empty when content-type is set to 'application/json'"), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    expect(toErrorResponse(fastifyError, fixedId)).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: ErrorCodes.VALIDATION_FAILED.message }, headers: {}, fault: false });
    const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toErrorResponse(tooLarge, fixedId)).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    const serverSide = Object.assign(new Error('handler timed out'), { statusCode: 503 });
    expect(toErrorResponse(serverSide, fixedId)).toMatchObject({ status: 500, body: { code: 'INTERNAL', errorId: 'err-1' } });
  });

  it('treats a 5xx HttpException as a fault of ours', () => {
    expect(toErrorResponse(new HttpException('boom', 500), fixedId)).toMatchObject({ status: 500, body: { code: 'INTERNAL', errorId: 'err-1' }, fault: true });
  });
});

describe('HttpErrorFilter', () => {
  function fakeHost() {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown; type?: string } = { headers: {} };
    const logged: { level: string; object: Record<string, unknown>; message: string }[] = [];
    const log = (level: string) => (object: Record<string, unknown>, message: string) => logged.push({ level, object, message });
    const logger = { error: log('error'), warn: log('warn'), debug: log('debug') };
    const reply = {
      sent: false,
      status(code: number) { sent.status = code; return reply; },
      headers(h: Record<string, string>) { Object.assign(sent.headers, h); return reply; },
      type(t: string) { sent.type = t; return reply; },
      send(body: unknown) { sent.body = body; return reply; },
    };
    const request = { log: logger };
    const host = { getType: () => 'http', switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) };
    return { host, sent, logged, logger };
  }

  it('sends 500 with an errorId and logs the error (with its stack) under that id', () => {
    const { host, sent, logged, logger } = fakeHost();
    const error = new Error('database password rejected');
    new HttpErrorFilter(logger as never).catch(error, host as never);
    const body = sent.body as { code: string; errorId: string; message: string };
    expect(sent.status).toBe(500);
    expect(body.code).toBe('INTERNAL');
    expect(body.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toContain('password');
    expect(JSON.stringify(body)).not.toContain('stack');
    expect(sent.type).toMatch(/application\/json/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'error', object: { err: error, errorId: body.errorId } });
  });

  it('sends Retry-After with a 429', () => {
    const { host, sent } = fakeHost();
    new HttpErrorFilter({} as never).catch(new DomainError('RATE_LIMITED', undefined, { retryAfter: 30 }), host as never);
    expect(sent.status).toBe(429);
    expect(sent.headers['retry-after']).toBe('30');
    expect(sent.headers['cache-control']).toBe('no-store');
  });
});
