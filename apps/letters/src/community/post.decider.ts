import { COMMUNITY_POST_MAX, CommunityMessages } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A Parent Circle discussion post: one stream per post, `community-post-{id}` (the id is the client's,
 * so a retry saves it once). Members publish, like and unlike (once each: liking twice changes
 * nothing), and the author alone deletes it. `authorName` is the name the author chose to show, or
 * null for "A parent". Reads no clock: `now` comes with the command. The words are sealed in the
 * store under the post's own key, destroyed when the post is deleted (community-sealing.ts): a
 * deleted post's PostPublished comes back with `content` null.
 */
export type PostEvent =
  | { type: 'PostPublished'; data: { postId: string; authorId: string; authorName: string | null; content: string | null; publishedAt: string } }
  | { type: 'PostLiked'; data: { postId: string; memberId: string; likedAt: string } }
  | { type: 'PostUnliked'; data: { postId: string; memberId: string; unlikedAt: string } }
  | { type: 'PostDeleted'; data: { postId: string; authorId: string; deletedAt: string } };

export interface PostState {
  status: 'new' | 'published' | 'deleted';
  authorId: string | null;
  authorName: string | null;
  content: string | null;
  likedBy: ReadonlySet<string>;
}

export type PostCommand =
  | { type: 'PublishPost'; postId: string; authorId: string; authorName: string | null; content: string; now: string }
  | { type: 'LikePost'; postId: string; memberId: string; liked: boolean; now: string }
  | { type: 'DeletePost'; postId: string; memberId: string; now: string };

export const POST_STREAM_TYPE = 'community-post';
export const postStreamId = (postId: string) => `community-post-${postId}`;

const notFound = () => new DomainError('NOT_FOUND', CommunityMessages.postNotFound);

/** The post's words as kept: trimmed, not empty, within the limit. */
export function normalisePostContent(content: string): string {
  const text = content.trim();
  if (!text) throw validationError({ content: CommunityMessages.postRequired }, CommunityMessages.postRequired);
  if (text.length > COMMUNITY_POST_MAX) throw validationError({ content: CommunityMessages.postTooLong }, CommunityMessages.postTooLong);
  return text;
}

export const postDecider: Decider<PostState, PostCommand, PostEvent> = {
  initialState: () => ({ status: 'new', authorId: null, authorName: null, content: null, likedBy: new Set() }),

  decide(command, state) {
    switch (command.type) {
      case 'PublishPost': {
        const content = normalisePostContent(command.content);
        if (state.status !== 'new') {
          // The same post again from its author (a retry after a lost answer) records nothing.
          if (state.status === 'published' && state.authorId === command.authorId && state.content === content && state.authorName === command.authorName) return [];
          throw new DomainError('CONFLICT', CommunityMessages.postIdTaken);
        }
        return [{ type: 'PostPublished', data: { postId: command.postId, authorId: command.authorId, authorName: command.authorName, content, publishedAt: command.now } }];
      }
      case 'LikePost': {
        if (state.status !== 'published') throw notFound();
        const likes = state.likedBy.has(command.memberId);
        if (likes === command.liked) return [];
        return command.liked
          ? [{ type: 'PostLiked', data: { postId: command.postId, memberId: command.memberId, likedAt: command.now } }]
          : [{ type: 'PostUnliked', data: { postId: command.postId, memberId: command.memberId, unlikedAt: command.now } }];
      }
      case 'DeletePost': {
        if (state.status === 'new') throw notFound();
        if (state.authorId !== command.memberId) {
          // Another member learns nothing about a deleted post; of a live one, that it is not his to delete.
          if (state.status === 'deleted') throw notFound();
          throw new DomainError('FORBIDDEN', CommunityMessages.notAuthor);
        }
        if (state.status === 'deleted') return [];
        return [{ type: 'PostDeleted', data: { postId: command.postId, authorId: command.memberId, deletedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PostPublished':
        return { ...state, status: 'published', authorId: event.data.authorId, authorName: event.data.authorName, content: event.data.content };
      case 'PostLiked':
        return { ...state, likedBy: new Set([...state.likedBy, event.data.memberId]) };
      case 'PostUnliked':
        return { ...state, likedBy: new Set([...state.likedBy].filter((id) => id !== event.data.memberId)) };
      case 'PostDeleted':
        return { ...state, status: 'deleted', content: null, likedBy: new Set() };
    }
  },
};
