import { z } from 'zod';
import { isSafeText, TextMessages } from './validation.js';

/**
 * A string that holds neither U+0000 nor a lone surrogate: the base of every text field that arrives
 * from outside (HTTP bodies, query strings, RPC payloads), so a new schema inherits the rule by using
 * it. The check runs first and stops the chain, so the field's message names the real problem rather
 * than a length or a format. `params` are z.string()'s (e.g. the message for a missing field).
 */
export function safeText(params?: Parameters<typeof z.string>[0]): z.ZodString {
  return z.string(params).refine(isSafeText, { error: TextMessages.unsafe, abort: true });
}

/**
 * A whole number in a query string, written in decimal digits only: z.coerce.number() would also take
 * '0x10', '1e2', ' 7' or '' (as 0), which no client sends on purpose.
 */
export function queryInteger(min: number, max: number, message?: string) {
  const error = message ?? `A whole number from ${min} to ${max}.`;
  return z
    .string({ error })
    .regex(/^\d{1,9}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));
}
