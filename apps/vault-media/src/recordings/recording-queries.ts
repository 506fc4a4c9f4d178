import {
  EXPORT_LIST_PAGE, FINAL_MESSAGES_MAX, isUuid, RECORDINGS_LIST_LIMIT,
  type ExportList, type FinalEntries, type MediaCollection, type Recording, type StorageByDay, type TitlesReply, type VaultStatsContribution,
} from '@lv/contracts';
import { ownerOf, vaultOwnerId, type Caller } from '@lv/platform/auth';
import { validationError } from '@lv/platform/errors';
import { toRecording, type ExportCursor, type Recordings } from './recordings.repository.js';

type Ports = { recordings: Recordings };

/** The owner's items of one collection, newest first (1 to 100 of them). */
export function listRecordings({ recordings }: Ports) {
  return async (caller: Caller, limit = RECORDINGS_LIST_LIMIT, collection: MediaCollection = 'vault'): Promise<Recording[]> => {
    const rows = await recordings.list(ownerOf(caller).userId, Math.min(Math.max(limit, 1), 100), collection);
    return rows.map(toRecording);
  };
}

/**
 * The Who I Am tab's media for a viewer (a key holder of "Who I Am", or the owner): the profile
 * photo and personal media by title and time, never the files.
 */
export function portraitMediaTitles({ recordings }: Ports) {
  return async (caller: Caller): Promise<FinalEntries> => {
    const rows = await recordings.listCollections(vaultOwnerId(caller), ['who-i-am-photo', 'who-i-am'], FINAL_MESSAGES_MAX);
    return rows.map((row) => ({ id: row.id, title: row.collection === 'who-i-am-photo' ? 'Profile photo' : row.title, created_at: new Date(row.created_at).toISOString() }));
  };
}

/**
 * The owner's final messages by title, for the viewer's "If I'm Not There" tab (a key holder of that
 * section, or the owner): titles and times only, never the recordings themselves.
 */
export function finalMessageTitles({ recordings }: Ports) {
  return async (caller: Caller): Promise<FinalEntries> => {
    const rows = await recordings.list(vaultOwnerId(caller), FINAL_MESSAGES_MAX, 'final-messages');
    return rows.map((row) => ({ id: row.id, title: row.title, created_at: new Date(row.created_at).toISOString() }));
  };
}

/**
 * The timeline's batch lookup: titles of the caller's own recordings among `ids` (malformed, unknown
 * and others' ids omitted), and for those whose playback copy is made, the poster and length.
 */
export function recordingTitles({ recordings }: Ports) {
  return async (caller: Caller, ids: readonly string[]): Promise<TitlesReply> => {
    const wanted = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    const rows = await recordings.titles(vaultOwnerId(caller), wanted);
    const ready = rows.filter((row) => row.transcode_status === 'ready');
    return {
      titles: Object.fromEntries(rows.map((row) => [row.id, row.title])),
      playback: Object.fromEntries(ready.map((row) => [row.id, { poster: row.poster, duration_seconds: row.duration_seconds }])),
    };
  };
}

export function recordingStats({ recordings }: Ports) {
  return async (caller: Caller): Promise<VaultStatsContribution> => {
    const { count, days } = await recordings.stats(ownerOf(caller).userId);
    return { videosSaved: count, activeDays: days };
  };
}

/** "Export Vault Data": the caller's own items, every collection, EXPORT_LIST_PAGE at a time (oldest first). */
export function exportList({ recordings }: Ports) {
  return async (caller: Caller, after: string | undefined): Promise<ExportList> => {
    const cursor = after ? parseExportCursor(after) : null;
    const rows = await recordings.listForExport(ownerOf(caller).userId, cursor, EXPORT_LIST_PAGE + 1);
    const page = rows.slice(0, EXPORT_LIST_PAGE);
    const last = page[page.length - 1];
    return { items: page.map(toRecording), nextCursor: rows.length > EXPORT_LIST_PAGE && last ? `${new Date(last.created_at).toISOString()}|${last.id}` : null };
  };
}

/** The admin dashboard's storage chart (the guard admitted only an admin token): each day's bytes and the running total. */
export function adminStorageByDay({ recordings }: Ports) {
  return async (): Promise<StorageByDay> => {
    let total = 0;
    const days = (await recordings.storageByDay()).map((day) => ({ ...day, totalBytes: (total += day.bytes) }));
    return { days };
  };
}

function parseExportCursor(cursor: string): ExportCursor {
  const [createdAt, id] = cursor.split('|');
  if (!createdAt || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) throw validationError({ after: 'Not a cursor of this list.' });
  return { createdAt, id };
}
