import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminOverview, UserProfile } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway } from '../../test/app-harness.js';
import { fillDays, formatBytes } from './charts.js';

// /admin in the whole app, the gateway replaced by an in-memory stand-in behind fetch.

const admin: UserProfile = { ...sam, id: 'a1', email: 'admin@example.com', full_name: 'Ada Admin', ai_admin: true };
const user = (n: number, over: Partial<UserProfile>): UserProfile => ({
  id: `u${n}`, email: `user${n}@example.com`, full_name: null, avatar_url: null, created_at: `2026-11-2${n}T10:00:00.000Z`, subscription_tier: 'none', ai_admin: false, emailVerified: true, ...over,
});
const everyone = [
  admin,
  user(1, { email: 'john.smith@example.com', full_name: 'John Smith', subscription_tier: 'pro' }),
  user(2, { email: 'mary@example.com', full_name: 'Mary JOHNSON', subscription_tier: 'essentials' }),
  user(3, { email: 'leo@example.com', subscription_tier: 'legacy' }),
];

function fakeGateway() {
  const searches: string[] = [];
  const handler = async (input: string) => {
    const url = new URL(input, 'http://vault.test');
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (url.pathname === '/api/admin/users') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      searches.push(q);
      const users = everyone.filter((u) => !q || u.email.toLowerCase().includes(q) || (u.full_name ?? '').toLowerCase().includes(q));
      const overview: AdminOverview = {
        counts: { total: 4, pro: 1, admins: 1, free: 1 }, users, truncated: false,
        signupsByDay: [{ day: '2026-11-21', count: 1 }, { day: '2026-11-23', count: 3 }],
      };
      return json(200, overview);
    }
    if (url.pathname === '/api/admin/storage') return json(200, { days: [{ day: '2026-11-22', bytes: 2048, items: 1, totalBytes: 2048 }] });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return { searches, fetch: jest.fn(handler) };
}

const gateway = withFakeGateway(fakeGateway);

describe('Admin Dashboard (/admin)', () => {
  it('shows the counters, the users with their tier badges, and both charts', async () => {
    renderApp('/admin', admin);
    expect(await screen.findByText('Loading users...')).toBeTruthy();
    const counts = within(await screen.findByRole('list', { name: 'User counts' }));
    await waitFor(() => expect(counts.getByLabelText('Total Users: 4')).toBeTruthy());
    expect(counts.getByLabelText('Pro Users: 1')).toBeTruthy();
    expect(counts.getByLabelText('Admins: 1')).toBeTruthy();
    expect(counts.getByLabelText('Free Users: 1')).toBeTruthy();
    const table = within(screen.getByRole('table', { name: 'Users' }));
    for (const badge of ['Pro', 'Essentials', 'Legacy']) expect(table.getByText(badge)).toBeTruthy();
    expect(table.getAllByRole('row')).toHaveLength(5);
    expect(screen.getByRole('img', { name: /Sign-ups per day: 3 days from 21 November 2026 to 23 November 2026; highest 3/ })).toBeTruthy();
    expect(await screen.findByRole('img', { name: /Storage kept: 1 day .* latest 2.0 KB/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Queue dashboard' })).toBeTruthy();
  });

  it('searches e-mails and names, ignoring case', async () => {
    renderApp('/admin', admin);
    const table = await screen.findByRole('table', { name: 'Users' });
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'JOHN' } });
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row')).toHaveLength(3));
    expect(gateway().searches).toContain('john');
    expect(within(screen.getByRole('table', { name: 'Users' })).getByText('Mary JOHNSON')).toBeTruthy();
    expect(table).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'nobody-here' } });
    expect(await screen.findByText('No users match this search.')).toBeTruthy();
  });

  it('sends a member who is not an admin to / with "Access denied", and asks the server nothing', async () => {
    const { router } = renderApp('/admin', sam);
    expect(await screen.findByText('Access denied')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(gateway().fetch.mock.calls.some(([url]) => String(url).includes('/api/admin'))).toBe(false);
  });
});

describe('admin charts', () => {
  it('fills missing days with nothing, or with the running total', () => {
    const points = [{ day: '2026-11-28', value: 2 }, { day: '2026-12-01', value: 5 }];
    expect(fillDays(points).map((p) => p.value)).toEqual([2, 0, 0, 5]);
    expect(fillDays(points, true).map((p) => p.value)).toEqual([2, 2, 2, 5]);
    expect(fillDays([])).toEqual([]);
  });

  it('writes sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });
});
