import type { EntityManager } from '@mikro-orm/postgresql';
import { ANONYMOUS_AUTHOR, COMMUNITY_POSTS_LIMIT, type CommunityPost, type CommunityStory } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { PostEvent } from './post.decider.js';
import type { StoryEvent } from './story.decider.js';

/**
 * The Parent Circle's read models: `community_posts` (live posts; a deleted post's row and its likes
 * go), `community_post_likes` (one row per member and post: a like is had or not) and
 * `community_stories` (kept for moderation). Author ids stay here: members are shown names only.
 */
export const communityPostsProjection = projectionFor<PostEvent>({
  name: 'community_posts',
  handles: ['PostPublished', 'PostLiked', 'PostUnliked', 'PostDeleted'],

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'PostPublished': {
          const d = event.data;
          // A deleted post's words are shredded: a rebuild finds no words, and its PostDeleted follows.
          if (d.content === null) break;
          await em.execute('insert into community_posts (id, author_id, author_name, content, created_at) values (?, ?, ?, ?, ?) on conflict (id) do nothing', [d.postId, d.authorId, d.authorName, d.content, d.publishedAt]);
          break;
        }
        case 'PostLiked':
          await em.execute('insert into community_post_likes (post_id, member_id, liked_at) values (?, ?, ?) on conflict do nothing', [event.data.postId, event.data.memberId, event.data.likedAt]);
          break;
        case 'PostUnliked':
          await em.execute('delete from community_post_likes where post_id = ? and member_id = ?', [event.data.postId, event.data.memberId]);
          break;
        case 'PostDeleted':
          await em.execute('delete from community_post_likes where post_id = ?', [event.data.postId]);
          await em.execute('delete from community_posts where id = ?', [event.data.postId]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from community_post_likes');
    await em.execute('delete from community_posts');
  },
});

export const communityStoriesProjection = projectionFor<StoryEvent>({
  name: 'community_stories',
  handles: ['StorySubmitted'],

  async apply(em, events) {
    for (const { data } of events) {
      if (data.story === null) continue;
      await em.execute('insert into community_stories (id, author_id, author_name, story, submitted_at) values (?, ?, ?, ?, ?) on conflict (id) do nothing', [data.storyId, data.authorId, data.authorName, data.story, data.submittedAt]);
    }
  },

  async reset(em) {
    await em.execute('delete from community_stories');
  },
});

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The discussion as `memberId` sees it: newest first, with like counts, his own likes and his own posts marked. */
export async function findPosts(em: EntityManager, memberId: string, onlyId?: string): Promise<CommunityPost[]> {
  const rows = await em.execute<{ id: string; author_id: string; author_name: string | null; content: string; created_at: string; likes: string; liked_by_me: boolean }[]>(
    `select p.id, p.author_id, p.author_name, p.content, to_char(p.created_at at time zone 'UTC', ${ISO}) as created_at,
            (select count(*) from community_post_likes l where l.post_id = p.id) as likes,
            exists (select 1 from community_post_likes l where l.post_id = p.id and l.member_id = ?) as liked_by_me
       from community_posts p
      where (?::uuid is null or p.id = ?::uuid)
      order by p.created_at desc, p.id desc
      limit ?`,
    [memberId, onlyId ?? null, onlyId ?? null, COMMUNITY_POSTS_LIMIT],
  );
  return rows.map((row) => ({
    id: row.id, author: row.author_name ?? ANONYMOUS_AUTHOR, content: row.content, created_at: row.created_at, likes: Number(row.likes), liked_by_me: row.liked_by_me, mine: row.author_id === memberId,
  }));
}

/** Stories for moderation, newest first. */
export async function findStories(em: EntityManager): Promise<CommunityStory[]> {
  const rows = await em.execute<{ id: string; author_name: string | null; story: string; submitted_at: string }[]>(
    `select id, author_name, story, to_char(submitted_at at time zone 'UTC', ${ISO}) as submitted_at from community_stories order by submitted_at desc, id desc limit 500`,
  );
  return rows.map((row) => ({ id: row.id, author: row.author_name ?? ANONYMOUS_AUTHOR, story: row.story, submitted_at: row.submitted_at }));
}

export async function findStorySubmittedAt(em: EntityManager, storyId: string): Promise<string | null> {
  const [row] = await em.execute<{ submitted_at: string }[]>(`select to_char(submitted_at at time zone 'UTC', ${ISO}) as submitted_at from community_stories where id = ?`, [storyId]);
  return row?.submitted_at ?? null;
}
