import type { CommunityPost, MusicTrack, PlaybackLink, PublishPostRequest, StoryReceipt, SubmitStoryRequest } from '@lv/contracts';
import { api } from './api.js';

export const communityKeys = {
  music: ['community', 'music'] as const,
  posts: ['community', 'posts'] as const,
  trackLink: (id: string) => ['community', 'music', 'link', id] as const,
};

/** The Parent Circle's playlist (up to 100 tracks; empty on a fresh install). */
export function fetchMusicTracks(signal?: AbortSignal): Promise<MusicTrack[]> {
  return api.get<MusicTrack[]>('/api/community/music', { signal });
}

/** A link to play one track, signed for an hour and bound to you by a cookie. */
export function fetchTrackLink(id: string): Promise<PlaybackLink> {
  return api.post<PlaybackLink>(`/api/community/music/${encodeURIComponent(id)}/playback`);
}

export function fetchPosts(signal?: AbortSignal): Promise<CommunityPost[]> {
  return api.get<CommunityPost[]>('/api/community/posts', { signal });
}

export function publishPost(post: PublishPostRequest): Promise<CommunityPost> {
  return api.post<CommunityPost>('/api/community/posts', post);
}

export function likePost(id: string, liked: boolean): Promise<CommunityPost> {
  return api.request<CommunityPost>(`/api/community/posts/${encodeURIComponent(id)}/like`, { method: 'PUT', body: { liked } });
}

export function deletePost(id: string): Promise<void> {
  return api.request<void>(`/api/community/posts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function submitStory(story: SubmitStoryRequest): Promise<StoryReceipt> {
  return api.post<StoryReceipt>('/api/community/stories', story);
}
