import { ErrorCodes } from '@lv/contracts';
import { clientErrorAnswer } from './framework-errors.js';

describe('refusals of Node’s HTTP parser, in the API shape', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'REQUEST_TIMEOUT'],
    ['HPE_HEADER_OVERFLOW', 431, 'HEADERS_TOO_LARGE'],
    ['HPE_INVALID_METHOD', 400, 'VALIDATION_FAILED'],
    [undefined, 400, 'VALIDATION_FAILED'],
  ] as const)('%s answers %i %s with its registry text', (parserCode, status, code) => {
    expect(clientErrorAnswer(parserCode)).toEqual({ status, body: { code, message: ErrorCodes[code].message } });
  });
});
