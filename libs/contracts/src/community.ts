import { Buckets } from './storage.js';
import { formatCount } from './count-format.js';

// The Parent Circle community (spec 02, "Parent Circle Community", sections 3-9): the music library
// (kept by vault-media), discussion posts, likes and stories (kept by letters). Messages, limits and the
// file-name rules live here without zod, so the SPA bundles them as they are.

/** The music library's bucket (spec 3, "Storage buckets"). */
export const MUSIC_BUCKET = Buckets.parentMusicLibrary;
/** The playlist lists at most this many tracks (spec 9). */
export const MUSIC_LIST_LIMIT = 100;
/** Largest track an operator may add (a long meditation in WAV fits). */
export const MUSIC_MAX_BYTES = 200 * 1024 * 1024;

/** Audio types the library takes (spec 9: mp3, wav, m4a), by file extension, with the type stored and served. */
export const MUSIC_AUDIO_TYPES = { mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4' } as const;
export type MusicExtension = keyof typeof MUSIC_AUDIO_TYPES;

/** Categories from the file-name prefix (spec 9): motivation, meditation, voice, else other. */
export const MUSIC_CATEGORIES = ['motivation', 'meditation', 'voice', 'other'] as const;
export type MusicCategory = (typeof MUSIC_CATEGORIES)[number];
export const MUSIC_CATEGORY_LABELS: Record<MusicCategory, string> = { motivation: 'Motivation', meditation: 'Meditation', voice: 'Voice', other: 'Other' };

/** The extension of a file the library takes (case-insensitive), or null for any other file. */
export function musicExtensionOf(fileName: string): MusicExtension | null {
  const match = /\.([a-z0-9]+)$/i.exec(fileName.trim());
  const ext = match?.[1]?.toLowerCase();
  return ext && ext in MUSIC_AUDIO_TYPES ? (ext as MusicExtension) : null;
}

/** The category a file name's prefix names: `motivation-rise.mp3` is motivation, `Song.mp3` is other. */
export function musicCategoryOf(fileName: string): MusicCategory {
  const name = fileName.trim().toLowerCase();
  return MUSIC_CATEGORIES.find((category) => category !== 'other' && name.startsWith(category)) ?? 'other';
}

/**
 * The title a file name gives: the extension and a leading category prefix dropped, dashes and
 * underscores read as spaces, each word capitalised (`meditation_evening-calm.wav` is "Evening Calm").
 */
export function musicTitleOf(fileName: string): string {
  const base = fileName.trim().replace(/\.[a-z0-9]+$/i, '');
  const words = (raw: string) => raw.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  const category = musicCategoryOf(base);
  const withoutPrefix = category === 'other' ? base : words(base.slice(category.length));
  const title = words(withoutPrefix) || words(base);
  return title.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** A track of the playlist (spec 3, "Music track": title, category, fileName; the url is asked for at play time). */
export interface MusicTrack {
  id: string;
  title: string;
  category: MusicCategory;
  fileName: string;
}

/** Posts and stories. */
export const COMMUNITY_POST_MAX = 2000;
export const COMMUNITY_STORY_MAX = 10_000;
/** The discussion shows the newest posts, this many at most. */
export const COMMUNITY_POSTS_LIMIT = 100;
/** How a post or story is signed when its author does not choose to show his name: a circle of separated parents, names are opt-in. */
export const ANONYMOUS_AUTHOR = 'A parent';

/** A discussion post as a member sees it: the author's chosen name, never an e-mail or an account id. */
export interface CommunityPost {
  id: string;
  author: string;
  content: string;
  created_at: string;
  likes: number;
  liked_by_me: boolean;
  mine: boolean;
}

/** A story kept for moderation, as an admin sees it. */
export interface CommunityStory {
  id: string;
  author: string;
  story: string;
  submitted_at: string;
}

export const CommunityMessages = {
  /** Spec 6 and 8: the community gate. */
  upgrade: 'This feature is available to Vault Pro & Legacy members only. Upgrade to unlock.',
  /** Spec 5: story validation. */
  storyRequired: 'Please enter your story',
  storyTooLong: `Stories are limited to ${formatCount(COMMUNITY_STORY_MAX)} characters.`,
  storySubmitted: 'Thank you for sharing your story. It will be read with care before anything is shared.',
  postRequired: 'Please write something to share.',
  postTooLong: `Posts are limited to ${formatCount(COMMUNITY_POST_MAX)} characters.`,
  postNotFound: 'This post is no longer in the discussion.',
  notAuthor: 'Only the author can delete this post.',
  postIdTaken: 'This post id is already in use.',
  /** Spec 8: music toasts. */
  couldNotLoadFiles: (message: string) => `Could not load files: ${message}`,
  noAudioFiles: 'No audio files found in the music library',
  failedToLoadTracks: 'Failed to load music tracks',
  trackNotFound: 'This track is no longer in the music library.',
  notAudioFile: 'Only mp3, wav and m4a files can be added to the music library.',
  notTheAudioFormat: 'This file is not the audio its name says (mp3, wav or m4a).',
  duplicateTrack: (fileName: string) => `A track named ${fileName} is already in the music library.`,
  adminsOnly: 'Only admins can read submitted stories.',
} as const;
