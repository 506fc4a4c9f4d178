import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AccessMessages, VIEWER_EMPTY_TEXTS, type ViewerEntry } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { fetchViewerEntries } from '../../api/access.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formatDateTime } from './access-format.js';
import { ViewerDisclaimer } from './ViewerDisclaimer.js';
import { consentAccepted, redeemWithConsent, rememberConsent, storeViewSession } from './viewer-session.js';

/** Runs `work` once, after the disclaimer when this browser has not accepted it yet. */
function useAfterConsent(ready: boolean, work: () => void) {
  const [asking, setAsking] = useState(() => ready && !consentAccepted());
  const ran = useRef(false);
  useEffect(() => {
    if (!ready || ran.current || !consentAccepted()) return;
    ran.current = true;
    work();
  }, [ready, work]);
  const disclaimer = (
    <ViewerDisclaimer
      open={asking}
      onCancel={() => setAsking(false)}
      onContinue={() => {
        setAsking(false);
        rememberConsent();
        ran.current = true;
        work();
      }}
    />
  );
  return { asking, disclaimer };
}

/** /redeem?key=…: redeems the key and goes on to the viewer with the session (spec 2, "Redeem pages"). */
export function RedeemPage() {
  usePageTitle('Redeeming Access Key');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const key = params.get('key')?.trim() ?? '';
  const [status, setStatus] = useState(key ? 'Checking your access key...' : AccessMessages.noKeyProvided);
  const work = useRef(async () => {
    try {
      const opened = await redeemWithConsent(key, params.get('owner'));
      if (!opened.session) return setStatus(AccessMessages.unexpectedResponse);
      storeViewSession(opened.session);
      void navigate(`/vault/view?session=${encodeURIComponent(opened.session)}`, { replace: true });
    } catch (error) {
      setStatus(error instanceof ApiError ? AccessMessages.redeemFailed(error.code === 'INVALID_OR_EXPIRED_KEY' ? AccessMessages.keyInvalid : error.body.message) : AccessMessages.redeemError(error instanceof Error ? error.message : AccessMessages.unknownError));
    }
  }).current;
  const { disclaimer } = useAfterConsent(!!key, () => void work());
  return (
    <main className="mx-auto max-w-xl space-y-4 px-4 py-16 text-center">
      <h1 className="font-serif text-3xl font-semibold">Redeeming Access Key</h1>
      <p role="status">{status}</p>
      {disclaimer}
    </main>
  );
}

/** /redeem/timeline?owner=…&k=…: the owner's timeline, read with a key link (spec 2). */
export function RedeemTimelinePage() {
  usePageTitle('Timeline');
  const [params] = useSearchParams();
  const owner = params.get('owner');
  const key = (params.get('k') ?? params.get('token'))?.trim() ?? '';
  const missing = !owner || !key;
  const [entries, setEntries] = useState<ViewerEntry[] | null>(null);
  const [error, setError] = useState<string | null>(missing ? AccessMessages.missingOwnerOrToken : null);
  const work = useRef(async () => {
    try {
      const opened = await redeemWithConsent(key, owner);
      storeViewSession(opened.session);
      setEntries(await fetchViewerEntries('timeline', opened.viewer_token));
    } catch (e) {
      setError(e instanceof ApiError && e.code === 'INVALID_OR_EXPIRED_KEY' ? AccessMessages.linkNoLongerValid : e instanceof ApiError ? e.body.message : AccessMessages.unknownError);
    }
  }).current;
  const { disclaimer } = useAfterConsent(!missing, () => void work());
  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-8">
      <h1 className="font-serif text-3xl font-semibold">Timeline</h1>
      {error ? <p role="alert">{error}</p> : entries === null ? <p>Loading…</p> : entries.length === 0 ? <p>{VIEWER_EMPTY_TEXTS.timeline}</p> : (
        <ul aria-label="Timeline" className="divide-y divide-border rounded-2xl border border-border bg-card">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap justify-between gap-2 px-4 py-3">
              <span className="font-medium">{entry.headline}</span>
              <time dateTime={entry.created_at} className="text-sm text-muted-foreground">{formatDateTime(entry.created_at)}</time>
            </li>
          ))}
        </ul>
      )}
      {disclaimer}
    </main>
  );
}
