import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { CalendarDays, ListFilter } from 'lucide-react';
import { canUseFeature, type TimelineEntry } from '@lv/contracts';
import { fetchTimeline, mediaKeys } from '../../api/media.js';
import { ApiError } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { UpgradePrompt } from '../../components/media/UpgradePrompt.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { cn } from '../../lib/cn.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { TimelineEntryCard } from './TimelineEntryCard.js';
import { countByFilter, groupByDay, matchesFilter, TIMELINE_FILTERS, type TimelineFilter } from './timeline-groups.js';
import { formatDayHeading } from '../../lib/dates.js';

export const TIMELINE_TEXT = {
  signedOut: 'Please log in to view your timeline',
  loading: 'Loading timeline...',
  loadFailed: 'Failed to load timeline entries',
  empty: 'Your timeline is empty',
  emptyInvite: 'Record your first message, and it will appear here.',
} as const;


function TimelineEntries({ entries, variant }: { entries: TimelineEntry[]; variant: 'list' | 'enhanced' }) {
  const [filter, setFilter] = useState<TimelineFilter>('all');
  if (variant === 'list') {
    return (
      <ol className="flex flex-col gap-4" aria-label="Timeline">
        {entries.map((entry) => <TimelineEntryCard key={entry.id} entry={entry} />)}
      </ol>
    );
  }
  const counts = countByFilter(entries);
  const groups = groupByDay(entries.filter((e) => matchesFilter(e, filter)));
  return (
    <div className="flex flex-col gap-6">
      <div role="group" aria-label="Filter by type" className="flex flex-wrap items-center gap-2">
        <ListFilter aria-hidden="true" className="h-4 w-4 text-muted-foreground" />
        {TIMELINE_FILTERS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            aria-pressed={filter === id}
            onClick={() => setFilter(id)}
            className={cn('rounded-full border px-3 py-1 text-sm transition-colors', filter === id ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted')}
          >
            {label} <span className="tabular-nums opacity-80">({counts[id]})</span>
          </button>
        ))}
      </div>
      {groups.length === 0 ? <p className="text-muted-foreground">Nothing of this kind yet.</p> : null}
      {groups.map((group) => (
        <section key={group.day} aria-label={formatDayHeading(group.day)}>
          <h2 className="mb-3 flex items-center gap-2 font-serif text-xl font-semibold">
            <CalendarDays aria-hidden="true" className="h-5 w-5 text-primary" />
            {formatDayHeading(group.day)}
          </h2>
          <ol className="flex flex-col gap-4 border-l-2 border-primary/20 pl-4">
            {group.entries.map((entry) => <TimelineEntryCard key={entry.id} entry={entry} compactDate />)}
          </ol>
        </section>
      ))}
    </div>
  );
}

/**
 * The timeline (/timeline) and its day-by-day variant (/enhanced-timeline): recordings, letters and,
 * later, court documents, newest first. Essentials, pro, legacy and admins only; everyone else sees
 * the upgrade prompt (spec, sections 2, 4, 5, 8).
 */
export function TimelinePage({ variant = 'list' }: { variant?: 'list' | 'enhanced' }) {
  usePageTitle(variant === 'list' ? 'Timeline' : 'Enhanced Timeline');
  const { user, status } = useAuth();
  const allowed = canUseFeature(user, 'timeline');
  const timeline = useQuery({ queryKey: mediaKeys.timeline, queryFn: ({ signal }) => fetchTimeline(signal), enabled: allowed });

  let body;
  if (status !== 'authenticated' || !user) body = <p className="text-muted-foreground">{TIMELINE_TEXT.signedOut}</p>;
  else if (!allowed || (timeline.error instanceof ApiError && timeline.error.code === 'UPGRADE_REQUIRED')) body = <UpgradePrompt feature="timeline" />;
  else if (timeline.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-muted-foreground">
        <Spinner /> {TIMELINE_TEXT.loading}
      </p>
    );
  } else if (timeline.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="text-destructive">{TIMELINE_TEXT.loadFailed}</p>
        <Button variant="outline" onClick={() => void timeline.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (timeline.data.entries.length === 0) {
    body = (
      <div className="rounded-2xl border border-dashed border-border p-10 text-center">
        <p className="font-serif text-2xl font-semibold">{TIMELINE_TEXT.empty}</p>
        <p className="mt-2 text-muted-foreground">{TIMELINE_TEXT.emptyInvite}</p>
        <Link to="/record" className={buttonClasses({ className: 'mt-6' })}>
          Record a message
        </Link>
      </div>
    );
  } else {
    body = <TimelineEntries entries={timeline.data.entries} variant={variant} />;
  }

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">{variant === 'list' ? 'Your Timeline' : 'Your Timeline, Day by Day'}</h1>
          <p className="mt-2 text-muted-foreground">Everything you have saved for them, newest first.</p>
        </div>
        {allowed ? (
          <Link to={variant === 'list' ? '/enhanced-timeline' : '/timeline'} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
            {variant === 'list' ? 'Day by day' : 'Simple list'}
          </Link>
        ) : null}
      </header>
      {body}
    </div>
  );
}

export function EnhancedTimelinePage() {
  return <TimelinePage variant="enhanced" />;
}
