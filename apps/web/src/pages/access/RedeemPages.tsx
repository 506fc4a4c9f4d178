import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccessMessages, VIEWER_EMPTY_TEXTS, type ViewerEntry } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { fetchViewerEntries } from '../../api/access.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formatDateTime } from './access-format.js';
import { useLinkSecrets } from './link-secrets.js';
import { useKeyRedemption } from './use-key-redemption.js';

/** Starts `redeem` once, when the page has what it needs. */
function useOnce(ready: boolean, run: () => void) {
  const ran = useRef(false);
  useEffect(() => {
    if (!ready || ran.current) return;
    ran.current = true;
    run();
  }, [ready, run]);
}

/** /redeem?key=…: redeems the key and goes on to the viewer with the session (spec 2, "Redeem pages"). */
export function RedeemPage() {
  usePageTitle('Redeeming Access Key');
  // The key is read once and taken out of the address (issue 29).
  const { key: linkKey, owner } = useLinkSecrets();
  const navigate = useNavigate();
  const key = linkKey ?? '';
  const [status, setStatus] = useState(key ? 'Checking your access key...' : AccessMessages.noKeyProvided);
  const { redeem, disclaimer } = useKeyRedemption({
    opened: (opened) => {
      if (!opened.session) return setStatus(AccessMessages.unexpectedResponse);
      // The session was kept for this tab (useKeyRedemption); the address never carries it.
      void navigate('/vault/view', { replace: true });
    },
    failed: (error) =>
      setStatus(error instanceof ApiError
        ? AccessMessages.redeemFailed(error.code === 'INVALID_OR_EXPIRED_KEY' ? AccessMessages.keyInvalid : error.body.message)
        : AccessMessages.redeemError(error instanceof Error ? error.message : AccessMessages.unknownError)),
    declined: () => setStatus(AccessMessages.consentRequired),
  });
  useOnce(!!key, () => void redeem(key, owner));
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-16 text-center">
      <h1 className="font-serif text-3xl font-semibold">Redeeming Access Key</h1>
      <p role="status">{status}</p>
      {disclaimer}
    </div>
  );
}

/** /redeem/timeline?owner=…&k=…: the owner's timeline, read with a key link (spec 2). */
export function RedeemTimelinePage() {
  usePageTitle('Timeline');
  const { key: linkKey, owner } = useLinkSecrets();
  const key = linkKey ?? '';
  const missing = !owner || !key;
  const [entries, setEntries] = useState<ViewerEntry[] | null>(null);
  const [error, setError] = useState<string | null>(missing ? AccessMessages.missingOwnerOrToken : null);
  const failed = (e: unknown) =>
    setError(e instanceof ApiError && e.code === 'INVALID_OR_EXPIRED_KEY' ? AccessMessages.linkNoLongerValid : e instanceof ApiError ? e.body.message : e instanceof Error ? e.message : AccessMessages.unknownError);
  const { redeem, disclaimer } = useKeyRedemption({
    opened: (opened) => void fetchViewerEntries('timeline', opened.viewer_token).then(setEntries, failed),
    failed,
    declined: () => setError(AccessMessages.consentRequired),
  });
  useOnce(!missing, () => void redeem(key, owner));
  return (
    <div className="mx-auto max-w-3xl space-y-4 px-4 py-8">
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
    </div>
  );
}
