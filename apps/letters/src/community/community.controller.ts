import { Controller } from '@nestjs/common';
import { LettersRpc, type CommunityPost, type CommunityStory, type PayloadOf, type RequestMeta, type StoryReceipt } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, Readers, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { CommunityService } from './community.service.js';

/** The Parent Circle on NATS: signed-in members only (never a key holder); the plan is checked by CommunityService. */
@Controller()
export class CommunityController {
  constructor(private readonly community: CommunityService) {}

  @Readers('owner')
  @RpcHandler(LettersRpc.communityPosts)
  posts(@CurrentCaller() caller: Caller): Promise<CommunityPost[]> {
    return this.community.posts(caller);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.communityPublish)
  publish(@RpcPayload() post: PayloadOf<typeof LettersRpc.communityPublish>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<CommunityPost> {
    return this.community.publish(caller, post, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.communityLike)
  like(@RpcPayload() like: PayloadOf<typeof LettersRpc.communityLike>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<CommunityPost> {
    return this.community.like(caller, like, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.communityDelete)
  delete(@RpcPayload() post: PayloadOf<typeof LettersRpc.communityDelete>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<{ id: string; deleted: true }> {
    return this.community.delete(caller, post, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.communitySubmitStory)
  submitStory(@RpcPayload() story: PayloadOf<typeof LettersRpc.communitySubmitStory>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<StoryReceipt> {
    return this.community.submitStory(caller, story, meta);
  }

  /** Admins only (checked by CommunityService): the stories kept for moderation. */
  @Readers('owner')
  @RpcHandler(LettersRpc.communityStories)
  stories(@CurrentCaller() caller: Caller): Promise<CommunityStory[]> {
    return this.community.stories(caller);
  }
}
