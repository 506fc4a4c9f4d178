import { useMemo } from 'react';
import { Tabs } from 'radix-ui';
import { VIEW_SECTIONS, VIEWER_TAB_LABELS } from '@lv/contracts';
import { Button } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { OpenWithKeyCard } from './OpenWithKeyCard.js';
import { useViewSession } from './use-view-session.js';
import { ViewerSection } from './ViewerSections.js';
import type { ViewerAccess } from './use-viewer-read.js';

const tabClass = 'rounded-lg px-3 py-2 text-sm font-medium data-[state=active]:bg-card data-[state=active]:shadow-sm';

/**
 * The read-only viewer (/vault/view, spec 2): the five tabs of the vault a key opened, for a family
 * member without an account. It can read, never write, and only this owner's vault.
 */
export function VaultViewerPage() {
  usePageTitle('Vault (read-only)');
  const { state, asking, disclaimer, viewerToken, clear, tryAgain, reauthorize, ended, resume } = useViewSession();
  const session = state.kind === 'ready' ? state.session : null;
  const access = useMemo<ViewerAccess | null>(() => (session ? { session, viewerToken, reauthorize, onEnded: ended } : null), [session, viewerToken, reauthorize, ended]);

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
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
      {state.kind === 'none' && (
        // No session, or access just cleared: the way on is another key, pasted here (issue 28).
        <div className="space-y-4">
          <p role="status">{state.message}</p>
          <OpenWithKeyCard initialKey="" ownerId={null} onOpened={resume} />
        </div>
      )}
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
              {access && <ViewerSection access={access} section={section} scopes={state.grant.scopes} {...(state.grant.letter_id ? { letterId: state.grant.letter_id } : {})} />}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
      {disclaimer}
    </div>
  );
}
