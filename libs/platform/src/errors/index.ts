import { ErrorCodes, type ErrorBody, type ErrorCode } from '@lv/contracts';

/**
 * An expected failure of a command or query, with a code from the contracts registry. Transports map
 * it to their own shape (HTTP status + body, RPC error) without ever exposing a stack.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: Pick<ErrorBody, 'fields' | 'retryAfter'> = {},
  ) {
    super(message ?? ErrorCodes[code].message);
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** The expected version of a stream did not match: someone else wrote first. */
export class ConcurrencyError extends DomainError {
  override name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number | 'no_stream' | 'any',
    message?: string,
  ) {
    super('CONFLICT', message);
  }
}

export function validationError(fields: Record<string, string>, message: string = ErrorCodes.VALIDATION_FAILED.message): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { fields });
}

/** Recovers a DomainError from whatever crossed a transport (an RPC error object, for instance). */
export function toErrorBody(error: unknown): ErrorBody | null {
  if (error instanceof DomainError) return error.toBody();
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    const { code, message } = error as { code: unknown; message: unknown };
    if (typeof code === 'string' && Object.hasOwn(ErrorCodes, code) && typeof message === 'string') {
      return error as ErrorBody;
    }
  }
  return null;
}
