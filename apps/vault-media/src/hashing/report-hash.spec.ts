import { member, mediaWorld } from '../../test/test-support/in-memory-media.js';
import { savedRecording } from '../../test/test-support/saved-recording.js';
import { deleteRecording } from '../recordings/edit-recording.js';
import { reportHash } from './report-hash.js';

const owner = member('11111111-1111-4111-8111-111111111111');

describe('reportHash', () => {
  it('marks a recording verified when the stored bytes hash as saved', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const reportToken = world.ports.signer.reportToken(recording.id);
    expect(await reportHash(world.ports)({ recordingId: recording.id, sha256: recording.blob_hash, size: recording.size, reportToken })).toEqual({ recordingId: recording.id, integrity: 'verified' });
    expect((await world.recordings.find(recording.id))?.integrity).toBe('verified');
  });

  it('marks a mismatch for the owner and logs it as an error', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const reportToken = world.ports.signer.reportToken(recording.id);
    expect(await reportHash(world.ports)({ recordingId: recording.id, sha256: null, size: null, reportToken })).toEqual({ recordingId: recording.id, integrity: 'mismatch' });
    expect((await world.recordings.find(recording.id))?.integrity).toBe('mismatch');
    expect(world.logs.filter((line) => line.level === 50).map((line) => line.msg)).toEqual(['stored recording does not match its hash: marked for the owner']);
  });

  it('refuses a report without the token made for that very recording', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const another = await savedRecording(world, owner, 'b');
    await expect(reportHash(world.ports)({ recordingId: recording.id, sha256: null, size: null, reportToken: world.ports.signer.reportToken(another.id) })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await world.recordings.find(recording.id))?.integrity).toBe('pending');
  });

  it('ignores a late report for a recording deleted since', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await deleteRecording(world.ports)(owner, recording.id);
    const reportToken = world.ports.signer.reportToken(recording.id);
    expect(await reportHash(world.ports)({ recordingId: recording.id, sha256: null, size: null, reportToken })).toEqual({ recordingId: recording.id, integrity: 'ignored' });
    expect(world.streams.typesOf(recording.id).at(-1)).toBe('RecordingDeleted');
  });
});
