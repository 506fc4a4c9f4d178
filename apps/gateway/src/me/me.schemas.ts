import { z } from 'zod';

export const PROFILE_MESSAGES = {
  fullNameType: 'Full name must be text',
  fullNameTooLong: 'Full name must be at most 120 characters',
  avatarUrl: 'Avatar URL must be an https:// address',
} as const;

/**
 * PATCH /api/me: only the two editable fields; anything else in the body (an id, an email, a tier)
 * is dropped here, so a client can never touch more than its own name and picture.
 * A blank name means "no name" (null).
 */
export const updateProfileSchema = z.object({
  full_name: z
    .string({ error: PROFILE_MESSAGES.fullNameType })
    .trim()
    .max(120, PROFILE_MESSAGES.fullNameTooLong)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  avatar_url: z
    .url({ protocol: /^https$/, hostname: z.regexes.domain, error: PROFILE_MESSAGES.avatarUrl })
    .max(2048, PROFILE_MESSAGES.avatarUrl)
    .nullable()
    .optional(),
});

export type UpdateProfileBody = z.output<typeof updateProfileSchema>;
