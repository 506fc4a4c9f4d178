import { z } from 'zod';
import { VIEWER_MEDIA_KINDS } from './viewer-links.js';
import { safeText } from './text.schemas.js';

// The RPCs behind GET /api/view/media/:id/link and GET /api/view/documents/:id/link. The owning
// service answers with the viewer's own token: it checks the section, the vault and the key's
// download permission itself. `section` tells the gateway what to record in the view audit.

/** rpc.vault-media.viewer-link and rpc.court-journal.viewer-link: an item of the viewer's vault, by id. */
export const viewerItemPayloadSchema = z.object({ id: safeText().max(64) });

/** rpc.vault-media.viewer-link: with `poster`, a link that opens only the video's poster (a list's thumbnail). */
export const viewerMediaPayloadSchema = viewerItemPayloadSchema.extend({ poster: z.boolean().optional() });

const linkFields = {
  url: z.string().meta({ description: 'Same-origin, signed for this item and this view session; served inline. Needs the lv_view cookie.' }),
  expiresAt: z.number().int().meta({ description: 'Epoch milliseconds (at most 3600 s ahead).' }),
  contentType: z.string(),
  downloadUrl: z.string().nullable().meta({ description: 'The original as an attachment; null unless the key allows downloads.' }),
};

/** GET /api/view/media/:id/link: a recording, a Who I Am photo or medium, or a final message. */
export const viewerMediaLinkSchema = z.object({
  ...linkFields,
  mediaKind: z.enum(VIEWER_MEDIA_KINDS),
  title: z.string(),
});
export type ViewerMediaLink = z.infer<typeof viewerMediaLinkSchema>;

/** GET /api/view/documents/:id/link: a court document. */
export const viewerDocumentLinkSchema = z.object({
  ...linkFields,
  fileName: z.string(),
});
export type ViewerDocumentLink = z.infer<typeof viewerDocumentLinkSchema>;

/** GET /api/view/media/:id/poster: a link to a video's poster (JPEG) only. */
export const viewerPosterLinkSchema = z.object({
  url: z.string().meta({ description: "Same-origin, signed for this video's poster and this view session. Needs the lv_view cookie." }),
  expiresAt: z.number().int().meta({ description: 'Epoch milliseconds (at most 3600 s ahead).' }),
});
export type ViewerPosterLink = z.infer<typeof viewerPosterLinkSchema>;

/** What the services answer the gateway: the link, and the section it was read under (for the audit). */
export const viewerMediaGrantSchema = viewerMediaLinkSchema.extend({ section: z.enum(['timeline', 'who-i-am', 'if-im-not-there']) });
export type ViewerMediaGrant = z.infer<typeof viewerMediaGrantSchema>;
export const viewerDocumentGrantSchema = viewerDocumentLinkSchema.extend({ section: z.literal('court-journal') });
export type ViewerDocumentGrant = z.infer<typeof viewerDocumentGrantSchema>;
