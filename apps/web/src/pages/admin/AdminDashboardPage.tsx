import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ExternalLink, Search } from 'lucide-react';
import type { SubscriptionTier, UserProfile } from '@lv/contracts';
import { adminKeys, fetchAdminOverview, fetchStorageByDay, openQueueDashboard } from '../../api/admin.js';
import { errorMessage } from '../../api/client.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { BackupsCard } from './backups-card.js';
import { DayChart, fillDays, formatBytes } from './charts.js';
import { formatDate } from '../../lib/dates.js';

// Below the fold, with the contracts' schemas it validates a reason with: loaded after the page.
const DeliveryReviewsCard = lazy(async () => ({ default: (await import('./delivery-reviews-card.js')).DeliveryReviewsCard }));

/** A search is sent once typing pauses this long. */
const SEARCH_DEBOUNCE_MS = 250;

const TIER_BADGES: Partial<Record<SubscriptionTier, { label: string; className: string }>> = {
  pro: { label: 'Pro', className: 'bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-100' },
  essentials: { label: 'Essentials', className: 'bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100' },
  legacy: { label: 'Legacy', className: 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100' },
};

function TierBadge({ tier }: { tier: SubscriptionTier }) {
  const badge = TIER_BADGES[tier];
  if (!badge) return <span className="text-sm text-muted-foreground">Free</span>;
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}>{badge.label}</span>;
}

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Admin Dashboard (/admin, admins only: RequireAdmin sends anyone else to / with "Access denied", and
 * identity and vault-media refuse non-admin tokens themselves). Counters over every account, the user
 * list searched by e-mail or name, sign-ups and storage over time, the deliveries waiting for legal
 * verification, the last scheduled backup, and the queue dashboard.
 */
export function AdminDashboardPage() {
  usePageTitle('Admin Dashboard');
  const searchId = useId();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const overview = useQuery({ queryKey: adminKeys.users(query), queryFn: ({ signal }) => fetchAdminOverview(query, signal), placeholderData: keepPreviousData });
  const storage = useQuery({ queryKey: adminKeys.storage, queryFn: ({ signal }) => fetchStorageByDay(signal) });

  const counts = overview.data?.counts;
  const stats = [
    { label: 'Total Users', value: counts?.total },
    { label: 'Pro Users', value: counts?.pro },
    { label: 'Admins', value: counts?.admins },
    { label: 'Free Users', value: counts?.free },
  ];

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Admin Dashboard</h1>
          <p className="mt-2 text-muted-foreground">Accounts, plans and storage across Legacy Vault.</p>
        </div>
        <Button type="button" variant="outline" onClick={() => void openQueueDashboard().catch((error: unknown) => toast.error('Could not open the queue dashboard.', { description: errorMessage(error, 'Please try again.') }))}>
          <ExternalLink aria-hidden="true" className="h-4 w-4" />
          Queue dashboard
        </Button>
      </header>

      <ul aria-label="User counts" className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {stats.map((stat) => (
          <li key={stat.label} aria-label={`${stat.label}: ${stat.value ?? 'loading'}`} className="rounded-2xl border border-border bg-card p-4">
            <p className="text-sm text-muted-foreground">{stat.label}</p>
            <p className="mt-1 text-3xl font-semibold">{stat.value ?? '–'}</p>
          </li>
        ))}
      </ul>

      <Card>
        <CardHeader>
          <CardTitle>Users</CardTitle>
          <CardDescription>Newest first. Search matches part of an email or a name, in any case.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={searchId}>Search users</Label>
            <div className="relative">
              <Search aria-hidden="true" className="pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-muted-foreground" />
              <Input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Email or name" className="pl-9" />
            </div>
          </div>
          {overview.isPending ? (
            <p role="status">Loading users...</p>
          ) : overview.isError ? (
            <LoadFailed message={errorMessage(overview.error, 'Could not load the users.')} onRetry={() => void overview.refetch()} />
          ) : (
            <UserTable users={overview.data.users} truncated={overview.data.truncated} searching={query !== '' } />
          )}
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Sign-ups over time</CardTitle>
            <CardDescription>New accounts per day (UTC).</CardDescription>
          </CardHeader>
          <CardContent>
            {overview.data ? <DayChart title="Sign-ups per day" kind="bars" points={fillDays(overview.data.signupsByDay.map((d) => ({ day: d.day, value: d.count })))} /> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Storage over time</CardTitle>
            <CardDescription>Recordings and media kept, by the day they were saved (running total).</CardDescription>
          </CardHeader>
          <CardContent>
            {storage.isPending ? (
              <p role="status">Loading storage...</p>
            ) : storage.isError ? (
              <LoadFailed message={errorMessage(storage.error, 'Could not load storage.')} onRetry={() => void storage.refetch()} />
            ) : (
              <DayChart title="Storage kept" kind="line" format={formatBytes} points={fillDays(storage.data.days.map((d) => ({ day: d.day, value: d.totalBytes })), true)} />
            )}
          </CardContent>
        </Card>
      </div>

      <Suspense fallback={<p role="status">Loading delivery reviews...</p>}>
        <DeliveryReviewsCard />
      </Suspense>

      <BackupsCard />
    </div>
  );
}

function UserTable({ users, truncated, searching }: { users: UserProfile[]; truncated: boolean; searching: boolean }) {
  if (!users.length) return <p className="text-sm text-muted-foreground">{searching ? 'No users match this search.' : 'No users yet.'}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Name</th>
            <th scope="col" className="py-2 pr-4 font-medium">Email</th>
            <th scope="col" className="py-2 pr-4 font-medium">Plan</th>
            <th scope="col" className="py-2 pr-4 font-medium">Role</th>
            <th scope="col" className="py-2 font-medium">Joined</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} className="border-t border-border">
              <td className="py-2 pr-4">{user.full_name ?? '—'}</td>
              <td className="py-2 pr-4 break-all">{user.email}</td>
              <td className="py-2 pr-4"><TierBadge tier={user.subscription_tier} /></td>
              <td className="py-2 pr-4">{user.ai_admin ? 'Admin' : 'Member'}</td>
              <td className="py-2">{formatDate(user.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {truncated ? <p className="mt-2 text-sm text-muted-foreground">Only the newest {users.length} are listed: search to narrow them down.</p> : null}
    </div>
  );
}
