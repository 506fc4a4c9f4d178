import type { ReportTranscodePayload } from '@lv/contracts';
import { member, mediaWorld } from '../../test/test-support/in-memory-media.js';
import { savedRecording } from '../../test/test-support/saved-recording.js';
import { playableOf } from '../playback/owner-playback.js';
import { deleteRecording } from '../recordings/edit-recording.js';
import { toRecording } from '../recordings/recordings.repository.js';
import { reportTranscode } from './report-transcode.js';

const owner = member('11111111-1111-4111-8111-111111111111');

const ready = (key: string): ReportTranscodePayload['result'] => ({
  status: 'ready', renditionKey: `${key}.rendition.mp4`, renditionSize: 1234, renditionContentType: 'video/mp4', posterKey: `${key}.poster.jpg`, posterSize: 99, durationSeconds: 2.02,
});

describe('reportTranscode', () => {
  it('records the playback copy once; playback serves it, the original when asked, and the poster', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    expect(recording.transcode_status).toBe('pending');
    const reportToken = world.ports.signer.transcodeToken(recording.id);
    const report = reportTranscode(world.ports);
    expect(await report({ recordingId: recording.id, reportToken, result: ready(recording.file_path) })).toEqual({ recordingId: recording.id, transcode: 'ready' });
    // A re-run (or a late failure) changes nothing.
    expect(await report({ recordingId: recording.id, reportToken, result: ready(recording.file_path) })).toEqual({ recordingId: recording.id, transcode: 'ready' });
    expect(await report({ recordingId: recording.id, reportToken, result: { status: 'failed', reason: 'late' } })).toEqual({ recordingId: recording.id, transcode: 'ready' });
    expect(world.streams.typesOf(recording.id).filter((t) => t.startsWith('RecordingTranscode'))).toEqual(['RecordingTranscoded']);

    const row = (await world.recordings.find(recording.id))!;
    expect(toRecording(row)).toMatchObject({ transcode_status: 'ready', duration_seconds: 2.02, poster: true, file_path: recording.file_path, blob_hash: recording.blob_hash });
    expect(playableOf(row, {})).toEqual({ bucket: row.bucket, objectKey: `${recording.file_path}.rendition.mp4`, contentType: 'video/mp4', size: 1234 });
    expect(playableOf(row, { original: '1' })).toEqual({ bucket: row.bucket, objectKey: recording.file_path, contentType: row.content_type, size: Number(row.size) });
    expect(playableOf(row, { poster: '1' })).toEqual({ bucket: row.bucket, objectKey: `${recording.file_path}.poster.jpg`, contentType: 'image/jpeg', size: 99 });
  });

  it('marks a failure once, in words for the owner; the original still plays and there is no poster', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const reportToken = world.ports.signer.transcodeToken(recording.id);
    const report = reportTranscode(world.ports);
    expect(await report({ recordingId: recording.id, reportToken, result: { status: 'failed', reason: 'unreadable: Invalid data found' } })).toEqual({ recordingId: recording.id, transcode: 'failed' });
    expect(await report({ recordingId: recording.id, reportToken, result: { status: 'failed', reason: 'again' } })).toEqual({ recordingId: recording.id, transcode: 'failed' });
    expect(world.streams.typesOf(recording.id).filter((t) => t.startsWith('RecordingTranscode'))).toEqual(['RecordingTranscodeFailed']);
    const row = (await world.recordings.find(recording.id))!;
    expect(toRecording(row)).toMatchObject({ transcode_status: 'failed', duration_seconds: null, poster: false });
    expect(playableOf(row, {}).objectKey).toBe(recording.file_path);
    expect(() => playableOf(row, { poster: '1' })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it("refuses the hashing job's token and another recording's; ignores a recording deleted since", async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const another = await savedRecording(world, owner, 'b');
    const report = reportTranscode(world.ports);
    const result = ready(recording.file_path);
    await expect(report({ recordingId: recording.id, reportToken: world.ports.signer.reportToken(recording.id), result })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(report({ recordingId: recording.id, reportToken: world.ports.signer.transcodeToken(another.id), result })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await deleteRecording(world.ports)(owner, recording.id);
    expect(await report({ recordingId: recording.id, reportToken: world.ports.signer.transcodeToken(recording.id), result })).toEqual({ recordingId: recording.id, transcode: 'ignored' });
  });
});
