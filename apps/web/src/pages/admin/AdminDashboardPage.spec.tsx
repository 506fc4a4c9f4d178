import { describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminBackups, AdminOverview, BackupRun, BackupVerifyRun, UserProfile } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway } from '../../test/app-harness.js';
import { durationWords, scheduleWords } from './backups-card.js';
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

const DAY = 86_400_000;
const succeeded: BackupRun = {
  startedAt: '2026-12-06T00:00:00.000Z', finishedAt: '2026-12-06T00:01:05.000Z', durationMs: 65_000, ok: true,
  snapshot: 'a'.repeat(64), sizeBytes: 3 * 1024 ** 2, removedSnapshots: 1, errorCode: null, error: null,
};
const failed: BackupRun = { ...succeeded, startedAt: '2026-12-07T00:00:00.000Z', finishedAt: '2026-12-07T00:00:01.200Z', durationMs: 1200, ok: false, snapshot: null, sizeBytes: null, removedSnapshots: null, errorCode: 'BACKUP_WRONG_PASSWORD', error: 'refused' };
const verified: BackupVerifyRun = {
  startedAt: '2026-12-06T04:00:00.000Z', finishedAt: '2026-12-06T04:02:00.000Z', durationMs: 120_000, ok: true,
  snapshot: 'b'.repeat(64), objects: 212, rows: 50_209, mismatches: [], errorCode: null, error: null,
};
const WEEKLY = { everyMs: 7 * DAY, pattern: '0 4 * * 0', nextRunAt: '2026-12-13T04:00:00.000Z' };
/** What GET /api/admin/backups answers in the next test. */
let backups: AdminBackups = { status: null, overdue: false };

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
    if (url.pathname === '/api/admin/backups') return json(200, backups);
    if (url.pathname === '/api/admin/delivery-reviews') return json(200, []);
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

  it('says when no delivery waits for review (the queue itself: delivery-reviews-card.spec.tsx)', async () => {
    renderApp('/admin', admin);
    expect(await screen.findByRole('heading', { name: 'Delivery reviews' })).toBeTruthy();
    expect(await screen.findByText('No deliveries are waiting for review.')).toBeTruthy();
  });

  it('says when no scheduled backup is set up', async () => {
    backups = { status: null, overdue: false };
    renderApp('/admin', admin);
    expect(await screen.findByRole('heading', { name: 'Backups' })).toBeTruthy();
    expect(await screen.findByText('No scheduled backup is set up (the worker has no BACKUP_REPOSITORY).')).toBeTruthy();
  });

  it('says when none has run yet', async () => {
    backups = { status: { everyMs: DAY, since: '2026-12-07T00:00:00.000Z', last: null, lastSuccess: null }, overdue: false };
    renderApp('/admin', admin);
    expect(await screen.findByText('No backup has run yet.')).toBeTruthy();
    expect(screen.getByText('Runs every day.')).toBeTruthy();
    expect(screen.queryByText(/^Next backup/)).toBeNull();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('shows a cron schedule as its expression, and the next run', async () => {
    backups = { status: { everyMs: DAY, pattern: '0 3 * * *', nextRunAt: '2026-12-08T03:00:00.000Z', since: '2026-12-07T00:00:00.000Z', last: null, lastSuccess: null }, overdue: false };
    renderApp('/admin', admin);
    expect(await screen.findByText('Runs at the times of the cron expression "0 3 * * *" (UTC).')).toBeTruthy();
    expect(screen.getByText(/^Next backup: 8 December 2026 at \d\d:\d\d\.$/)).toBeTruthy();
  });

  it('shows the last backup: when, size, duration and result', async () => {
    backups = { status: { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', last: succeeded, lastSuccess: succeeded }, overdue: false };
    renderApp('/admin', admin);
    const last = within(await screen.findByLabelText('Last backup'));
    expect(last.getByText('6 December 2026 at', { exact: false })).toBeTruthy();
    expect(last.getByText('3.0 MB')).toBeTruthy();
    expect(last.getByText('1 min 5 s')).toBeTruthy();
    expect(last.getByText('Succeeded')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('says so when the last backup failed and a backup is overdue', async () => {
    backups = { status: { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', last: failed, lastSuccess: succeeded }, overdue: true };
    renderApp('/admin', admin);
    expect(await screen.findByText('The last backup failed: BACKUP_WRONG_PASSWORD.')).toBeTruthy();
    expect(within(screen.getByLabelText('Last backup')).getByText('Failed (BACKUP_WRONG_PASSWORD)')).toBeTruthy();
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['The last backup failed: BACKUP_WRONG_PASSWORD.', expect.stringMatching(/^A backup is overdue: the last one that succeeded finished 6 December 2026 at \d\d:\d\d\.$/)]);
  });

  it('shows the scheduled restore check: its schedule, next run and what the last one read back', async () => {
    backups = { status: { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', last: succeeded, lastSuccess: succeeded, verify: { ...WEEKLY, last: verified, lastSuccess: verified } }, overdue: false };
    renderApp('/admin', admin);
    const section = within(await screen.findByRole('region', { name: 'Restore check' }));
    expect(section.getByText(/^The newest backup is restored into scratch copies and checked against its manifest at the times of the cron expression "0 4 \* \* 0" \(UTC\)\. Next check: 13 December 2026 at \d\d:\d\d\.$/)).toBeTruthy();
    const last = within(section.getByLabelText('Last verify'));
    expect(last.getByText('bbbbbbbb')).toBeTruthy();
    expect(last.getByText('212 files, 50209 rows')).toBeTruthy();
    expect(last.getByText('2 min 0 s')).toBeTruthy();
    expect(last.getByText('Matches its manifest')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('says what a failed restore check found, and when none is scheduled', async () => {
    const differs: BackupVerifyRun = { ...verified, ok: false, mismatches: ['bucket lv-vaultmedia: owner-1/a.webm: missing'], errorCode: 'BACKUP_VERIFY_FAILED', error: 'snapshot bbbb does not restore as its manifest says (1 differences)' };
    backups = { status: { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', last: succeeded, lastSuccess: succeeded, verify: { ...WEEKLY, last: differs, lastSuccess: verified } }, overdue: false };
    renderApp('/admin', admin);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The last restore check failed: BACKUP_VERIFY_FAILED.')).toBeTruthy();
    expect(within(alert).getByRole('listitem').textContent).toBe('bucket lv-vaultmedia: owner-1/a.webm: missing');
    expect(within(screen.getByLabelText('Last verify')).getByText('Failed (BACKUP_VERIFY_FAILED)')).toBeTruthy();
    cleanup();

    backups = { status: { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', last: succeeded, lastSuccess: succeeded }, overdue: false };
    renderApp('/admin', admin);
    expect(await screen.findByText('The newest backup is not restored and checked on a schedule (BACKUP_VERIFY_SCHEDULE is off).')).toBeTruthy();
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

  it('writes a backup\'s schedule and duration in words', () => {
    expect([DAY, 7 * DAY, DAY / 24, DAY / 2, 2 * DAY, 30 * 60_000].map(scheduleWords)).toEqual(['every day', 'every week', 'every hour', 'every 12 hours', 'every 2 days', 'every 30 minutes']);
    expect([4200, 65_000, 3_720_000].map(durationWords)).toEqual(['4.2 s', '1 min 5 s', '1 h 2 min']);
  });

  it('writes sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });
});
