import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { HeartHandshake, Mic, PenLine, Settings2, ShieldCheck, Users, UserRound } from 'lucide-react';
import { DELIVERY_TIMING_LABELS, IfImNotThereMessages as M } from '@lv/contracts';
import { fetchContacts, fetchDeliverySettings, ifImNotThereKeys } from '../../api/if-im-not-there.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { DeliverySettingsForm } from './DeliverySettingsForm.js';
import { DeliveryStatus } from './DeliveryStatus.js';
import { EmergencyContacts } from './EmergencyContacts.js';
import { FinalMessages } from './FinalMessages.js';
import { InactivityWatch } from './InactivityWatch.js';
import { TrusteeReportBanner } from './TrusteeReportBanner.js';
import { TrusteeReportHistory } from './TrusteeReportHistory.js';
import { Trustees } from './Trustees.js';

const SECTIONS = [
  { id: 'emergency-contacts', title: 'Emergency Contacts', Icon: Users },
  { id: 'trustees', title: 'Trustees', Icon: ShieldCheck },
  { id: 'final-messages', title: 'Final Messages', Icon: Mic },
  { id: 'delivery-settings', title: 'Delivery Settings', Icon: Settings2 },
  { id: 'your-legacy', title: 'Your Legacy', Icon: HeartHandshake },
] as const;

/**
 * If I'm Not There (/if-im-not-there and /gone): emergency contacts, final messages, delivery
 * settings and the legacy panel, with a shortcut bar on the right edge that scrolls to each. Everything
 * here is saved in the owner's vault (access-keys), not in this browser.
 */
export function IfImNotTherePage() {
  usePageTitle("If I'm Not There");
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10 lg:pr-24">
      <header>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">If I&apos;m Not There</h1>
        <p className="mt-2 text-muted-foreground">Who should be reached, what they should receive, and when. Everything here is kept in your vault.</p>
      </header>

      <TrusteeReportBanner />

      <ShortcutBar />

      <PageSection id="emergency-contacts" title="Emergency Contacts" description="The people to reach. Give each an access key to let them read your vault for 7 days.">
        <EmergencyContacts />
      </PageSection>

      <PageSection id="trustees" title="Trustees" description="The people who can tell us, one day, that you are not there.">
        <div className="flex flex-col gap-6">
          <Trustees />
          <TrusteeReportHistory />
        </div>
      </PageSection>

      <PageSection id="final-messages" title="Final Messages" description="Words for the people you love, in your own voice.">
        <FinalMessages />
      </PageSection>

      <PageSection id="delivery-settings" title="Delivery Settings" description="How and when your vault is handed over.">
        <div className="flex flex-col gap-6">
          <DeliveryStatus />
          <InactivityWatch />
          <SettingsLoader />
          <Link className="text-sm font-medium text-primary underline-offset-4 hover:underline" to="/test-vault-delivery">
            Test your delivery settings
          </Link>
        </div>
      </PageSection>

      <PageSection id="your-legacy" title="Your Legacy" description="What you are leaving, at a glance.">
        <LegacyPanel />
      </PageSection>
    </div>
  );
}

function PageSection({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-24">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 id={headingId} tabIndex={-1} className="outline-none">
              {title}
            </h2>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </section>
  );
}

/** The right-edge shortcut bar: each button scrolls to its section and moves focus to its heading. */
function ShortcutBar() {
  const go = (id: string) => {
    const section = document.getElementById(id);
    section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
  };
  return (
    <nav aria-label="Page sections" className="fixed top-1/2 right-3 z-30 hidden -translate-y-1/2 flex-col gap-2 rounded-2xl border border-border bg-card/95 p-2 shadow-lg lg:flex">
      {SECTIONS.map(({ id, title, Icon }) => (
        <Button key={id} variant="ghost" size="icon" aria-label={title} title={title} onClick={() => go(id)}>
          <Icon aria-hidden="true" className="h-5 w-5" />
        </Button>
      ))}
    </nav>
  );
}

function SettingsLoader() {
  const settings = useQuery({ queryKey: ifImNotThereKeys.settings, queryFn: ({ signal }) => fetchDeliverySettings(signal) });
  if (settings.isPending) return <Spinner label="Loading delivery settings…" />;
  if (settings.isError) return <LoadFailed message={M.loadSettingsFailed} onRetry={() => void settings.refetch()} />;
  return <DeliverySettingsForm saved={settings.data} />;
}

/** The legacy panel: what is set up, from the same data as the sections above, and where to add more. */
function LegacyPanel() {
  const contacts = useQuery({ queryKey: ifImNotThereKeys.contacts, queryFn: ({ signal }) => fetchContacts(signal) });
  const settings = useQuery({ queryKey: ifImNotThereKeys.settings, queryFn: ({ signal }) => fetchDeliverySettings(signal) });
  const withKeys = contacts.data?.filter((c) => c.has_access_key).length;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid gap-3 sm:grid-cols-3">
        <Fact label="Emergency contacts" value={contacts.data ? String(contacts.data.length) : '…'} />
        <Fact label="With an access key" value={withKeys === undefined ? '…' : String(withKeys)} />
        <Fact label="Delivery" value={settings.data ? DELIVERY_TIMING_LABELS[settings.data.delivery_timing] : '…'} />
      </dl>
      <ul className="flex flex-wrap gap-2" aria-label="Add to your legacy">
        <li>
          <Link to="/letters" className="inline-flex items-center gap-2 rounded-xl border border-border px-3 py-2 text-sm hover:bg-muted">
            <PenLine aria-hidden="true" className="h-4 w-4" /> Write a Letter
          </Link>
        </li>
        <li>
          <Link to="/whoiam" className="inline-flex items-center gap-2 rounded-xl border border-border px-3 py-2 text-sm hover:bg-muted">
            <UserRound aria-hidden="true" className="h-4 w-4" /> Who I Am
          </Link>
        </li>
        <li>
          <Link to="/record" className="inline-flex items-center gap-2 rounded-xl border border-border px-3 py-2 text-sm hover:bg-muted">
            <Mic aria-hidden="true" className="h-4 w-4" /> Record a Message
          </Link>
        </li>
      </ul>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl bg-muted/60 p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="font-serif text-2xl font-semibold">{value}</dd>
    </div>
  );
}
