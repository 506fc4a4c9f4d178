import { Controller, Delete, Get, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommunityMessages, IdentityRpc, isUuid, LettersRpc, likePostBodySchema, MEDIA_BINDING_COOKIE, MEDIA_PLAY_PATH, MediaMessages, publishPostBodySchema, submitStoryBodySchema, VaultMediaRpc, type CommunityPost, type CommunityStory, type MusicTrack, type PlaybackLink, type StoryReceipt, playbackLinkSchema,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { signedLinkQuery, type ByteStreamProxy } from '../http/byte-stream-proxy.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { VAULT_MEDIA_HTTP } from '../media/media.tokens.js';

const UPGRADE = 'UPGRADE_REQUIRED: "This feature is available to Vault Pro & Legacy members only. Upgrade to unlock." (Pro and Legacy members and admins only).';

/**
 * The Parent Circle (/api/community): the music library (vault-media) and the discussion and stories
 * (letters). Both services check the member's plan themselves; no request names a member.
 */
@ApiTags('community')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  403: UPGRADE,
})
@Controller('community')
export class CommunityController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('music')
  @Route({ reply: VaultMediaRpc.musicTracks.reply, description: 'The playlist (at most 100 tracks; empty on a fresh install).' })
  music(@CallCtx() call: CallContext): Promise<MusicTrack[]> {
    return this.rpc.call(VaultMediaRpc.musicTracks, {}, call);
  }

  @Post('music/:id/playback')
  @Route({
    reply: playbackLinkSchema,
    description: `A link to the track signed for 3600 s; also sets the httpOnly ${MEDIA_BINDING_COOKIE} cookie that binds links to you.`,
    errors: {
      404: 'The track is no longer in the library.',
    },
  })
  async playback(@Param('id') id: string, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<PlaybackLink> {
    const grant = await this.rpc.call(VaultMediaRpc.musicPlaybackLink, { id }, call);
    reply.setCookie(MEDIA_BINDING_COOKIE, grant.binding.value, {
      httpOnly: true, sameSite: 'strict', secure: this.config.COOKIE_SECURE, path: MEDIA_PLAY_PATH, maxAge: grant.binding.maxAgeSeconds,
    });
    return { url: grant.url, expiresAt: grant.expiresAt };
  }

  @Get('posts')
  @Route({ reply: LettersRpc.communityPosts.reply, description: 'The discussion, newest first (100 at most), signed by the names authors chose to show.' })
  posts(@CallCtx() call: CallContext): Promise<CommunityPost[]> {
    return this.rpc.call(LettersRpc.communityPosts, {}, call);
  }

  @Post('posts')
  @Route({
    body: publishPostBodySchema,
    reply: LettersRpc.communityPublish.reply,
    status: 201,
    description: 'Published (sending the same post again saves it once).',
    errors: {
      400: 'VALIDATION_FAILED: an empty post, or one over 2,000 characters.',
    },
  })
  async publish(@RouteBody() body: z.output<typeof publishPostBodySchema>, @CallCtx() call: CallContext): Promise<CommunityPost> {
    const { id, content, show_name } = body;
    return this.rpc.call(LettersRpc.communityPublish, { id, content, author_name: await this.authorName(show_name, call) }, call);
  }

  @Put('posts/:id/like')
  @Route({
    body: likePostBodySchema,
    reply: LettersRpc.communityLike.reply,
    description: 'The post with its likes: liking (or unliking) twice changes nothing.',
    errors: {
      404: 'The post is no longer in the discussion.',
    },
  })
  like(@Param('id') id: string, @RouteBody() body: z.output<typeof likePostBodySchema>, @CallCtx() call: CallContext): Promise<CommunityPost> {
    return this.rpc.call(LettersRpc.communityLike, { id: this.postId(id), ...body }, call);
  }

  @Delete('posts/:id')
  @Route({
    status: 204,
    description: 'Your post (and its likes) is gone.',
    errors: {
      404: 'The post is no longer in the discussion.',
    },
  })
  async remove(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    await this.rpc.call(LettersRpc.communityDelete, { id: this.postId(id) }, call);
  }

  @Post('stories')
  @Route({
    body: submitStoryBodySchema,
    reply: LettersRpc.communitySubmitStory.reply,
    status: 201,
    description: 'Kept for moderation (sending the same story again keeps it once).',
    errors: {
      400: "VALIDATION_FAILED: 'Please enter your story', or a story over 10,000 characters.",
    },
  })
  async submitStory(@RouteBody() body: z.output<typeof submitStoryBodySchema>, @CallCtx() call: CallContext): Promise<StoryReceipt> {
    const { id, story, show_name } = body;
    return this.rpc.call(LettersRpc.communitySubmitStory, { id, story, author_name: await this.authorName(show_name, call) }, call);
  }

  @Get('stories')
  @Route({ reply: LettersRpc.communityStories.reply, description: 'Admins only: the stories kept for moderation, newest first.' })
  stories(@CallCtx() call: CallContext): Promise<CommunityStory[]> {
    return this.rpc.call(LettersRpc.communityStories, {}, call);
  }

  /** The author's profile name when he chose to show it (and has one); otherwise null, shown as "A parent". Never an e-mail. */
  private async authorName(showName: boolean, call: CallContext): Promise<string | null> {
    if (!showName) return null;
    const me = await this.rpc.call(IdentityRpc.getMe, {}, call);
    return me.full_name?.trim() || null;
  }

  private postId(id: string): string {
    if (!isUuid(id)) throw new DomainError('NOT_FOUND', CommunityMessages.postNotFound);
    return id;
  }
}

/** A track's bytes: public for the Bearer guard (an audio element sends none); vault-media checks the signed link and the binding cookie. */
@ApiTags('community')
@Controller('media/play/music')
export class MusicPlaybackController {
  constructor(@Inject(VAULT_MEDIA_HTTP) private readonly media: ByteStreamProxy) {}

  @Public()
  @Get(':id')
  @ApiProduces('audio/mpeg', 'audio/wav', 'audio/mp4')
  @ApiQuery({ name: 'u', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @Route({
    description: 'The track.',
    otherReplies: { 206: { description: 'The requested byte range (Range: bytes=...).' } },
    errors: {
      403: 'The link is expired, altered, or not yours.',
      404: 'File Not Found: the track is no longer in the library.',
    },
  })
  async play(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const search = signedLinkQuery(request.url);
    if (!isUuid(id) || search === null) throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    await this.media.forwardRead(request, reply, `/music/${encodeURIComponent(id)}${search}`, request.cookies?.[MEDIA_BINDING_COOKIE]);
  }
}
