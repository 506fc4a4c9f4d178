// letters' subjects: its RPC (letters, the reflection, Who I Am, milestones, the Parent Circle) and its events.
import { z } from 'zod';
import {
  communityPostSchema, communityPostsSchema, communityStoriesSchema, deletePostReplySchema, likePostPayloadSchema, postIdPayloadSchema, publishPostPayloadSchema,
  storyReceiptSchema, submitStoryPayloadSchema,
} from './community.schemas.js';
import {
  deleteLetterReplySchema, letterByIdPayloadSchema, letterPageSchema, letterSchema, listLettersPayloadSchema, milestoneReleasePayloadSchema, milestoneReleaseReplySchema,
  milestonesDueReplySchema, reflectionSchema, reviseLetterPayloadSchema, saveReflectionPayloadSchema, sealLetterPayloadSchema, writeLetterPayloadSchema,
} from './letters.schemas.js';
import { portraitSchema, portraitSectionsSchema, savePortraitPayloadSchema } from './portrait.schemas.js';
import { emptyPayload, healthRpc, rebuildRpc, replayErasuresRpc, rpc, statsRpc } from './rpc.js';
import { titlesPayloadSchema, titlesReplySchema } from './timeline.schemas.js';
import { event, type EventData, type EventDeclaration } from './events.js';
import type { LetterEventType } from './letters.js';

export const LettersRpc = {
  health: healthRpc('letters'),
  /** lettersWritten, thoughtsSaved and the days letters (or the reflection) were saved. */
  stats: statsRpc('letters'),
  list: rpc('rpc.letters.list', { payload: listLettersPayloadSchema, reply: letterPageSchema }),
  get: rpc('rpc.letters.get', { payload: letterByIdPayloadSchema, reply: letterSchema }),
  write: rpc('rpc.letters.write', { payload: writeLetterPayloadSchema, reply: letterSchema }),
  revise: rpc('rpc.letters.revise', { payload: reviseLetterPayloadSchema, reply: letterSchema }),
  delete: rpc('rpc.letters.delete', { payload: letterByIdPayloadSchema, reply: deleteLetterReplySchema }),
  /** The caller's vault-home reflection. */
  reflectionGet: rpc('rpc.letters.reflection.get', { payload: emptyPayload, reply: reflectionSchema }),
  reflectionSave: rpc('rpc.letters.reflection.save', { payload: saveReflectionPayloadSchema, reply: reflectionSchema }),
  /** The caller's Who I Am portrait (owner), and the sections it has filled (owner, or a key holder of who-i-am). */
  portraitGet: rpc('rpc.letters.portrait.get', { payload: emptyPayload, reply: portraitSchema }),
  portraitSave: rpc('rpc.letters.portrait.save', { payload: savePortraitPayloadSchema, reply: portraitSchema }),
  portraitSections: rpc('rpc.letters.portrait.sections', { payload: emptyPayload, reply: portraitSectionsSchema }),
  /** The timeline's batch title lookup: the words of the reader's own letters among the ids. */
  titles: rpc('rpc.letters.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  /** The owner seals a letter until a day for one recipient, or removes the seal before that day. */
  seal: rpc('rpc.letters.seal', { payload: sealLetterPayloadSchema, reply: letterSchema }),
  unseal: rpc('rpc.letters.unseal', { payload: letterByIdPayloadSchema, reply: letterSchema }),
  /**
   * access-keys, before it issues a milestone key: has this release committed, and for whom? Public on
   * NATS like key-mail-state, publishable by access-keys only (deploy/nats); unknown ids answer 'unknown'.
   */
  milestoneRelease: rpc('rpc.letters.milestone-release', { payload: milestoneReleasePayloadSchema, reply: milestoneReleaseReplySchema }),
  // Operator commands (ops CLI).
  rebuildProjections: rebuildRpc('letters'),
  replayErasures: replayErasuresRpc('letters'),
  /** The Parent Circle's discussion and stories (Pro, Legacy and admins): posts, likes, the author's delete, stories for moderation. */
  communityPosts: rpc('rpc.letters.community.posts', { payload: emptyPayload, reply: communityPostsSchema }),
  communityPublish: rpc('rpc.letters.community.publish', { payload: publishPostPayloadSchema, reply: communityPostSchema }),
  communityLike: rpc('rpc.letters.community.like', { payload: likePostPayloadSchema, reply: communityPostSchema }),
  communityDelete: rpc('rpc.letters.community.delete', { payload: postIdPayloadSchema, reply: deletePostReplySchema }),
  communitySubmitStory: rpc('rpc.letters.community.submit-story', { payload: submitStoryPayloadSchema, reply: storyReceiptSchema }),
  /** Admins only: the stories kept for moderation, newest first. */
  communityStories: rpc('rpc.letters.community.stories', { payload: emptyPayload, reply: communityStoriesSchema }),
  milestonesDue: rpc('rpc.letters.op.milestones-due', { payload: emptyPayload, reply: milestonesDueReplySchema }),
} as const;


/** Published payloads carry ids, counts and times only, never a word: JetStream cannot forget a letter on request. */
export const LettersEvents = {
  LetterWritten: event('letters.letter.written.v1', z.object({ letterId: z.string(), ownerId: z.string(), wordCount: z.number().int().min(0), writtenAt: z.string() })),
  LetterRevised: event('letters.letter.revised.v1', z.object({ letterId: z.string(), ownerId: z.string(), wordCount: z.number().int().min(0), revisedAt: z.string() })),
  LetterDeleted: event('letters.letter.deleted.v1', z.object({ letterId: z.string(), ownerId: z.string(), deletedAt: z.string() })),
} as const satisfies Record<LetterEventType, EventDeclaration>;

export type LetterWrittenV1 = EventData<typeof LettersEvents.LetterWritten>;
export type LetterDeletedV1 = EventData<typeof LettersEvents.LetterDeleted>;
