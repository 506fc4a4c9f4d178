import { z } from 'zod';
import { validationError } from '../errors/index.js';

/**
 * Validates a message payload at the service's edge (the gateway validated it too, but services do
 * not trust their callers). Field messages come from the schema.
 */
export function parsePayload<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || 'payload'] ??= issue.message;
  throw validationError(fields);
}
