import { COMMUNITY_POST_MAX, COMMUNITY_STORY_MAX, CommunityMessages } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { postDecider, type PostEvent } from './post.decider.js';
import { storyDecider, type StoryEvent } from './story.decider.js';

const posts = deciderSpecification(postDecider);
const stories = deciderSpecification(storyDecider);
const postId = '3c1f9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const author = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const member = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const t0 = '2026-11-26T10:00:00.000Z';
const t1 = '2026-11-26T11:00:00.000Z';

const published: PostEvent = { type: 'PostPublished', data: { postId, authorId: author, authorName: null, content: 'Day 40 without seeing them.', publishedAt: t0 } };
const liked = (memberId: string): PostEvent => ({ type: 'PostLiked', data: { postId, memberId, likedAt: t1 } });
const publish = (over: Partial<{ content: string; authorId: string; authorName: string | null }> = {}) =>
  ({ type: 'PublishPost', postId, authorId: author, authorName: null, content: '  Day 40 without seeing them.\n', now: t0, ...over }) as const;
const like = (memberId: string, value = true) => ({ type: 'LikePost', postId, memberId, liked: value, now: t1 }) as const;
const remove = (memberId: string) => ({ type: 'DeletePost', postId, memberId, now: t1 }) as const;

describe('community post decider', () => {
  it('publishes a post, trimmed, once: the same post again from its author records nothing', () => {
    posts.given([]).when(publish()).then([published]);
    posts.given([published]).when(publish()).then([]);
  });

  it('refuses an empty or too long post, and another post under a taken id', () => {
    expect(() => postDecider.decide(publish({ content: '   ' }), postDecider.initialState())).toThrow(CommunityMessages.postRequired);
    expect(() => postDecider.decide(publish({ content: 'x'.repeat(COMMUNITY_POST_MAX + 1) }), postDecider.initialState())).toThrow(CommunityMessages.postTooLong);
    posts.given([published]).when(publish({ content: 'Something else' })).thenThrows('CONFLICT');
    posts.given([published]).when(publish({ authorId: member })).thenThrows('CONFLICT');
  });

  it('counts a member’s like once: liking twice, or unliking what he does not like, changes nothing', () => {
    posts.given([published]).when(like(member)).then([liked(member)]);
    posts.given([published, liked(member)]).when(like(member)).then([]);
    posts.given([published, liked(member)]).when(like(member, false)).then([{ type: 'PostUnliked', data: { postId, memberId: member, unlikedAt: t1 } }]);
    posts.given([published]).when(like(member, false)).then([]);
    posts.given([published, liked(member)]).when(like(author)).then([liked(author)]);
  });

  it('lets the author alone delete his post; another member is refused; a deleted post takes no likes', () => {
    const deleted: PostEvent = { type: 'PostDeleted', data: { postId, authorId: author, deletedAt: t1 } };
    posts.given([published]).when(remove(member)).thenThrows('FORBIDDEN');
    expect(() => postDecider.decide(remove(member), postDecider.evolve(postDecider.initialState(), published))).toThrow(CommunityMessages.notAuthor);
    posts.given([published, liked(member)]).when(remove(author)).then([deleted]);
    posts.given([published, deleted]).when(remove(author)).then([]);
    posts.given([published, deleted]).when(remove(member)).thenThrows('NOT_FOUND');
    posts.given([published, deleted]).when(like(member)).thenThrows('NOT_FOUND');
    posts.given([]).when(like(member)).thenThrows('NOT_FOUND');
    posts.given([]).when(remove(author)).thenThrows('NOT_FOUND');
  });
});

describe('community story decider ("Submit Your Story")', () => {
  const storyId = '5d2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
  const submit = (story: string, authorId = author) => ({ type: 'SubmitStory', storyId, authorId, authorName: 'Sam', story, now: t0 }) as const;
  const submitted: StoryEvent = { type: 'StorySubmitted', data: { storyId, authorId: author, authorName: 'Sam', story: 'It got better.', submittedAt: t0 } };

  it('keeps a story once, trimmed', () => {
    stories.given([]).when(submit('  It got better. ')).then([submitted]);
    stories.given([submitted]).when(submit('It got better.')).then([]);
    stories.given([submitted]).when(submit('Another story')).thenThrows('CONFLICT');
  });

  it("refuses an empty story with the spec's words, and one over the limit", () => {
    expect(() => storyDecider.decide(submit(' \n '), storyDecider.initialState())).toThrow('Please enter your story');
    stories.given([]).when(submit('')).thenThrows('VALIDATION_FAILED');
    expect(() => storyDecider.decide(submit('x'.repeat(COMMUNITY_STORY_MAX + 1)), storyDecider.initialState())).toThrow(CommunityMessages.storyTooLong);
  });
});
