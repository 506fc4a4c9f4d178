import { useCallback, useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { showToast } from '../../lib/toast.js';
import {
  Clock,
  HeartHandshake,
  Headphones,
  KeyRound,
  LifeBuoy,
  Mic,
  PenLine,
  Scale,
  Settings,
  UserRound,
  Video,
} from 'lucide-react';
import { canUseFeature, CommunityMessages, REFLECTION_MAX, ReflectionMessages, type Reflection } from '@lv/contracts';
import { fetchReflection, fetchVaultStats, saveReflection } from '../../api/vault.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Label, Textarea } from '../../components/ui/input.js';
import { cn } from '../../lib/cn.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { useRequest } from '../../queries/use-request.js';
import { firstName } from '../../shell/initials.js';
import { requestsWaitingLabel, usePendingRequestCount } from '../../shell/use-pending-count.js';
import { onReflectionMigrated } from './reflection-migration.js';
import { TodaysTrackLoader } from './TodaysTrackLoader.js';
import { computeVaultTiles, REMEMBER_QUOTES } from './vault-stats.js';
import { VaultHomeIntro } from './VaultHomeIntro.js';

type Icon = ComponentType<{ className?: string }>;

const QUICK_ACTIONS: { label: string; to: string; Icon: Icon }[] = [
  { label: 'Record Video Message', to: '/record', Icon: Video },
  { label: 'Write a Letter', to: '/letters', Icon: PenLine },
  { label: 'Record Voice Note', to: '/record?type=audio', Icon: Mic },
  { label: 'Join Parent Circle', to: '/parent-community', Icon: HeartHandshake },
];

const SHORTCUTS: { label: string; to: string; Icon: Icon }[] = [
  { label: 'Court Journal', to: '/court-journal', Icon: Scale },
  { label: 'Who Am I', to: '/whoiam', Icon: UserRound },
  { label: 'Request Keys', to: '/access-control', Icon: KeyRound },
  { label: "If I'm Not Here", to: '/if-im-not-there', Icon: LifeBuoy },
  { label: 'Settings', to: '/settings', Icon: Settings },
  { label: 'Timeline', to: '/timeline', Icon: Clock },
];

/**
 * "Today's Healing Music": Listen Now plays today's track of the Parent Circle's music library (the
 * playlist's), says plainly when the library is empty, and shows the community's upgrade notice to
 * members whose plan does not include it.
 */
function HealingMusic() {
  const { user } = useAuth();
  const allowed = canUseFeature(user, 'community');
  const [listening, setListening] = useState(false);
  let body = null;
  if (!listening) body = null;
  else if (!allowed) {
    body = (
      <p className="text-sm" role="note">
        {CommunityMessages.upgrade}{' '}
        <Link to="/pricing" className="font-medium underline underline-offset-2">
          See the plans
        </Link>
      </p>
    );
  } else {
    // Loaded when pressed, with TanStack Query: the page itself reads without it (issue 10, first load).
    body = <TodaysTrackLoader />;
  }
  return (
    <Card className="bg-accent text-accent-foreground">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Headphones aria-hidden="true" className="h-5 w-5" />
          Today&apos;s Healing Music
        </CardTitle>
        <CardDescription className="text-accent-foreground/80">A few quiet minutes for you, before you record or write.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Button variant={listening ? 'secondary' : 'primary'} aria-pressed={listening} className="self-start" onClick={() => setListening((v) => !v)}>
          Listen Now
        </Button>
        {body}
      </CardContent>
    </Card>
  );
}

/** The vault home ("Welcome Back", /vault). */
export function VaultHomePage() {
  usePageTitle('Your Vault');
  const { user } = useAuth();
  const name = firstName(user?.full_name);
  const thoughtsId = useId();
  const pendingRequests = usePendingRequestCount(user?.id ?? null);

  // The reflection is kept in the user's vault (letters service, encrypted at rest), never in this
  // browser: `savedThoughts` is what the vault holds, `thoughts` what the box shows. They differ
  // while the user has typed something not saved yet ("Unsaved changes", via data-saved-value).
  const reflection = useRequest(fetchReflection);
  const [savedThoughts, setSavedThoughts] = useState('');
  const [thoughts, setThoughts] = useState('');
  const saved = useRef('');
  // The box opens for typing once it shows the vault's text (or the vault could not be read), not the
  // moment the answer arrives: typing in between would be merged with the text arriving.
  const [shownFromVault, setShownFromVault] = useState(false);

  const adopt = useCallback((next: Reflection, submitted?: string) => {
    const previous = saved.current;
    saved.current = next.text;
    setSavedThoughts(next.text);
    setShownFromVault(true);
    // Show the vault's text unless the user is typing something else (kept, still unsaved).
    setThoughts((current) => (current === previous || current === submitted ? next.text : current));
  }, []);

  useEffect(() => {
    // Adopting the loaded reflection merges it with what the user is typing (a functional update,
    // and the `saved` ref): that cannot be derived while rendering.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (reflection.data) adopt(reflection.data);
  }, [reflection.data, adopt]);

  const reflectionReady = shownFromVault || reflection.status === 'error';

  const stats = useRequest(fetchVaultStats);
  const tiles = computeVaultTiles({ status: stats.status, data: stats.data }, savedThoughts);
  const reloadStats = stats.reload;

  // An old browser-local reflection moved into the vault after this page loaded its own.
  useEffect(
    () =>
      onReflectionMigrated((migrated) => {
        adopt(migrated);
        reloadStats();
      }),
    [adopt, reloadStats],
  );

  const [saving, setSaving] = useState(false);
  const save = async (text: string) => {
    setSaving(true);
    try {
      const result = await saveReflection(text);
      adopt(result, text);
      reloadStats();
      showToast((toast) => toast.success(ReflectionMessages.saved));
    } catch {
      // The typed text stays in the box (and stays flagged as unsaved) for another try.
      showToast((toast) => toast.error(ReflectionMessages.saveFailed, { description: ReflectionMessages.tryAgain }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 py-10">
      <VaultHomeIntro name={name} tiles={tiles} />

      {pendingRequests ? (
        <Link
          to="/access-control"
          className="flex items-center gap-3 self-start rounded-xl border border-primary/40 bg-primary/10 px-4 py-3 text-sm font-medium text-primary transition hover:bg-primary/15 focus-visible:outline-2 focus-visible:outline-ring"
        >
          <KeyRound aria-hidden="true" className="h-5 w-5 shrink-0" />
          {requestsWaitingLabel(pendingRequests)}
        </Link>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[1.4fr_1fr]">
        <Card>
          <CardHeader>
            <CardTitle>Thoughts &amp; Feelings</CardTitle>
            <CardDescription>A private space for what is on your mind today. Only you can read it.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Label htmlFor={thoughtsId} className="sr-only">
              Thoughts &amp; Feelings
            </Label>
            <Textarea
              id={thoughtsId}
              value={thoughts}
              onChange={(e) => setThoughts(e.target.value)}
              placeholder="Write freely. Nobody else will see this."
              rows={6}
              maxLength={REFLECTION_MAX}
              // Until it shows the vault's text (reflectionReady), so nothing typed is merged with it.
              disabled={!reflectionReady}
              aria-busy={!reflectionReady || undefined}
              data-saved-value={savedThoughts}
            />
            <Button className="self-start" onClick={() => void save(thoughts)} disabled={!reflectionReady || saving}>
              Save Reflection
            </Button>
          </CardContent>
        </Card>

        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Quick Actions</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-2">
                {QUICK_ACTIONS.map(({ label, to, Icon }) => (
                  <li key={label}>
                    <Link
                      to={to}
                      className="flex items-center gap-3 rounded-xl border border-border px-4 py-3 text-sm font-medium transition hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      <Icon aria-hidden="true" className="h-5 w-5 text-primary" />
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>

          <HealingMusic />
        </div>
      </div>

      <figure aria-labelledby="remember-title" className="rounded-3xl border border-border bg-card p-8 text-center shadow-sm">
        <h2 id="remember-title" className="text-sm font-semibold tracking-widest text-primary uppercase">
          Remember
        </h2>
        <blockquote className="mt-3 font-serif text-2xl leading-snug text-balance">
          <p>“{REMEMBER_QUOTES[0]}”</p>
        </blockquote>
      </figure>

      <section aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" className="font-serif text-2xl font-semibold">
          More in your vault
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {SHORTCUTS.map(({ label, to, Icon }) => (
            <li key={label}>
              <Link
                to={to}
                className={cn(
                  'flex h-full flex-col items-center gap-2 rounded-2xl border border-border bg-card p-4 text-center text-sm font-medium shadow-sm transition',
                  'hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                )}
              >
                <Icon aria-hidden="true" className="h-6 w-6 text-primary" />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
