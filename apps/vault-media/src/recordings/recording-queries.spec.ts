import { EXPORT_LIST_PAGE } from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import { member, mediaWorld } from '../../test/test-support/in-memory-media.js';
import { savedRecording } from '../../test/test-support/saved-recording.js';
import { reportTranscode } from '../transcoding/report-transcode.js';
import { adminStorageByDay, exportList, finalMessageTitles, listRecordings, portraitMediaTitles, recordingStats, recordingTitles } from './recording-queries.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');
const viewerOf = (vaultOwnerId: string): ViewerCaller => ({ kind: 'viewer', vaultOwnerId, viewSessionId: 'view-1', scopes: ['timeline', 'if-im-not-there'], expiresAt: Date.now() + 60_000, mayDownload: false });

describe('recording queries', () => {
  it("lists the caller's own items of one collection, newest first", async () => {
    const world = mediaWorld();
    const first = await savedRecording(world, owner, 'a', { title: 'First' });
    world.advance(1000);
    const second = await savedRecording(world, owner, 'b', { title: 'Second' });
    await savedRecording(world, owner, 'c', { collection: 'final-messages' });
    await savedRecording(world, other, 'd');
    expect((await listRecordings(world.ports)(owner)).map((r) => r.id)).toEqual([second.id, first.id]);
    expect(await listRecordings(world.ports)(owner, 0)).toHaveLength(1);
  });

  it("gives a viewer the titles of the vault's final messages only, and counts only the vault in stats", async () => {
    const world = mediaWorld();
    const message = await savedRecording(world, owner, 'a', { collection: 'final-messages', title: 'Goodbye' });
    await savedRecording(world, owner, 'b');
    expect(await finalMessageTitles(world.ports)(viewerOf(owner.userId))).toEqual([{ id: message.id, title: 'Goodbye', created_at: message.created_at }]);
    expect(await finalMessageTitles(world.ports)(viewerOf(other.userId))).toEqual([]);
    expect(await recordingStats(world.ports)(owner)).toEqual({ videosSaved: 1, activeDays: ['2026-12-01'] });
  });

  it('names the profile photo "Profile photo" among the Who I Am titles', async () => {
    const world = mediaWorld();
    await savedRecording(world, owner, 'a', { collection: 'who-i-am', title: 'At the lake', contentType: 'video/webm' });
    expect((await portraitMediaTitles(world.ports)(owner)).map((t) => t.title)).toEqual(['At the lake']);
    world.advance(1000);
    await savedRecording(world, owner, 'b', { collection: 'who-i-am-photo', type: 'image', title: 'Me', contentType: 'image/png' });
    expect((await portraitMediaTitles(world.ports)(owner)).map((t) => t.title)).toEqual(['Profile photo', 'At the lake']);
  });

  it("answers the timeline's title lookup for the vault's own recordings only, ignoring malformed ids", async () => {
    const world = mediaWorld();
    const mine = await savedRecording(world, owner, 'a');
    const theirs = await savedRecording(world, other, 'b');
    const titles = await recordingTitles(world.ports)(viewerOf(owner.userId), [mine.id.toUpperCase(), theirs.id, 'nope', mine.id]);
    expect(titles).toEqual({ titles: { [mine.id]: 'For Sam' }, playback: {} });
  });

  it('gives the poster and length of the recordings whose playback copy is made, none while pending or failed', async () => {
    const world = mediaWorld();
    const video = await savedRecording(world, owner, 'a');
    const sound = await savedRecording(world, owner, 'b');
    const pending = await savedRecording(world, owner, 'c');
    const failed = await savedRecording(world, owner, 'd');
    const report = reportTranscode(world.ports);
    const ready = (key: string, poster: boolean) => ({
      status: 'ready' as const, renditionKey: `${key}.rendition.mp4`, renditionSize: 10, renditionContentType: 'video/mp4' as const,
      posterKey: poster ? `${key}.poster.jpg` : null, posterSize: poster ? 9 : null, durationSeconds: 65.2,
    });
    await report({ recordingId: video.id, reportToken: world.ports.signer.transcodeToken(video.id), result: ready(video.file_path, true) });
    await report({ recordingId: sound.id, reportToken: world.ports.signer.transcodeToken(sound.id), result: ready(sound.file_path, false) });
    await report({ recordingId: failed.id, reportToken: world.ports.signer.transcodeToken(failed.id), result: { status: 'failed', reason: 'unreadable' } });
    const { playback } = await recordingTitles(world.ports)(owner, [video.id, sound.id, pending.id, failed.id]);
    expect(playback).toEqual({ [video.id]: { poster: true, duration_seconds: 65.2 }, [sound.id]: { poster: false, duration_seconds: 65.2 } });
  });

  it('pages the export oldest first, the cursor naming the last item, until nothing is left', async () => {
    const world = mediaWorld();
    const saved = [];
    for (let i = 0; i <= EXPORT_LIST_PAGE; i++) {
      saved.push((await savedRecording(world, owner, `item-${i}`)).id);
      world.advance(1000);
    }
    const first = await exportList(world.ports)(owner, undefined);
    expect(first.items.map((r) => r.id)).toEqual(saved.slice(0, EXPORT_LIST_PAGE));
    expect(first.nextCursor).toBe(`${first.items.at(-1)?.created_at}|${first.items.at(-1)?.id}`);
    const second = await exportList(world.ports)(owner, first.nextCursor ?? undefined);
    expect(second).toEqual({ items: [expect.objectContaining({ id: saved.at(-1) })], nextCursor: null });
    await expect(exportList(world.ports)(owner, 'yesterday|not-an-id')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('charts the bytes kept per day with a running total', async () => {
    const world = mediaWorld();
    await savedRecording(world, owner, 'a');
    world.advance(24 * 3600_000);
    await savedRecording(world, other, 'b');
    await savedRecording(world, other, 'c');
    expect(await adminStorageByDay(world.ports)()).toEqual({
      days: [{ day: '2026-12-01', bytes: 64, items: 1, totalBytes: 64 }, { day: '2026-12-02', bytes: 128, items: 2, totalBytes: 192 }],
    });
  });
});
