import { Controller, Delete, Get, Head, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CourtJournalRpc, isUuid, LettersRpc, listRecordingsQuerySchema, MEDIA_BINDING_COOKIE, MEDIA_PLAY_PATH, MediaMessages, retitleBodySchema, startUploadBodySchema, TimelineRpc, timelineQuerySchema, VaultMediaRpc, type PlaybackLink, type Recording, type TimelinePage, type TimelineSource, type UploadTicket, recordingSchema, playbackLinkSchema,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { Public } from '../http/public.decorator.js';
import { CallCtx, callContextOf } from '../http/request-context.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { baseContentType, signedLinkQuery, type ByteStreamProxy } from '../http/byte-stream-proxy.js';
import { Route, RouteBody, RouteErrors, RouteQuery } from '../http/route.js';
import { MEDIA_BODY_TYPES, RESUMABLE_BODY_TYPE, VAULT_MEDIA_HTTP } from './media.tokens.js';

/**
 * Video and audio messages. Commands and queries go to vault-media over NATS; the bytes (upload
 * bodies, playback reads) are piped to and from its HTTP listener, never held here.
 */
@ApiTags('media')
@RouteErrors({
  401: 'No valid access token.',
  503: 'vault-media is unavailable.',
})
@Controller('media')
export class MediaController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(VAULT_MEDIA_HTTP) private readonly media: ByteStreamProxy,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('uploads')
  @ApiBearerAuth()
  @Route({
    body: startUploadBodySchema,
    reply: VaultMediaRpc.startUpload.reply,
    status: 201,
    description: 'PUT the recording to uploadUrl next, or send it to resumableUrl with the tus protocol (resumable).',
    errors: {
      409: 'DUPLICATE_MEDIA: "Duplicate: Recording already exists." (checked before any byte is sent).',
      413: 'PAYLOAD_TOO_LARGE, naming the limit.',
      403: 'UPGRADE_REQUIRED: saving a video or audio recording (vault or final messages) needs pro or legacy (the plans table, PLAN_FEATURE_TABLE).',
    },
  })
  async startUpload(@RouteBody() body: z.output<typeof startUploadBodySchema>, @CallCtx() call: CallContext): Promise<UploadTicket> {
    return this.rpc.call(VaultMediaRpc.startUpload, body, call);
  }

  @Put('uploads/:id')
  @ApiBearerAuth()
  @ApiConsumes(...MEDIA_BODY_TYPES)
  @Route({
    reply: recordingSchema,
    status: 201,
    description: 'Saved: the object is complete in storage and the recording is on the timeline.',
    errors: {
      413: 'PAYLOAD_TOO_LARGE: the body grew past the limit.',
      415: "UNSUPPORTED_MEDIA: the body does not start like the ticket's format (WebM's EBML header, MP4's 'ftyp' box, a Who I Am file's magic bytes).",
      400: 'UPLOAD_INCOMPLETE: the body is not what the upload announced (size, SHA-256).',
    },
  })
  async upload(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = callContextOf(request).accessToken;
    if (!token) throw new DomainError('UNAUTHENTICATED');
    // Any other type was read by a body parser already (JSON): there is no stream left to pass on.
    if (!MEDIA_BODY_TYPES.includes(baseContentType(request.headers['content-type']))) throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.notARecording);
    await this.media.forwardUpload(request, reply, `/uploads/${encodeURIComponent(id)}`, token);
  }

  @Head('tus/:id')
  @ApiBearerAuth()
  @Route({
    status: 200,
    description: 'The tus protocol (1.0.0): where a resumable upload stands. Upload-Offset is the bytes the vault holds, Upload-Length the size announced. The recording is saved once both are equal.',
    errors: {
      404: 'No open upload of yours with this id.',
      400: 'UPLOAD_INCOMPLETE: the upload is no longer open (abandoned, or swept after MEDIA_RESUMABLE_STALE_HOURS): save it again.',
      412: 'Tus-Resumable is missing.',
    },
  })
  async resumableStatus(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forwardResumable(id, request, reply);
  }

  @Patch('tus/:id')
  @ApiBearerAuth()
  @ApiConsumes(RESUMABLE_BODY_TYPE)
  @Route({
    status: 204,
    reply: recordingSchema,
    description: 'The tus protocol (1.0.0): the next piece of a resumable upload (the ticket of POST /api/media/uploads), from Upload-Offset. 204 with the new Upload-Offset; 200 with the saved recording when this piece completed it. A cut request keeps whole parts: ask HEAD where to go on.',
    errors: {
      409: 'Upload-Offset is not where the upload stands, or another request is sending it.',
      413: 'PAYLOAD_TOO_LARGE.',
      415: "UNSUPPORTED_MEDIA: the first bytes are not the ticket's format.",
      400: 'UPLOAD_INCOMPLETE: more bytes than announced, or not the bytes hashed.',
    },
  })
  async resumableAppend(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (baseContentType(request.headers['content-type']) !== RESUMABLE_BODY_TYPE) throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.notARecording);
    await this.forwardResumable(id, request, reply);
  }

  @Delete('tus/:id')
  @ApiBearerAuth()
  @Route({
    status: 204,
    description: 'The tus protocol (termination): the owner gives a resumable upload up; what reached storage is removed.',
    errors: { 404: 'No open upload of yours with this id.' },
  })
  async resumableCancel(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forwardResumable(id, request, reply);
  }

  private async forwardResumable(id: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = callContextOf(request).accessToken;
    if (!token) throw new DomainError('UNAUTHENTICATED');
    if (!isUuid(id)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    await this.media.forwardResumable(request, reply, `/tus/${id}`, token);
  }

  @Get('recordings')
  @ApiBearerAuth()
  @Route({
    query: listRecordingsQuerySchema,
    queryDescriptions: {
      limit: 'How many, 1 to 100 (default 10).',
      collection: "The Record page's recordings (vault, the default) or the final messages.",
    },
    reply: VaultMediaRpc.listRecordings.reply, description: 'Your Recordings (or final messages), newest first (default 10).',
  })
  async recordings(@RouteQuery() query: z.output<typeof listRecordingsQuerySchema>, @CallCtx() call: CallContext): Promise<Recording[]> {
    return this.rpc.call(VaultMediaRpc.listRecordings, query, call);
  }

  @Patch('recordings/:id')
  @ApiBearerAuth()
  @Route({
    body: retitleBodySchema,
    reply: VaultMediaRpc.retitle.reply,
    description: 'Retitled (Who I Am personal media).',
    errors: {
      400: '"Add a title." or the title is over 100 characters.',
      404: 'No such item of yours.',
    },
  })
  async retitle(@Param('id') id: string, @RouteBody() body: z.output<typeof retitleBodySchema>, @CallCtx() call: CallContext): Promise<Recording> {
    return this.rpc.call(VaultMediaRpc.retitle, { id, ...body }, call);
  }

  @Delete('recordings/:id')
  @ApiBearerAuth()
  @Route({
    status: 204,
    description: 'The recording (a final message, or one of Your Recordings) and its media object are gone.',
    errors: {
      400: 'Invalid entry ID',
      404: 'No such recording of yours.',
    },
  })
  async removeRecording(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    await this.rpc.call(VaultMediaRpc.deleteEntry, { id }, call);
  }

  @Post('recordings/:id/playback')
  @ApiBearerAuth()
  @Route({
    reply: playbackLinkSchema,
    description: `A link signed for 3600 s; also sets the httpOnly ${MEDIA_BINDING_COOKIE} cookie that binds links to you.`,
    errors: {
      404: 'No such recording of yours.',
    },
  })
  async playback(@Param('id') id: string, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<PlaybackLink> {
    const grant = await this.rpc.call(VaultMediaRpc.playbackLink, { id }, call);
    reply.setCookie(MEDIA_BINDING_COOKIE, grant.binding.value, {
      httpOnly: true, sameSite: 'strict', secure: this.config.COOKIE_SECURE, path: MEDIA_PLAY_PATH, maxAge: grant.binding.maxAgeSeconds,
    });
    return { url: grant.url, expiresAt: grant.expiresAt };
  }

  /** Public for the Bearer guard (a media element sends no Authorization): the signed link and the owner-binding cookie are checked by vault-media. */
  @Public()
  @Get('play/:id')
  @ApiProduces('video/webm', 'video/mp4', 'audio/webm', 'audio/mp4', 'image/jpeg')
  @ApiQuery({ name: 'u', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'original', required: false, description: "1: the file as saved, not the playback copy (H.264/AAC MP4) served by default once it is made." })
  @ApiQuery({ name: 'poster', required: false, description: "1: the video's poster picture (JPEG), once its playback copy is made." })
  @Route({
    description: 'The recording: its playback copy once made, else (or with original=1) the file as saved.',
    otherReplies: { 206: { description: 'The requested byte range (Range: bytes=...).' } },
    errors: {
      403: 'The link is expired, altered, or not yours.',
      404: 'File Not Found: The media file could not be located.',
    },
  })
  async play(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // A link the signer made is a UUID and a short query: anything else is refused here as vault-media would.
    const search = signedLinkQuery(request.url);
    if (!isUuid(id) || search === null) throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    await this.media.forwardRead(request, reply, `/media/${encodeURIComponent(id)}${search}`, request.cookies?.[MEDIA_BINDING_COOKIE]);
  }
}

/** How long a delete waits for the timeline to drop the entry before answering anyway. */
const ENTRY_GONE_WAIT_MS = 3000;

/**
 * How each source's entry is deleted: by the service that owns it, with its own delete command, which
 * checks the caller again (another vault's item is NOT_FOUND there too).
 */
const deleteInOwner: Record<TimelineSource, (rpc: RpcClient, id: string, call: CallContext) => Promise<unknown>> = {
  'vault-media': (rpc, id, call) => rpc.call(VaultMediaRpc.deleteEntry, { id }, call),
  'court-journal': (rpc, id, call) => rpc.call(CourtJournalRpc.delete, { id }, call),
  letters: (rpc, id, call) => rpc.call(LettersRpc.delete, { id }, call),
};

/**
 * The timeline (essentials, pro, legacy and admins): every service's entries, newest first, read
 * from the timeline service; an entry is deleted in the service it came from (recordings in
 * vault-media, letters in Letters, court documents in court-journal), which owns it.
 */
@ApiTags('timeline')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
})
@Controller('timeline')
export class TimelineController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({
    query: timelineQuerySchema,
    queryDescriptions: {
      limit: 'Page size.',
      before: 'nextCursor of the previous page: entries older than it.',
    },
    reply: TimelineRpc.list.reply,
    errors: {
      403: 'UPGRADE_REQUIRED: the timeline needs essentials, pro or legacy (the plans table, PLAN_FEATURE_TABLE).',
    },
  })
  async timeline(@RouteQuery() query: z.output<typeof timelineQuerySchema>, @CallCtx() call: CallContext): Promise<TimelinePage> {
    return this.rpc.call(TimelineRpc.list, query, call);
  }

  @Delete(':id')
  @Route({
    status: 204,
    description: 'The entry and what it shows (a recording and its media object, a court document and its file) are gone.',
    errors: {
      400: '"Invalid entry ID".',
      404: 'No such entry of yours.',
    },
  })
  async remove(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    if (!isUuid(id)) throw validationError({ id: MediaMessages.invalidEntryId }, MediaMessages.invalidEntryId);
    // The timeline knows whose entry this is: another vault's or an unknown id is NOT_FOUND there, so
    // nothing tells them apart; only the owning service is asked to delete.
    const { source } = await this.rpc.call(TimelineRpc.entry, { id }, call);
    await deleteInOwner[source](this.rpc, id, call);
    // Waited for because the SPA re-reads the timeline at once, and the projection drops the entry only when it reads the owner's deletion event.
    await this.rpc.call(TimelineRpc.awaitEntryGone, { id, timeoutMs: ENTRY_GONE_WAIT_MS }, call, ENTRY_GONE_WAIT_MS + 1000).catch(() => undefined);
  }
}
