import type { SealedText } from '@lv/contracts';
import { DataKeys, openSealedText, sealText, typedSealing, type DomainEvent, type StreamSealing } from '@lv/platform/event-store';
import { POST_STREAM_TYPE } from './post.decider.js';
import { STORY_STREAM_TYPE } from './story.decider.js';

/** One data key per post (table community_post_keys): created when it is published, destroyed when its author deletes it. */
export class PostKeys extends DataKeys {
  constructor() {
    super({ table: 'community_post_keys', idColumn: 'post_id' });
  }
}

/** One data key per story (table community_story_keys). */
export class StoryKeys extends DataKeys {
  constructor() {
    super({ table: 'community_story_keys', idColumn: 'story_id' });
  }
}

/** A post's or a story's event: every field is a string (or null), its words sealed in the events table. */
type Fields = Record<string, string | SealedText | null>;
type CommunityEvent = DomainEvent<string, Fields>;

/**
 * The words of one event type of a stream (a post's content and name, a story's text and name) sealed
 * under the stream's own key, each field bound to its stream and name; other events carry no words and
 * pass as they are. `shreddedBy` destroys the key: the words of every past event become unrecoverable.
 */
function wordsSealing(options: { streamType: string; keys: DataKeys; wordsIn: string; fields: readonly string[]; shreddedBy?: string }): StreamSealing {
  const context = (id: string, field: string) => `${options.streamType}:${id}:${field}`;
  const map = <E extends CommunityEvent>(event: E, each: (value: string | SealedText, field: string) => string | SealedText | null): E => {
    if (event.type !== options.wordsIn) return event;
    const data = { ...event.data };
    for (const field of options.fields) {
      const value = data[field];
      if (value !== null && value !== undefined) data[field] = each(value, field);
    }
    return { ...event, data };
  };
  return typedSealing<CommunityEvent, CommunityEvent>({
    streamType: options.streamType,
    keys: options.keys,
    keyIdOf: (streamId) => streamId.slice(options.streamType.length + 1),
    keyNeed: (events) => (events.some((e) => e.type === options.wordsIn) ? 'new' : 'none'),
    shreds: (events) => options.shreddedBy !== undefined && events.some((e) => e.type === options.shreddedBy),
    seal(event, key, id) {
      return map(event, (value, field) => {
        if (key === null) throw new Error(`cannot seal ${event.type} of ${options.streamType} ${id}`);
        return sealText(key, value as string, context(id, field));
      });
    },
    open(stored, key, id) {
      return map(stored, (value, field) => (key ? openSealedText(key, value as SealedText, context(id, field)) : null));
    },
  });
}

/** A post's words and the name it is signed with, shredded when its author deletes it. */
export const postSealing = (keys: PostKeys) => wordsSealing({ streamType: POST_STREAM_TYPE, keys, wordsIn: 'PostPublished', fields: ['content', 'authorName'], shreddedBy: 'PostDeleted' });

/** A story's words and the name it is signed with. */
export const storySealing = (keys: StoryKeys) => wordsSealing({ streamType: STORY_STREAM_TYPE, keys, wordsIn: 'StorySubmitted', fields: ['story', 'authorName'] });
