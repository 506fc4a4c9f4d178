import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { OpenedViewSession } from '@lv/contracts';
import { ViewerDisclaimer } from './ViewerDisclaimer.js';
import { redeemIfConsented, storeViewSession } from './viewer-session.js';

interface Handlers {
  opened: (opened: OpenedViewSession) => void;
  failed: (error: unknown) => void;
  /** The viewer closed the disclaimer without accepting it. */
  declined?: () => void;
}

/**
 * Redeeming a key (spec 4, "Viewer disclaimer"): the first time, or when the disclaimer's text has
 * changed, the key is held while the disclaimer shows; Continue redeems it, Cancel drops it. Render
 * `disclaimer` once. The new session is kept for this tab before `opened` runs.
 */
export function useKeyRedemption(handlers: Handlers) {
  // The caller's latest handlers, written after each commit, never during render.
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  const [held, setHeld] = useState<{ key: string; owner: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  const redeem = useCallback(async (key: string, owner: string | null) => {
    setBusy(true);
    try {
      const opened = await redeemIfConsented(key, owner);
      if (!opened) return setHeld({ key, owner });
      if (opened.session) storeViewSession(opened.session);
      latest.current.opened(opened);
    } catch (error) {
      latest.current.failed(error);
    } finally {
      setBusy(false);
    }
  }, []);

  const disclaimer = (
    <ViewerDisclaimer
      open={held !== null}
      onCancel={() => {
        setHeld(null);
        latest.current.declined?.();
      }}
      onContinue={() => {
        if (!held) return;
        setHeld(null);
        void redeem(held.key, held.owner);
      }}
    />
  );
  return { redeem, busy, asking: held !== null, disclaimer };
}
