import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { MediaMessages, type Recording, type UserProfile } from '@lv/contracts';
import { jsonResponse, renderApp, sam, withFakeGateway } from '../../test/app-harness.js';

// "Your Recordings" on /record, the gateway replaced by a stand-in behind fetch: what the owner reads
// of each recording's playback copy (media-transcoding): its length once made, and in words when it
// could not be made; a video's poster in its player.

const pro: UserProfile = { ...sam, subscription_tier: 'pro' };
const base = { type: 'video', file_type: 'video', content_type: 'video/webm', size: 2048, blob_hash: 'a'.repeat(64), integrity: 'verified', collection: 'vault', created_at: '2026-12-01T10:00:00.000Z', timestamp: '2026-12-01T10:00:00.000Z' } as const;
const converted: Recording = { ...base, id: '11111111-1111-4111-8111-111111111111', title: 'Birthday wishes', file_path: 'u1/video_1.webm', transcode_status: 'ready', duration_seconds: 62.4, poster: true };
const damaged: Recording = { ...base, id: '22222222-2222-4222-8222-222222222222', title: 'Damaged one', file_path: 'u1/video_2.webm', transcode_status: 'failed', duration_seconds: null, poster: false };
const pending: Recording = { ...base, id: '33333333-3333-4333-8333-333333333333', title: 'Just saved', file_path: 'u1/video_3.webm', transcode_status: 'pending', duration_seconds: null, poster: false };

function fakeGateway() {
  const handler = async (input: string) => {
    const path = new URL(input, 'http://vault.test').pathname;
    if (path === '/api/media/recordings') return jsonResponse(200, [converted, damaged, pending]);
    const playback = /^\/api\/media\/recordings\/([^/]+)\/playback$/.exec(path);
    if (playback) return jsonResponse(200, { url: `/api/media/play/${playback[1]}?u=u1&exp=1&sig=s`, expiresAt: Date.now() + 3_600_000 });
    if (path === '/api/vault/stats') return jsonResponse(200, { videosSaved: 3, lettersWritten: 0, thoughtsSaved: 0, daysActive: 1 });
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return { fetch: jest.fn(handler) };
}

const gateway = withFakeGateway(fakeGateway);

describe('Your Recordings and the playback copy', () => {
  it("shows a converted recording's length and its poster, and says in words when one could not be converted", async () => {
    expect(gateway().fetch).not.toHaveBeenCalled();
    renderApp('/record', pro);
    const list = await screen.findByRole('list', { name: 'Your Recordings' });
    const rows = within(list).getAllByTestId('recording-row');
    expect(rows).toHaveLength(3);

    expect(within(rows[0]!).getByText(/^Video · /).textContent).toMatch(/ · 1:02 · 2 KB$/);
    expect(within(rows[0]!).queryByRole('note')).toBeNull();
    expect(within(rows[1]!).getByRole('note').textContent).toBe(MediaMessages.transcodeFailed);
    // Still being converted: no words, no spinner, it plays as recorded meanwhile.
    expect(within(rows[2]!).queryByRole('note')).toBeNull();
    expect(within(rows[2]!).getByText(/^Video · /).textContent).toMatch(/at 10:00 · 2 KB$/);

    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Play' }));
    const player = await within(rows[0]!).findByTestId('media-player');
    expect(player.getAttribute('poster')).toBe(`/api/media/play/${converted.id}?u=u1&exp=1&sig=s&poster=1`);
    expect(player.getAttribute('src')).toBe(`/api/media/play/${converted.id}?u=u1&exp=1&sig=s`);

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Play' }));
    expect((await within(rows[1]!).findByTestId('media-player')).getAttribute('poster')).toBeNull();
  });
});
