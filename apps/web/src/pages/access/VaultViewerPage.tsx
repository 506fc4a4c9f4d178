import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { AccessMessages, VIEW_SECTIONS, VIEWER_EMPTY_TEXTS, VIEWER_TAB_LABELS, type ViewerTokenGrant, type ViewSection } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { fetchReleasedLetter, fetchViewerEntries } from '../../api/access.js';
import { LetterText } from '../letters/LetterDialogs.js';
import { Button } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formatDateTime } from './access-format.js';
import { useViewSession } from './use-view-session.js';
import { viewerErrorText } from './viewer-session.js';

const tabClass = 'rounded-lg px-3 py-2 text-sm font-medium data-[state=active]:bg-card data-[state=active]:shadow-sm';

interface SectionProps {
  section: ViewSection;
  grant: ViewerTokenGrant;
  viewerToken: () => string;
  reauthorize: () => Promise<boolean>;
  onEnded: (error: unknown) => void;
}

function SectionEntries({ section, grant, viewerToken, reauthorize, onEnded }: SectionProps) {
  const shared = grant.scopes.includes(section);
  // A milestone key opens one letter, released to its recipient: its Letters tab shows that letter whole.
  const oneLetter = section === 'letters' && grant.letter_id ? grant.letter_id : null;
  const entries = useQuery({
    queryKey: ['view', grant.session_id, section, oneLetter],
    queryFn: async ({ signal }) => (oneLetter ? fetchReleasedLetter(viewerToken(), signal) : fetchViewerEntries(section, viewerToken(), signal)),
    enabled: shared,
    retry: (count, error) => !(error instanceof ApiError && error.isClientError) && count < 2,
  });
  const { refetch, isSuccess } = entries;
  // Refused as unauthenticated: once, the token may only have lapsed, so renew it and read again;
  // refused again, the session is over and the whole viewer says so, not one tab.
  const refused = entries.error instanceof ApiError && entries.error.status === 401 ? entries.error : null;
  const renewed = useRef(false);
  useEffect(() => {
    if (isSuccess) renewed.current = false;
  }, [isSuccess]);
  useEffect(() => {
    if (!refused) return;
    if (renewed.current) return onEnded(refused);
    renewed.current = true;
    void reauthorize().then((ok) => {
      if (ok) void refetch();
    });
  }, [refused, onEnded, reauthorize, refetch]);
  if (!shared) return <p>{AccessMessages.sectionNotShared}</p>;
  if (entries.isPending || refused) return <p className="flex items-center gap-2"><Spinner className="h-4 w-4" />Loading…</p>;
  if (entries.isError) return <p role="alert" className="text-destructive">Error: {viewerErrorText(entries.error)}</p>;
  if (!Array.isArray(entries.data)) {
    return (
      <article aria-labelledby="released-letter-title" className="space-y-3 rounded-2xl border border-border bg-card p-5">
        <h2 id="released-letter-title" className="font-serif text-2xl font-semibold break-words">{entries.data.title}</h2>
        <LetterText content={entries.data.content} />
      </article>
    );
  }
  if (entries.data.length === 0) return <p>{VIEWER_EMPTY_TEXTS[section]}</p>;
  return (
    <ul aria-label={VIEWER_TAB_LABELS[section]} className="divide-y divide-border rounded-2xl border border-border bg-card">
      {entries.data.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
          <span className="font-medium">{entry.headline}</span>
          <time dateTime={entry.created_at} className="text-sm text-muted-foreground">{formatDateTime(entry.created_at)}</time>
        </li>
      ))}
    </ul>
  );
}

/**
 * The read-only viewer (/vault/view, spec 2): the five tabs of the vault a key opened, for a family
 * member without an account. It can read, never write, and only this owner's vault.
 */
export function VaultViewerPage() {
  usePageTitle('Vault (read-only)');
  const { state, asking, disclaimer, viewerToken, clear, tryAgain, reauthorize, ended } = useViewSession();

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-3xl font-semibold">Vault (read-only)</h1>
          {state.kind === 'ready' && <p className="font-mono text-sm text-muted-foreground" aria-label="View session">{state.grant.session_id.slice(0, 8)}</p>}
        </div>
        {(state.kind === 'ready' || state.kind === 'error') && <Button variant="outline" onClick={() => void clear()}>Clear access</Button>}
      </div>

      {state.kind === 'opening' && !asking && (
        <div role="status" className="space-y-1">
          <p className="flex items-center gap-2 font-medium"><Spinner className="h-4 w-4" />Opening vault…</p>
          <p className="text-sm text-muted-foreground">Validating access key and creating your 30-day view…</p>
        </div>
      )}
      {state.kind === 'none' && <p role="status">{state.message}</p>}
      {state.kind === 'error' && (
        <section aria-labelledby="vault-access-error" className="space-y-3 rounded-2xl border border-destructive/40 bg-destructive/10 p-5">
          <h2 id="vault-access-error" className="font-semibold">Vault access</h2>
          <p role="alert">Error: {state.message}</p>
          <Button variant="outline" onClick={() => void tryAgain()}>Clear Access / Try Again</Button>
        </section>
      )}
      {state.kind === 'ready' && (
        <Tabs.Root defaultValue={VIEW_SECTIONS.find((s) => state.grant.scopes.includes(s)) ?? 'timeline'}>
          <Tabs.List aria-label="Vault sections" className="flex flex-wrap gap-1 rounded-xl bg-muted p-1">
            {VIEW_SECTIONS.map((section) => <Tabs.Trigger key={section} value={section} className={tabClass}>{VIEWER_TAB_LABELS[section]}</Tabs.Trigger>)}
          </Tabs.List>
          {VIEW_SECTIONS.map((section) => (
            <Tabs.Content key={section} value={section} className="mt-4">
              <SectionEntries section={section} grant={state.grant} viewerToken={viewerToken} reauthorize={reauthorize} onEnded={ended} />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
      {disclaimer}
    </main>
  );
}
