import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import { jsonResponse as json, renderApp, sam, withFakeGateway } from '../test/app-harness.js';

// The top bar's avatar: the profile's avatar_url, or else the Who I Am photo, looked up after the first paint.

const PHOTO_ID = '5d1e0c2a-0000-4000-8000-000000000001';

function fakeGateway() {
  const calls: string[] = [];
  const handler = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://vault.test');
    calls.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (url.pathname === '/api/auth/refresh') return json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    if (url.pathname === '/api/media/recordings' && url.searchParams.get('collection') === 'who-i-am-photo') {
      return json(200, [{ id: PHOTO_ID, title: 'Profile photo', type: 'image', collection: 'who-i-am-photo' }]);
    }
    if (url.pathname === `/api/media/recordings/${PHOTO_ID}/playback`) return json(200, { url: `/api/media/play/${PHOTO_ID}?sig=abc`, expiresAt: Date.now() + 3_600_000 });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return { calls, fetch: jest.fn(handler) };
}

const gateway = withFakeGateway(fakeGateway);

describe('the top bar avatar', () => {
  it('shows the Who I Am photo when the profile has no picture: the photo is found and a link signed for it', async () => {
    renderApp('/settings', { ...sam, avatar_url: null });
    await screen.findByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(gateway().calls).toContain(`POST /api/media/recordings/${PHOTO_ID}/playback`));
    expect(gateway().calls).toContain('GET /api/media/recordings?limit=1&collection=who-i-am-photo');
  });
});
