import { z } from 'zod';
import { HEALTH_STATUSES } from './api.js';
import { ErrorCodes, type ErrorCode } from './errors.js';

// The gateway's own replies and the error body, as zod schemas (the types are inferred from them).
// Kept apart from api.ts and errors.ts so the SPA, which imports only types and the error table from
// there, never bundles zod.

/** The wire shape of an error, in RPC replies and HTTP bodies alike. */
export const errorBodySchema = z.object({
  code: z.enum(Object.keys(ErrorCodes) as [ErrorCode, ...ErrorCode[]]),
  message: z.string().meta({ description: 'The text a person sees.' }),
  /** Per-field messages for VALIDATION_FAILED. */
  fields: z.record(z.string(), z.string()).optional().meta({ description: 'Per-field messages (VALIDATION_FAILED).' }),
  /** Set on INTERNAL errors so support can find the log line; never a stack. */
  errorId: z.string().optional().meta({ description: 'Set on INTERNAL errors; quote it to support.' }),
  /** Seconds until a RATE_LIMITED caller may retry. */
  retryAfter: z.number().optional().meta({ description: 'Seconds until a RATE_LIMITED or SERVICE_UNAVAILABLE caller may retry (also the Retry-After header).' }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const vaultStatsSchema = z.object({
  /** Video and audio messages saved. */
  videosSaved: z.number().int().min(0),
  /** Letters written (letters, not court documents). */
  lettersWritten: z.number().int().min(0),
  /** 1 when the user's reflection is saved (server-side) and not blank, else 0. */
  thoughtsSaved: z.number().int().min(0).max(1).meta({ description: '1 when the reflection ("Thoughts & Feelings") is saved, else 0.' }),
  /** Distinct calendar days with saved entries; at least 1 for a signed-in user. */
  daysActive: z.number().int().min(1),
});
export type VaultStats = z.infer<typeof vaultStatsSchema>;


export const healthCheckSchema = z.object({ status: z.enum(HEALTH_STATUSES), detail: z.string().optional(), latencyMs: z.number().optional() });
export const healthReportSchema = z.object({ status: z.enum(HEALTH_STATUSES), checks: z.record(z.string(), healthCheckSchema) });
export type HealthReport = z.infer<typeof healthReportSchema>;
