import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { CalendarDays, FileText, Quote, Video } from 'lucide-react';
import { usePageTitle } from '../../lib/use-page-title.js';
import type { VaultTiles } from './vault-stats.js';

type Icon = ComponentType<{ className?: string }>;

function StatTile({ label, value, to, Icon }: { label: string; value: number | null; to: string; Icon: Icon }) {
  return (
    <Link
      to={to}
      className="flex items-center gap-4 rounded-2xl border border-border bg-card p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <span aria-hidden="true" className="grid h-12 w-12 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary">
        <Icon className="h-6 w-6" />
      </span>
      <span className="flex flex-col">
        {value === null ? (
          // As tall as the number it stands for (text-3xl, leading-none), so nothing moves when it arrives.
          <span className="h-[1.875rem] w-10 animate-pulse rounded-md bg-muted" aria-hidden="true" />
        ) : (
          <span className="font-serif text-3xl leading-none font-semibold" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
            {value}
          </span>
        )}
        <span className="mt-1 text-sm text-muted-foreground">{label}</span>
      </span>
    </Link>
  );
}

/** The top of the vault home: the welcome and the four stat tiles (empty until `tiles` is known). */
export function VaultHomeIntro({ name, tiles }: { name: string | null; tiles: VaultTiles | null }) {
  return (
    <>
      <header>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">{name ? `Welcome Back, ${name}` : 'Welcome Back'}</h1>
        <p className="mt-2 text-muted-foreground">Your private vault. Everything here is for you and the people you choose.</p>
      </header>

      <section aria-labelledby="stats-title">
        <h2 id="stats-title" className="sr-only">
          Your vault at a glance
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy={tiles === null || undefined}>
          <StatTile label="Videos Saved" value={tiles?.videosSaved ?? null} to="/record" Icon={Video} />
          <StatTile label="Letters Written" value={tiles?.lettersWritten ?? null} to="/letters" Icon={FileText} />
          <StatTile label="Thoughts Saved" value={tiles?.thoughtsSaved ?? null} to="/vault" Icon={Quote} />
          <StatTile label="Days Active" value={tiles?.daysActive ?? null} to="/timeline" Icon={CalendarDays} />
        </div>
      </section>
    </>
  );
}

/**
 * The vault home while the session loads (app/route-placeholders.ts): its top, with nothing of the
 * user's yet. Painted, but inert and hidden from assistive technology: a screen reader hears "Opening
 * your vault…" and then the page itself, and nothing in it can be focused or followed before the
 * session is known.
 */
export function VaultHomePlaceholder() {
  usePageTitle('Your Vault');
  return (
    // At least a screen tall: the page that follows is, so the footer never shows and then jumps away.
    <div className="mx-auto flex min-h-dvh max-w-6xl flex-col gap-10 px-4 py-10">
      <span role="status" aria-label="Loading" className="sr-only">
        Opening your vault…
      </span>
      <div inert aria-hidden="true" className="contents">
        <VaultHomeIntro name={null} tiles={null} />
      </div>
    </div>
  );
}
