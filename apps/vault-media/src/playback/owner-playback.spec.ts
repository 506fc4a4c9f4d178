import { MediaMessages } from '@lv/contracts';
import { member, mediaWorld } from '../../test/test-support/in-memory-media.js';
import { savedRecording } from '../../test/test-support/saved-recording.js';
import { deleteRecording } from '../recordings/edit-recording.js';
import { openPlayback, playbackLink } from './owner-playback.js';

const owner = member('11111111-1111-4111-8111-111111111111');
const other = member('22222222-2222-4222-8222-222222222222');

/** The link's query string as the browser sends it back. */
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'https://vault.example').searchParams);

describe('owner playback', () => {
  it('plays the owner\'s recording through the link and binding it was given, a Range as 206', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const grant = await playbackLink(world.ports)(owner, recording.id);
    const whole = await openPlayback(world.ports)(recording.id, queryOf(grant.url), grant.binding.value, undefined);
    expect(whole).toMatchObject({ status: 200, headers: { 'content-type': 'video/webm', 'content-length': '64' } });
    const part = await openPlayback(world.ports)(recording.id, queryOf(grant.url), grant.binding.value, 'bytes=0-3');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 0-3/64');
  });

  it("gives no link for someone else's recording: not found, as for none", async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await expect(playbackLink(world.ports)(other, recording.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: MediaMessages.notFound });
    await expect(playbackLink(world.ports)(owner, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a link presented with another member\'s binding, or after the session was signed out', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    await savedRecording(world, other, 'b');
    const grant = await playbackLink(world.ports)(owner, recording.id);
    const foreignBinding = world.ports.signer.signBinding(other.userId, other.sessionId).value;
    await expect(openPlayback(world.ports)(recording.id, queryOf(grant.url), foreignBinding, undefined)).rejects.toMatchObject({ code: 'FORBIDDEN', message: MediaMessages.linkInvalid });
    world.revoked.add(owner.sessionId);
    await expect(openPlayback(world.ports)(recording.id, queryOf(grant.url), grant.binding.value, undefined)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers "File Not Found" for a link to a recording deleted since', async () => {
    const world = mediaWorld();
    const recording = await savedRecording(world, owner, 'a');
    const grant = await playbackLink(world.ports)(owner, recording.id);
    await deleteRecording(world.ports)(owner, recording.id);
    await expect(openPlayback(world.ports)(recording.id, queryOf(grant.url), grant.binding.value, undefined)).rejects.toMatchObject({ code: 'NOT_FOUND', message: MediaMessages.fileNotFound });
  });
});
