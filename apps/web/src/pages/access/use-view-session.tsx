import { useCallback, useEffect, useRef, useState } from 'react';
import { AccessMessages, type OpenedViewSession, type ViewerTokenGrant } from '@lv/contracts';
import { closeViewSession, exchangeViewSession } from '../../api/access.js';
import { useKeyRedemption } from './use-key-redemption.js';
import { useLinkSecrets, type LinkSecrets } from './link-secrets.js';
import { renewDelay, sessionEnded, storedViewSession, storeViewSession, viewerErrorText } from './viewer-session.js';

export type ViewerState =
  | { kind: 'opening' }
  | { kind: 'ready'; session: string; grant: ViewerTokenGrant }
  /** `retry` is the session to open again when the failure was not the session ending. */
  | { kind: 'error'; message: string; retry: string | null }
  | { kind: 'none'; message: string };

/** What the address (or this tab's storage) asks for when the viewer opens. */
type Start = { kind: 'session'; session: string } | { kind: 'key'; key: string; owner: string | null } | { kind: 'none' };

function startFrom({ session, key, owner }: LinkSecrets): Start {
  if (session) return { kind: 'session', session };
  if (key) return { kind: 'key', key, owner };
  const stored = storedViewSession();
  return stored ? { kind: 'session', session: stored } : { kind: 'none' };
}

/** How long to wait before asking again for a viewer token after a failure that did not end the session. */
const RENEW_RETRY_MS = 15_000;

/**
 * The viewer's view session (spec 4, "View session"): a key or link token in the address is redeemed
 * (after the disclaimer, the first time) for a session, kept in this tab's sessionStorage and reused
 * on later loads. The address never carries it (issue 29): a link's key or `?session=` is read once
 * and taken out of the address at once (useLinkSecrets). Its 15-minute viewer token is renewed a minute
 * before it expires; the server re-checks the session every time. Only the server saying the session
 * is over ends the viewer: a lost connection or a token that lapsed while the computer slept does not.
 */
export function useViewSession() {
  const secrets = useLinkSecrets();
  const [start] = useState(() => startFrom(secrets));
  const [state, setState] = useState<ViewerState>(() => (start.kind === 'none' ? { kind: 'none', message: AccessMessages.noViewSession } : { kind: 'opening' }));
  const started = useRef(false);
  // The token reads carry: written when a grant arrives, so a read retried right after a renewal uses it.
  const token = useRef<string | null>(null);
  const show = useCallback((session: string, grant: ViewerTokenGrant) => {
    token.current = grant.viewer_token;
    setState({ kind: 'ready', session, grant });
  }, []);
  const viewerToken = useCallback(() => token.current ?? '', []);

  const fail = useCallback((error: unknown, session: string | null) => {
    const ended = sessionEnded(error);
    if (ended) storeViewSession(null);
    setState({ kind: 'error', message: viewerErrorText(error), retry: ended ? null : session });
  }, []);

  /** Trades the session's secret for a viewer token (on opening, and on Try Again). */
  const open = useCallback((session: string) =>
    exchangeViewSession(session).then(
      (grant) => {
        storeViewSession(session);
        show(session, grant);
      },
      (error: unknown) => fail(error, session),
    ), [fail, show]);

  const { redeem, asking, disclaimer } = useKeyRedemption({
    opened: (opened) => {
      if (!opened.session) return setState({ kind: 'error', message: AccessMessages.noSessionId, retry: null });
      show(opened.session, opened);
    },
    failed: (error) => fail(error, null),
    declined: () => setState({ kind: 'none', message: AccessMessages.consentRequired }),
  });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (start.kind === 'session') {
      void open(start.session);
    } else if (start.kind === 'key') {
      void redeem(start.key, start.owner);
    }
  }, [start, open, redeem]);

  // Renew the viewer token before it expires; a failure that leaves the session alive is retried.
  const ready = state.kind === 'ready' ? state : null;
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    let timer: number;
    const renew = () =>
      exchangeViewSession(ready.session).then(
        (grant) => !cancelled && show(ready.session, grant),
        (error: unknown) => {
          if (cancelled) return;
          if (sessionEnded(error)) fail(error, null);
          else timer = window.setTimeout(() => void renew(), RENEW_RETRY_MS);
        },
      );
    timer = window.setTimeout(() => void renew(), renewDelay(ready.grant));
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [ready, fail, show]);

  /**
   * A read was refused as unauthenticated. The viewer token may only have lapsed (a laptop asleep
   * past its renewal), so ask the session for a new one: true when reading may go on.
   */
  const reauthorize = useCallback(async (): Promise<boolean> => {
    if (!ready) return false;
    try {
      const grant = await exchangeViewSession(ready.session);
      show(ready.session, grant);
      return true;
    } catch (error) {
      fail(error, ready.session);
      return false;
    }
  }, [ready, fail, show]);

  /** Clear access: the session ends on the server too, and this browser forgets it. */
  const clear = useCallback(async () => {
    const session = state.kind === 'ready' ? state.session : (start.kind === 'session' ? start.session : null) ?? storedViewSession();
    if (session) await closeViewSession(session).catch(() => undefined);
    storeViewSession(null);
    setState({ kind: 'none', message: AccessMessages.accessCleared });
  }, [state, start]);

  /** 'Clear Access / Try Again': a session that is still alive is opened again, not thrown away. */
  const tryAgain = useCallback(() => {
    if (state.kind !== 'error' || !state.retry) return clear();
    setState({ kind: 'opening' });
    return open(state.retry);
  }, [state, open, clear]);

  /** A key pasted after Clear access (or with no session) opened a new session: show it. */
  const resume = useCallback((opened: OpenedViewSession) => show(opened.session, opened), [show]);

  /** A read said the session is over (revoked, expired): show it, forget the session. */
  const ended = useCallback((error: unknown) => fail(error, null), [fail]);

  return { state, asking, disclaimer, viewerToken, clear, tryAgain, reauthorize, ended, resume };
}
