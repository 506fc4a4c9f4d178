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
 * Characters that make a file's name say something it is not: C0 and C1 controls (CR and LF split a
 * header or a log line), and the bidirectional overrides, embeddings, isolates and marks that show
 * "invoice\u202Egpj.pdf" as "invoicefdp.jpg".
 */
const FILE_NAME_SPOOFING = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A file's name as it is stored and shown: NFC, without control or bidirectional characters, trimmed. */
export function cleanFileName(name: string): string {
  return name.normalize('NFC').replace(FILE_NAME_SPOOFING, '').trim();
}

/**
 * A file's name from a browser: safeText, then cleaned (cleanFileName) before its length and format
 * rules run, so a name is stored and shown as what it is. Cleaning, not refusing: the person chose
 * the file, not the characters in its name.
 */
export function fileNameText(params?: Parameters<typeof z.string>[0]): z.ZodString {
  return safeText(params).overwrite(cleanFileName);
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
