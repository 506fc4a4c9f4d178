import { z } from 'zod';
import { REFLECTION_MAX, ReflectionMessages } from '@lv/contracts';

export const REFLECTION_API_MESSAGES = {
  text: 'Send the reflection as text (an empty text clears it).',
} as const;

/**
 * PUT /api/vault/reflection. Trimmed at the edge (the service trims and checks again); a blank text
 * is valid and clears the reflection. Any other field (an owner, a date) is dropped: whose
 * reflection it is comes from the verified access token only.
 */
export const saveReflectionSchema = z.object({
  text: z.string({ error: REFLECTION_API_MESSAGES.text }).trim().max(REFLECTION_MAX, ReflectionMessages.tooLong),
});
