import { useSearchParams, useLocation, useNavigate } from 'react-router-dom';
import { Tabs } from 'radix-ui';
import { Heart } from 'lucide-react';
import { useAuth } from '../../auth/AuthProvider.js';
import { appSession } from '../../api/app-session.js';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { GenerateKeysPanel } from './GenerateKeysPanel.js';
import { OpenWithKeyCard } from './OpenWithKeyCard.js';
import { LinkedRequestForm } from './LinkedRequestForm.js';
import { KeyLanding } from './KeyLanding.js';
import { useLinkSecrets } from './link-secrets.js';

const tabClass = 'rounded-lg px-4 py-2 text-sm font-medium data-[state=active]:bg-card data-[state=active]:shadow-sm';

/**
 * Family Access Management (/access, /request and /access-request and their sub-paths, /access-key): a
 * family member asks for access (from the owner's request link, ?owner=, see LinkedRequestForm) or
 * opens the vault with a key; the owner generates keys. /access-key opens on Generate Keys.
 * Opened from a key e-mail (`#k=`), the page first says whose vault the key opens, with Open vault
 * ready, or why the key no longer works (KeyLanding); the key leaves the address at once.
 */
export function AccessPage() {
  usePageTitle('Family Access');
  const { user } = useAuth();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const link = useLinkSecrets();
  const linkOwner = link.owner ?? params.get('owner');
  const ownerId = linkOwner ?? user?.id ?? null;
  const tab = pathname.startsWith('/access-key') ? 'keys' : 'request';

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <h1 className="font-serif text-3xl font-semibold">Family Access</h1>
      {link.key && tab === 'request' && <KeyLanding accessKey={link.key} ownerId={linkOwner} />}
      <Tabs.Root value={tab} onValueChange={(next) => void navigate(next === 'keys' ? '/access-key' : `/access${params.size ? `?${params.toString()}` : ''}`)}>
        <Tabs.List aria-label="Family access" className="inline-flex gap-1 rounded-xl bg-muted p-1">
          <Tabs.Trigger value="request" className={tabClass}>Request Access</Tabs.Trigger>
          <Tabs.Trigger value="keys" className={tabClass}>Generate Keys</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="request" className="mt-6 grid gap-6 md:grid-cols-[3fr_2fr]">
          <Card>
            <CardContent className="pt-6">
              <LinkedRequestForm linkOwner={linkOwner} ownerId={ownerId} signedInEmail={user?.email ?? null} token={appSession.getAccessToken()} />
            </CardContent>
          </Card>
          <div className="space-y-6">
            {!link.key && <OpenWithKeyCard initialKey="" ownerId={params.get('owner')} />}
            <Card>
              <CardHeader><CardTitle className="flex items-center gap-2"><Heart aria-hidden="true" className="h-5 w-5 text-primary" />For Children & Family</CardTitle></CardHeader>
              <CardContent>
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  <li>Personal video messages</li>
                  <li>Written letters and notes</li>
                  <li>Photo memories and stories</li>
                </ul>
              </CardContent>
            </Card>
          </div>
        </Tabs.Content>
        <Tabs.Content value="keys" className="mt-6">
          <GenerateKeysPanel />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
