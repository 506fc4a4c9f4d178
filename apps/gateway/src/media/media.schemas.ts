import { z } from 'zod';
import { MEDIA_TYPES, MediaMessages, RECORDING_TITLE_MAX, RECORDINGS_LIST_LIMIT, TIMELINE_PAGE_MAX } from '@lv/contracts';

/** POST /api/media/uploads. The title's rules are the spec's (required, at most 100 characters). */
export const startUploadSchema = z.object({
  type: z.enum(MEDIA_TYPES, { error: 'Choose video or audio.' }),
  title: z.string({ error: MediaMessages.missingInfo }).trim().min(1, MediaMessages.missingInfo).refine((t) => Array.from(t).length <= RECORDING_TITLE_MAX, MediaMessages.titleTooLong),
  sha256: z.string({ error: 'A SHA-256 of the recording is required.' }).regex(/^[0-9a-fA-F]{64}$/, 'A SHA-256 of the recording (64 hex digits) is required.').transform((s) => s.toLowerCase()),
  size: z.number({ error: 'The recording size is required.' }).int().positive('The recording is empty.'),
});

/** GET /api/media/recordings?limit= */
export const listQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(RECORDINGS_LIST_LIMIT) });

/** GET /api/timeline?limit=&before= */
export const timelineQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(),
  before: z.string().max(200).optional(),
});
