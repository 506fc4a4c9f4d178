import type { EntityManager } from '@mikro-orm/postgresql';
import { MUSIC_LIST_LIMIT, type LibraryTrack, type MusicCategory, type MusicTrack } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { MusicTrackEvent } from './music-track.decider.js';


/**
 * `music_tracks`: the library as the playlist and the operators see it. `status` is the stream's
 * (uploading, added) or `removing` once an upload was abandoned or a track removed, until its object
 * is gone (`removed`, set by the service, not by an event: the sweeper retries what storage refused).
 * A file name is taken once among the uploading and added tracks (unique index).
 */
export const musicTracksProjection = projectionFor<MusicTrackEvent>({
  name: 'music_tracks',
  handles: ['MusicTrackUploadStarted', 'MusicTrackAdded', 'MusicTrackUploadAbandoned', 'MusicTrackRemoved'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'MusicTrackUploadStarted': {
          const d = event.data;
          await em.execute(
            `insert into music_tracks (id, file_name, title, category, content_type, object_key, declared_size, sha256, status, created_at, updated_at)
             values (?, ?, ?, ?, ?, ?, ?, ?, 'uploading', ?, ?) on conflict (id) do nothing`,
            [d.trackId, d.fileName, d.title, d.category, d.contentType, d.objectKey, d.declaredSize, d.sha256, d.startedAt, d.startedAt],
          );
          break;
        }
        case 'MusicTrackAdded':
          await em.execute(`update music_tracks set status = 'added', size = ?, added_at = ?, updated_at = ? where id = ?`, [event.data.size, event.data.addedAt, event.data.addedAt, event.data.trackId]);
          break;
        case 'MusicTrackUploadAbandoned':
          await em.execute(`update music_tracks set status = 'removing', updated_at = ? where id = ? and status <> 'removed'`, [event.data.abandonedAt, event.data.trackId]);
          break;
        case 'MusicTrackRemoved':
          await em.execute(`update music_tracks set status = 'removing', updated_at = ? where id = ? and status <> 'removed'`, [event.data.removedAt, event.data.trackId]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from music_tracks');
  },
});

export interface MusicTrackRow {
  id: string;
  file_name: string;
  title: string;
  category: MusicCategory;
  content_type: string;
  object_key: string;
  declared_size: string;
  size: string | null;
  sha256: string;
  status: 'uploading' | 'added' | 'removing' | 'removed';
  multipart_upload_id: string | null;
  added_at: Date | null;
  updated_at: Date;
}

export const toMusicTrack = (row: MusicTrackRow): MusicTrack => ({ id: row.id, title: row.title, category: row.category, fileName: row.file_name });

export const toLibraryTrack = (row: MusicTrackRow): LibraryTrack => ({
  ...toMusicTrack(row), contentType: row.content_type, size: Number(row.size ?? 0), sha256: row.sha256, objectKey: row.object_key, addedAt: new Date(row.added_at ?? row.updated_at).toISOString(),
});

/** The tracks that are whole in the library, by category then title (at most the spec's 100). */
export function listAddedTracks(em: EntityManager, limit = MUSIC_LIST_LIMIT): Promise<MusicTrackRow[]> {
  return em.execute<MusicTrackRow[]>(`select * from music_tracks where status = 'added' order by category, lower(title), id limit ?`, [limit]);
}

export async function findMusicTrack(em: EntityManager, id: string): Promise<MusicTrackRow | null> {
  const [row] = await em.execute<MusicTrackRow[]>('select * from music_tracks where id = ?', [id]);
  return row ?? null;
}

/** An added track by its exact file name (music:remove takes a name or an id). */
export async function findAddedTrackByName(em: EntityManager, fileName: string): Promise<MusicTrackRow | null> {
  const [row] = await em.execute<MusicTrackRow[]>(`select * from music_tracks where lower(file_name) = lower(?) and status = 'added'`, [fileName]);
  return row ?? null;
}

// Operational bookkeeping of the bytes (not the stream's facts): the multipart upload to abort if the
// process dies, a heartbeat while bytes arrive, and the object's removal once done.

export async function recordMusicMultipart(em: EntityManager, id: string, multipartId: string): Promise<void> {
  await em.execute('update music_tracks set multipart_upload_id = ?, updated_at = now() where id = ?', [multipartId, id]);
}

export async function touchMusicUpload(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update music_tracks set updated_at = now() where id = ? and status = 'uploading'`, [id]);
}

export async function markMusicObjectRemoved(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update music_tracks set status = 'removed', multipart_upload_id = null where id = ? and status = 'removing'`, [id]);
}

/** Uploads with no progress since `before` (their process died or the operator went away). */
export function staleMusicUploads(em: EntityManager, before: string): Promise<MusicTrackRow[]> {
  return em.execute<MusicTrackRow[]>(`select * from music_tracks where status = 'uploading' and updated_at < ? order by updated_at limit 50`, [before]);
}

/** Objects still to remove (an abandoned upload, a removed track), the oldest first. */
export function unfinishedMusicRemovals(em: EntityManager, before: string): Promise<MusicTrackRow[]> {
  return em.execute<MusicTrackRow[]>(`select * from music_tracks where status = 'removing' and updated_at < ? order by updated_at limit 50`, [before]);
}
