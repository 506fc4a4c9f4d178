import { z } from 'zod';
import { VIEWER_SCOPES } from '@lv/platform/auth';

/** What a viewer's client learns about its own view session (GET /api/view/session). */
export const viewSessionViewSchema = z.object({
  vaultOwnerId: z.string().meta({ format: 'uuid' }),
  viewSessionId: z.string(),
  scopes: z.array(z.enum(VIEWER_SCOPES)),
  expiresAt: z.number().describe('Epoch milliseconds after which the viewer token is refused.'),
});

export type ViewSessionView = z.output<typeof viewSessionViewSchema>;
