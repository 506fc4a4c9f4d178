import type { z } from 'zod';
import { isUuid } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import { parseBody } from '../http/body.js';

/**
 * parseBody, with the first field's words (the spec's, from the contracts' schemas) as the error's
 * message too: the access pages show a refusal's message as it is, e.g. "❌ Submit failed (400):
 * Please provide your email address.", where the generic "Some fields are not valid." says nothing.
 */
export function parseAccessBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  try {
    return parseBody(schema, body);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') throw error;
    const fields = error.details.fields ?? {};
    throw validationError(fields, Object.values(fields)[0] ?? error.message);
  }
}

/**
 * A redemption body (redeemKeyBodySchema). When only the consent is missing or wrong, the refusal is
 * CONSENT_REQUIRED (the code the viewer's client asks for the disclaimer on), not a generic validation failure.
 */
export function parseRedeemBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  try {
    return parseAccessBody(schema, body);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const fields = error.details.fields ?? {};
    const failed = Object.keys(fields);
    if (failed.length > 0 && failed.every((field) => field === 'consent' || field.startsWith('consent.'))) throw new DomainError('CONSENT_REQUIRED', undefined, { fields });
    throw error;
  }
}

/** A path id that cannot name a request, key or session is simply not found (never a 400 that tells ids apart). */
export function idParam(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND');
  return id.toLowerCase();
}
