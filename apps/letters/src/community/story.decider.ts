import { COMMUNITY_STORY_MAX, CommunityMessages } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A story sent with "Submit Your Story": one stream per story, `community-story-{id}` (the client's id,
 * so a retry keeps it once). Kept for moderation: admins read it; nothing is shown to members. The
 * words are sealed under the story's own key (community-sealing.ts); `story` is null only without it.
 */
export type StoryEvent = { type: 'StorySubmitted'; data: { storyId: string; authorId: string; authorName: string | null; story: string | null; submittedAt: string } };

export interface StoryState {
  authorId: string | null;
  story: string | null;
  submittedAt: string | null;
}

export type StoryCommand = { type: 'SubmitStory'; storyId: string; authorId: string; authorName: string | null; story: string; now: string };

export const STORY_STREAM_TYPE = 'community-story';
export const storyStreamId = (storyId: string) => `community-story-${storyId}`;

export const storyDecider: Decider<StoryState, StoryCommand, StoryEvent> = {
  initialState: () => ({ authorId: null, story: null, submittedAt: null }),

  decide(command, state) {
    const story = command.story.trim();
    // Spec 5: 'Please enter your story'.
    if (!story) throw validationError({ story: CommunityMessages.storyRequired }, CommunityMessages.storyRequired);
    if (story.length > COMMUNITY_STORY_MAX) throw validationError({ story: CommunityMessages.storyTooLong }, CommunityMessages.storyTooLong);
    if (state.authorId !== null) {
      if (state.authorId === command.authorId && state.story === story) return [];
      throw new DomainError('CONFLICT', CommunityMessages.postIdTaken);
    }
    return [{ type: 'StorySubmitted', data: { storyId: command.storyId, authorId: command.authorId, authorName: command.authorName, story, submittedAt: command.now } }];
  },

  evolve(_state, event) {
    return { authorId: event.data.authorId, story: event.data.story, submittedAt: event.data.submittedAt };
  },
};
