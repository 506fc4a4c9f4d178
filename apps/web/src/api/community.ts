import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type MusicTrack = Schema<'MusicTrackDto'>;
export type PlaybackLink = Schema<'PlaybackLinkDto'>;
export type CommunityPost = Schema<'CommunityPostDto'>;
export type PublishPostRequest = Schema<'PublishPostDto'>;
export type SubmitStoryRequest = Schema<'SubmitStoryDto'>;
export type StoryReceipt = Schema<'StoryReceiptDto'>;

export const communityKeys = {
  music: ['community', 'music'] as const,
  posts: ['community', 'posts'] as const,
  trackLink: (id: string) => ['community', 'music', 'link', id] as const,
};

/** The Parent Circle's playlist (up to 100 tracks; empty on a fresh install). */
export function fetchMusicTracks(signal?: AbortSignal): Promise<MusicTrack[]> {
  return http.get('/api/community/music', { signal });
}

/** A link to play one track, signed for an hour and bound to you by a cookie. */
export function fetchTrackLink(id: string): Promise<PlaybackLink> {
  return http.post('/api/community/music/{id}/playback', { path: { id } });
}

export function fetchPosts(signal?: AbortSignal): Promise<CommunityPost[]> {
  return http.get('/api/community/posts', { signal });
}

export function publishPost(post: PublishPostRequest): Promise<CommunityPost> {
  return http.post('/api/community/posts', { body: post });
}

export function likePost(id: string, liked: boolean): Promise<CommunityPost> {
  return http.put('/api/community/posts/{id}/like', { path: { id }, body: { liked } });
}

export function deletePost(id: string): Promise<void> {
  return http.del('/api/community/posts/{id}', { path: { id } });
}

export function submitStory(story: SubmitStoryRequest): Promise<StoryReceipt> {
  return http.post('/api/community/stories', { body: story });
}
