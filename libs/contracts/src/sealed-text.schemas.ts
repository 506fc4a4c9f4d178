import { z } from 'zod';

/** AES-256-GCM output, base64: what events and jobs carry instead of a secret or personal words. */
export const sealedTextSchema = z.object({
  alg: z.literal('A256GCM'),
  iv: z.string(),
  tag: z.string(),
  ct: z.string(),
});
export type SealedText = z.infer<typeof sealedTextSchema>;
