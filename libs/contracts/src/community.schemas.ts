import { z } from 'zod';
import { COMMUNITY_POST_MAX, COMMUNITY_STORY_MAX, CommunityMessages, MUSIC_CATEGORIES, MUSIC_LIST_LIMIT, MUSIC_MAX_BYTES } from './community.js';
import { SHA256_HEX } from './media.js';
import { fileNameText, safeText } from './text.schemas.js';

// The Parent Circle community on the wire (/api/community/*; rpc.vault-media.music.*, rpc.letters.community.*).
// Kept apart from community.ts so the SPA never bundles zod.

export const musicTrackSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  category: z.enum(MUSIC_CATEGORIES),
  fileName: z.string(),
});
export const musicTracksSchema = z.array(musicTrackSchema).max(MUSIC_LIST_LIMIT);

/** What an operator sees of a track (music:list): where it is kept, how big, its SHA-256 and when it came. */
export const libraryTrackSchema = musicTrackSchema.extend({
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  objectKey: z.string(),
  addedAt: z.iso.datetime(),
});
export type LibraryTrack = z.infer<typeof libraryTrackSchema>;

/** rpc.vault-media.op.music-start-upload: an operator opens the upload of one file (music:add). */
export const startMusicUploadPayloadSchema = z.object({
  fileName: fileNameText().min(1).max(200),
  title: safeText().trim().min(1).max(100).optional(),
  size: z.number().int().positive().max(MUSIC_MAX_BYTES),
  sha256: z.string().regex(SHA256_HEX),
});
export type StartMusicUploadPayload = z.infer<typeof startMusicUploadPayloadSchema>;

/** Where the operator sends the bytes next: vault-media's own byte listener, `PUT <listener><uploadPath>`. */
export const musicUploadTicketSchema = z.object({
  trackId: z.uuid(),
  uploadPath: z.string(),
  contentType: z.string(),
  maxBytes: z.number().int(),
});
export type MusicUploadTicket = z.infer<typeof musicUploadTicketSchema>;

/** rpc.vault-media.op.music-remove: a track by id or by file name. */
export const removeMusicTrackPayloadSchema = z.object({ track: safeText().trim().min(1).max(200) });
export const removedMusicTrackSchema = z.object({ id: z.uuid(), fileName: z.string(), removed: z.literal(true) });

// --- Posts, likes, stories ---------------------------------------------------------------------

export const communityPostSchema = z.object({
  id: z.uuid(),
  author: z.string().meta({ description: 'The name the author chose to show, or "A parent".' }),
  content: z.string(),
  created_at: z.iso.datetime(),
  likes: z.number().int().min(0),
  liked_by_me: z.boolean(),
  mine: z.boolean().meta({ description: 'Whether you wrote it (and may delete it).' }),
});
export const communityPostsSchema = z.array(communityPostSchema);

const postContent = safeText({ error: CommunityMessages.postRequired }).trim().min(1, CommunityMessages.postRequired).max(COMMUNITY_POST_MAX, CommunityMessages.postTooLong);
const storyText = safeText({ error: CommunityMessages.storyRequired }).trim().min(1, CommunityMessages.storyRequired).max(COMMUNITY_STORY_MAX, CommunityMessages.storyTooLong);

/**
 * POST /api/community/posts. The id is the client's (a retry of the same post saves it once);
 * `show_name` signs it with the author's profile name, otherwise it is signed "A parent".
 */
export const publishPostBodySchema = z.object({
  id: z.uuid({ error: 'A post id (a UUID) is required.' }),
  content: postContent,
  show_name: z.boolean().default(false),
});

/** rpc.letters.community.publish: the gateway puts the author's profile name in when he chose to show it. */
export const publishPostPayloadSchema = z.object({
  id: z.uuid(),
  content: safeText().max(COMMUNITY_POST_MAX * 2),
  author_name: safeText().max(500).nullable(),
});

export const postIdPayloadSchema = z.object({ id: z.uuid() });
export const likePostPayloadSchema = z.object({ id: z.uuid(), liked: z.boolean() });
/** PUT /api/community/posts/:id/like: like (true) or unlike (false); the same answer twice changes nothing. */
export const likePostBodySchema = z.object({ liked: z.boolean({ error: 'Say whether you like the post (liked: true or false).' }) });

/** POST /api/community/stories: "Submit Your Story" (spec 5: 'Please enter your story'). */
export const submitStoryBodySchema = z.object({
  id: z.uuid({ error: 'A story id (a UUID) is required.' }),
  story: storyText,
  show_name: z.boolean().default(false),
});
export const submitStoryPayloadSchema = z.object({
  id: z.uuid(),
  story: safeText().max(COMMUNITY_STORY_MAX * 2),
  author_name: safeText().max(500).nullable(),
});
export const storyReceiptSchema = z.object({ id: z.uuid(), submitted_at: z.iso.datetime() });
export type StoryReceipt = z.infer<typeof storyReceiptSchema>;

export const communityStorySchema = z.object({ id: z.uuid(), author: z.string(), story: z.string(), submitted_at: z.iso.datetime() });
export const communityStoriesSchema = z.array(communityStorySchema);
export const deletePostReplySchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
