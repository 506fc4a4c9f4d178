import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AccessMessages, type ViewerTokenGrant } from '@lv/contracts';
import { closeViewSession, exchangeViewSession } from '../../api/access.js';
import {
  consentAccepted, keyFromParams, redeemWithConsent, rememberConsent, renewDelay, storedViewSession, storeViewSession, viewerErrorText,
} from './viewer-session.js';

export type ViewerState =
  | { kind: 'opening' }
  | { kind: 'consent'; key: string; owner: string | null }
  | { kind: 'ready'; session: string; grant: ViewerTokenGrant }
  | { kind: 'error'; message: string }
  | { kind: 'none'; message: string };

/**
 * The viewer's view session (spec 4, "View session"): a key or link token in the address is redeemed
 * (after the disclaimer, the first time) for a session, the address is rewritten to carry only the
 * session, and the session is reused on later loads. Its 15-minute viewer token is renewed a minute
 * before it expires; the server re-checks the session every time.
 */
/** What the address (or this tab's storage) asks for when the viewer opens. */
type Start = { kind: 'session'; session: string } | { kind: 'key'; key: string; owner: string | null } | { kind: 'none' };

function startFrom(params: URLSearchParams): Start {
  const session = params.get('session');
  if (session) return { kind: 'session', session };
  const key = keyFromParams(params);
  if (key) return { kind: 'key', key, owner: params.get('owner') };
  const stored = storedViewSession();
  return stored ? { kind: 'session', session: stored } : { kind: 'none' };
}

export function useViewSession() {
  const [params, setParams] = useSearchParams();
  const [start] = useState(() => startFrom(params));
  const [state, setState] = useState<ViewerState>(() =>
    start.kind === 'none' ? { kind: 'none', message: AccessMessages.noViewSession }
      : start.kind === 'key' && !consentAccepted() ? { kind: 'consent', key: start.key, owner: start.owner }
        : { kind: 'opening' });
  const started = useRef(false);

  /** Trades the session's secret for a fresh viewer token (on opening, and to renew it). */
  const open = useCallback((session: string) =>
    exchangeViewSession(session).then(
      (grant) => {
        storeViewSession(session);
        setState({ kind: 'ready', session, grant });
      },
      (error: unknown) => {
        storeViewSession(null);
        setState({ kind: 'error', message: viewerErrorText(error) });
      },
    ), []);

  const redeem = useCallback((key: string, owner: string | null) =>
    redeemWithConsent(key, owner).then(
      (opened) => {
        if (!opened.session) return setState({ kind: 'error', message: AccessMessages.noSessionId });
        storeViewSession(opened.session);
        // The address carries only the session from now on, never the key.
        setParams({ session: opened.session }, { replace: true });
        setState({ kind: 'ready', session: opened.session, grant: opened });
      },
      (error: unknown) => setState({ kind: 'error', message: viewerErrorText(error) }),
    ), [setParams]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (start.kind === 'session') {
      if ([...params.keys()].some((name) => name !== 'session') || params.get('session') !== start.session) setParams({ session: start.session }, { replace: true });
      void open(start.session);
    } else if (start.kind === 'key' && consentAccepted()) {
      void redeem(start.key, start.owner);
    }
  }, [start, params, setParams, open, redeem]);

  // Renew the viewer token before it expires.
  const ready = state.kind === 'ready' ? state : null;
  useEffect(() => {
    if (!ready) return;
    const timer = window.setTimeout(() => void open(ready.session), renewDelay(ready.grant));
    return () => window.clearTimeout(timer);
  }, [ready, open]);

  const accept = useCallback(() => {
    if (state.kind !== 'consent') return;
    rememberConsent();
    setState({ kind: 'opening' });
    void redeem(state.key, state.owner);
  }, [state, redeem]);

  const decline = useCallback(() => setState({ kind: 'none', message: AccessMessages.consentRequired }), []);

  /** Clear access: the session ends on the server too, and this browser forgets it. */
  const clear = useCallback(async () => {
    const session = state.kind === 'ready' ? state.session : params.get('session') ?? storedViewSession();
    if (session) await closeViewSession(session).catch(() => undefined);
    storeViewSession(null);
    setParams({}, { replace: true });
    setState({ kind: 'none', message: AccessMessages.accessCleared });
  }, [state, params, setParams]);

  /** A viewer call said the session ended: show it, forget the session. */
  const ended = useCallback((message: string) => {
    storeViewSession(null);
    setState({ kind: 'error', message });
  }, []);

  return { state, accept, decline, clear, ended };
}
