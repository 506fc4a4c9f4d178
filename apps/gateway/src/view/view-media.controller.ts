import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccessMessages, CourtJournalRpc, isUuid, MediaMessages, VaultMediaRpc, VIEW_TOKEN_COOKIE, ViewerLinkMessages, type ViewedItem, type ViewerDocumentLink, type ViewerMediaGrant,
  type ViewerMediaLink, type ViewerPosterLink, viewerMediaLinkSchema, viewerDocumentLinkSchema, viewerPosterLinkSchema,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { ViewerEntriesService } from '../access/viewer-entries.service.js';
import { signedLinkQuery, type ByteStreamProxy } from '../http/byte-stream-proxy.js';
import { Public } from '../http/public.decorator.js';
import { CallCtx } from '../http/request-context.js';
import { Route, RouteErrors } from '../http/route.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';
import { RPC_CLIENT } from '../infra/tokens.js';
import { VIEW_DOCUMENTS_HTTP, VIEW_MEDIA_HTTP } from './view-media.providers.js';

/** What the view audit calls an opened media item, by the section it was read under. */
const MEDIA_ITEM_KIND: Record<ViewerMediaGrant['section'], ViewedItem['kind']> = {
  timeline: 'recording',
  'who-i-am': 'portrait-media',
  'if-im-not-there': 'final-message',
};

const VIEWER_UNAUTHENTICATED = { 401: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session); an owner’s access token is refused here.' } as const;
const LINK_REFUSED = { 403: `FORBIDDEN: no lv_view cookie ("${ViewerLinkMessages.noViewer}"), another view session ("${ViewerLinkMessages.otherSession}"), the key revoked or expired ("${ViewerLinkMessages.accessEnded}"), a download the key does not allow ("${ViewerLinkMessages.downloadNotAllowed}"), the section not shared, or an altered or expired link ("${ViewerLinkMessages.linkInvalid}").` } as const;

/**
 * A viewer's media and documents (/api/view/media, /api/view/documents): the link routes take the
 * viewer token as a Bearer and answer with links signed by the owning service for this view session;
 * the byte routes are public for the Bearer guard (a media element sends no Authorization header) and
 * pass the lv_view cookie's token on, for the owning service to verify with the signed link. Every
 * opened item is recorded in the view audit before its link is given.
 */
@ApiTags('view')
@RouteErrors({
  503: 'The owning service (or access-keys, which records the view) is unavailable.',
})
@ViewerRoute()
@Controller('view')
export class ViewMediaController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly entries: ViewerEntriesService,
    @Inject(VIEW_MEDIA_HTTP) private readonly media: ByteStreamProxy,
    @Inject(VIEW_DOCUMENTS_HTTP) private readonly documents: ByteStreamProxy,
  ) {}

  @Get('media/:id/link')
  @ApiBearerAuth()
  @Route({
    reply: viewerMediaLinkSchema,
    description: 'A recording (timeline), a Who I Am photo or medium (who-i-am) or a final message (if-im-not-there, while the owner allows a preview or the vault was released). The opening is recorded first.',
    errors: {
      ...VIEWER_UNAUTHENTICATED,
      403: `FORBIDDEN: "${AccessMessages.sectionNotShared}", or "${ViewerLinkMessages.finalMessageClosed}"`,
      404: 'No such item in this vault.',
    },
  })
  async mediaLink(@Param('id') id: string, @CallCtx() call: CallContext): Promise<ViewerMediaLink> {
    const { section, ...link } = await this.rpc.call(VaultMediaRpc.viewerLink, { id }, call);
    await this.entries.recordOpened(section, { kind: MEDIA_ITEM_KIND[section], id: id.toLowerCase() }, call);
    return link;
  }

  @Get('media/:id/poster')
  @ApiBearerAuth()
  @Route({
    reply: viewerPosterLinkSchema,
    description: "A link to a video's poster (JPEG) only, for a list's thumbnail, under the same checks as the recording's link. Not recorded as an opened item: it opens nothing but the poster, and the list it belongs to was recorded.",
    errors: {
      ...VIEWER_UNAUTHENTICATED,
      403: `FORBIDDEN: "${AccessMessages.sectionNotShared}", or "${ViewerLinkMessages.finalMessageClosed}"`,
      404: 'No such item in this vault, or it has no poster (not a video, or its playback copy is not made).',
    },
  })
  async posterLink(@Param('id') id: string, @CallCtx() call: CallContext): Promise<ViewerPosterLink> {
    const { url, expiresAt } = await this.rpc.call(VaultMediaRpc.viewerLink, { id, poster: true }, call);
    return { url, expiresAt };
  }

  @Get('documents/:id/link')
  @ApiBearerAuth()
  @Route({
    reply: viewerDocumentLinkSchema,
    description: 'A court document (court-journal), previewed inline. The opening is recorded first.',
    errors: {
      ...VIEWER_UNAUTHENTICATED,
      403: `FORBIDDEN: "${AccessMessages.sectionNotShared}"`,
      404: 'No such document in this vault.',
    },
  })
  async documentLink(@Param('id') id: string, @CallCtx() call: CallContext): Promise<ViewerDocumentLink> {
    const { section, ...link } = await this.rpc.call(CourtJournalRpc.viewerLink, { id }, call);
    await this.entries.recordOpened(section, { kind: 'document', id: id.toLowerCase() }, call);
    return link;
  }

  /** Public for the Bearer guard: the signed link and the lv_view cookie are checked by vault-media, on every (Range) request. */
  @Public()
  @Get('media/:id')
  @ApiProduces('video/webm', 'video/mp4', 'audio/webm', 'audio/mp4', 'image/jpeg', 'image/png', 'image/gif', 'image/webp')
  @ApiQuery({ name: 's', required: true, description: 'Part of the signed link (the view session).' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'dl', required: false, description: 'Part of the signed link: a download (attachment).' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @Route({
    description: 'The item (inline, a picture without its EXIF, GPS or XMP metadata; the original under its file name for a download link).',
    otherReplies: { 206: { description: 'The requested byte range (Range: bytes=...).' } },
    errors: {
      ...LINK_REFUSED,
      404: 'No such item in this vault.',
      415: `UNSUPPORTED_MEDIA: "${MediaMessages.pictureUnreadable}"`,
    },
  })
  async playMedia(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(this.media, 'media', id, request, reply);
  }

  /** Public for the Bearer guard: the signed link and the lv_view cookie are checked by court-journal. */
  @Public()
  @Get('documents/:id')
  @ApiProduces('application/pdf', 'image/jpeg', 'image/png')
  @ApiQuery({ name: 's', required: true, description: 'Part of the signed link (the view session).' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'dl', required: false, description: 'Part of the signed link: a download (attachment).' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @Route({
    description: 'The document (inline, sandboxed; an attachment under its file name for a download link).',
    errors: {
      ...LINK_REFUSED,
      404: 'No such document in this vault.',
    },
  })
  async readDocument(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(this.documents, 'documents', id, request, reply);
  }

  private async forward(proxy: ByteStreamProxy, area: 'media' | 'documents', id: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // A link the signer made is a UUID and a short query: anything else is refused here as the service would.
    const search = signedLinkQuery(request.url);
    if (!isUuid(id) || search === null) throw new DomainError('FORBIDDEN', ViewerLinkMessages.linkInvalid);
    await proxy.forwardRead(request, reply, `/view/${area}/${encodeURIComponent(id)}${search}`, request.cookies?.[VIEW_TOKEN_COOKIE]);
  }
}
