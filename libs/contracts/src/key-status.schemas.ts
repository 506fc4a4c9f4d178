import { z } from 'zod';
import { redeemKeyBodySchema } from './access-keys.schemas.js';
import { KEY_STATES } from './key-status.js';

/**
 * Issue 28: what a key's landing page says before the disclaimer. A known key of the link's vault
 * answers its state and the owner's display name; an unknown key (or another vault's) gets redeem's
 * own refusal, INVALID_OR_EXPIRED_KEY, counted against the same per-address failure limit, so this
 * check is no better an oracle than redeeming.
 */

/** POST /api/view/key-status: the key, and the link's owner when it names one. No consent needed yet. */
export const keyStatusBodySchema = redeemKeyBodySchema.pick({ access_key: true, owner: true });

export const keyStatusReplySchema = z.object({
  status: z.enum(KEY_STATES),
  /** The owner's full name from their profile; null when they have not given one. */
  owner_name: z.string().nullable(),
});
export type KeyStatusReply = z.infer<typeof keyStatusReplySchema>;

/** access-keys asks identity whose vault a key opens (service-only: never the gateway's to call). */
export const ownerDisplayNamePayloadSchema = z.object({ user_id: z.uuid() });
export const ownerDisplayNameReplySchema = z.object({ full_name: z.string().nullable() });
