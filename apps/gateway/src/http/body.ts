import type { z } from 'zod';
import { validationError } from '@lv/platform/errors';

/**
 * Validates a request body at the edge. A failure is VALIDATION_FAILED (400) with the first message
 * of each field, e.g. `{ fields: { email: 'Please enter a valid email' } }`. A body that is not a JSON
 * object counts as an empty one, so the caller still learns which fields are required.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    fields[key] ??= issue.message;
  }
  throw validationError(fields);
}
