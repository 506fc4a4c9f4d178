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
