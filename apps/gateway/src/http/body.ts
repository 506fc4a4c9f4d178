import type { z } from 'zod';
import { validationError } from '@lv/platform/errors';

/** The `body` message of a request body that is not a JSON object (an array, a number, nothing). */
export const NOT_AN_OBJECT_MESSAGE = 'Send the fields as a JSON object.';

/**
 * Validates a request body at the edge. A failure is VALIDATION_FAILED (400) with the first message
 * of each field, e.g. `{ fields: { email: 'Please enter a valid email' } }`. A body that is not a JSON
 * object is refused too (else `[]` would pass as "no changes" where every field is optional), with
 * the messages an empty object gets, so the caller still learns which fields are required.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const result = schema.safeParse(isObject ? body : {});
  if (result.success && isObject) return result.data;
  const fields: Record<string, string> = isObject ? {} : { body: NOT_AN_OBJECT_MESSAGE };
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.map(String).join('.') || 'body';
    fields[key] ??= issue.message;
  }
  throw validationError(fields);
}
