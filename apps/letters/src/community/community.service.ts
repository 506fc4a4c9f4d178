import type { MikroORM } from '@mikro-orm/postgresql';
import { allowsFeature, CommunityMessages, type CommunityPost, type CommunityStory, type RequestMeta, type StoryReceipt } from '@lv/contracts';
import { ownerOf, requireFeature, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { aggregateStream, EventStore, handleCommand, PerStreamSealing, rebuildProjections, type ErasureHandler, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { PostKeys, postSealing, StoryKeys, storySealing } from './community-sealing.js';
import { communityPostsProjection, communityStoriesProjection, findPosts, findStories, findStorySubmittedAt } from './community.projection.js';
import { POST_STREAM_TYPE, postDecider, postStreamId, type PostCommand } from './post.decider.js';
import { STORY_STREAM_TYPE, storyDecider, storyStreamId } from './story.decider.js';
import { streamErasure, type StreamErasure } from '../account/stream-erasure.js';

/**
 * The Parent Circle's discussion and stories (spec 02, "Parent Circle Community"), saved here rather
 * than in the browser. Every call is by a signed-in member whose plan includes the community (Pro,
 * Legacy) or an admin; anyone else gets the spec's upgrade text. Nothing is published to other services.
 */
export class CommunityService {
  readonly sealing = new PerStreamSealing([postSealing(new PostKeys()), storySealing(new StoryKeys())]);

  /** Posts and stories, each stream's words sealed under its own key (a post's shredded when it is deleted). */
  readonly store = new EventStore({
    publish: () => null,
    inlineProjections: [communityPostsProjection, communityStoriesProjection],
    sealing: this.sealing,
  });

  /** A story has no deletion of its own: an erased account destroys its key and row. */
  private readonly storyErasure: StreamErasure;

  /** How the erasure journal's replay deletes a post (a story) again that a restore brought back (as its author did). */
  readonly erasureHandlers: ErasureHandler[];

  constructor(private readonly orm: MikroORM) {
    this.storyErasure = streamErasure({
      orm, sealing: this.sealing, streamType: STORY_STREAM_TYPE, readModel: { table: 'community_stories', idColumn: 'id', idOf: (streamId) => streamId.slice(`${STORY_STREAM_TYPE}-`.length) },
    });
    this.erasureHandlers = [{ streamType: POST_STREAM_TYPE, eraseAgain: (streamId) => this.deletePostOfStream(streamId, 'erasure-journal') }, this.storyErasure.handler];
  }

  /**
   * The member's account is erased (identity's AccountErased): each post of his deleted as he would
   * (PostDeleted shreds its words, its likes go), each story's key destroyed and journaled and its row
   * deleted. His likes on others' posts are ids only and stay. Only what is alive is erased.
   */
  async eraseMember(memberId: string): Promise<{ posts: number; stories: number }> {
    const em = this.em;
    const posts = await em.execute<{ id: string }[]>('select id::text from community_posts where author_id = ? order by id', [memberId]);
    let deleted = 0;
    for (const { id } of posts) if (await this.deletePostOfStream(postStreamId(id), 'account-erasure')) deleted++;
    const stories = await em.execute<{ id: string }[]>('select id::text from community_stories where author_id = ? order by id', [memberId]);
    for (const { id } of stories) await this.storyErasure.erase(storyStreamId(id));
    return { posts: deleted, stories: stories.length };
  }

  /** Deletes a post as its author would, for the system (a restore brought it back, or his account is erased); false when already deleted. */
  private async deletePostOfStream(streamId: string, actorId: 'erasure-journal' | 'account-erasure'): Promise<boolean> {
    const { state } = await aggregateStream(this.em, this.store, postDecider, streamId);
    if (state.status !== 'published' || !state.authorId) return false;
    await handleCommand(this.orm.em, this.store, postDecider, { type: 'DeletePost', postId: streamId.slice(`${POST_STREAM_TYPE}-`.length), memberId: state.authorId, now: new Date().toISOString() }, {
      streamId, streamType: POST_STREAM_TYPE, metadata: { actor: { kind: 'system', id: actorId } },
    });
    return true;
  }

  private get em() {
    return this.orm.em.fork();
  }

  private member(caller: Caller) {
    return requireFeature(caller, allowsFeature('community'), CommunityMessages.upgrade);
  }

  posts(caller: Caller): Promise<CommunityPost[]> {
    return findPosts(this.em, this.member(caller).userId);
  }

  /** Publishes a post under the client's id, signed with `authorName` (the profile name he chose to show) or "A parent". */
  async publish(caller: Caller, input: { id: string; content: string; author_name: string | null }, meta?: RequestMeta): Promise<CommunityPost> {
    const member = this.member(caller);
    const id = input.id.toLowerCase();
    const authorName = input.author_name?.trim() || null;
    await this.executePost({ type: 'PublishPost', postId: id, authorId: member.userId, authorName, content: input.content, now: new Date().toISOString() }, member.userId, meta);
    return this.post(member.userId, id);
  }

  /** Likes (or unlikes) a post once per member: the same answer again changes nothing. */
  async like(caller: Caller, input: { id: string; liked: boolean }, meta?: RequestMeta): Promise<CommunityPost> {
    const member = this.member(caller);
    const id = input.id.toLowerCase();
    await this.executePost({ type: 'LikePost', postId: id, memberId: member.userId, liked: input.liked, now: new Date().toISOString() }, member.userId, meta);
    return this.post(member.userId, id);
  }

  /** The author deletes his post (its likes go with it); another member is refused. */
  async delete(caller: Caller, input: { id: string }, meta?: RequestMeta): Promise<{ id: string; deleted: true }> {
    const member = this.member(caller);
    const id = input.id.toLowerCase();
    await this.executePost({ type: 'DeletePost', postId: id, memberId: member.userId, now: new Date().toISOString() }, member.userId, meta);
    return { id, deleted: true };
  }

  /** "Submit Your Story": kept for moderation (spec 5: 'Please enter your story'). */
  async submitStory(caller: Caller, input: { id: string; story: string; author_name: string | null }, meta?: RequestMeta): Promise<StoryReceipt> {
    const member = this.member(caller);
    const id = input.id.toLowerCase();
    await handleCommand(this.orm.em, this.store, storyDecider, { type: 'SubmitStory', storyId: id, authorId: member.userId, authorName: input.author_name?.trim() || null, story: input.story, now: new Date().toISOString() }, {
      streamId: storyStreamId(id), streamType: STORY_STREAM_TYPE, metadata: this.metadata(member.userId, meta),
    });
    return { id, submitted_at: (await findStorySubmittedAt(this.em, id))! };
  }

  /** The stories kept for moderation: admins only. */
  stories(caller: Caller): Promise<CommunityStory[]> {
    if (!ownerOf(caller).isAdmin) throw new DomainError('FORBIDDEN', CommunityMessages.adminsOnly);
    return findStories(this.em);
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.orm.em, this.store, this.store.inlineProjections);
  }

  private async post(memberId: string, id: string): Promise<CommunityPost> {
    const [post] = await findPosts(this.em, memberId, id);
    if (!post) throw new DomainError('NOT_FOUND', CommunityMessages.postNotFound);
    return post;
  }

  private metadata(userId: string, meta?: RequestMeta): EventMetadata {
    return { actor: { kind: 'user', id: userId }, ...(meta?.requestId ? { correlationId: meta.requestId } : {}) };
  }

  private executePost(command: PostCommand, userId: string, meta?: RequestMeta) {
    return handleCommand(this.orm.em, this.store, postDecider, command, { streamId: postStreamId(command.postId), streamType: POST_STREAM_TYPE, metadata: this.metadata(userId, meta) });
  }
}
