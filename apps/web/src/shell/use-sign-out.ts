import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider.js';
import { showToast } from '../lib/toast.js';
import { useUnsavedChanges } from './UnsavedChangesProvider.js';
import { findDrafts, removeDrafts, type DraftKey } from './unsaved.js';

/** Delay between "Save Drafts & Sign Out" and the sign-out itself (spec, section 9). */
export const SAVE_DRAFTS_SIGN_OUT_DELAY_MS = 1000;
/** Window event that pages with drafts listen to, to store their work locally. */
export const SAVE_DRAFTS_EVENT = 'saveDrafts';

const storage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

/**
 * The sign-out flow (spec, section 4): with unsaved work the "Sign Out Warning" dialog opens first;
 * a confirmed sign-out revokes the session, goes to / and shows "Logged out successfully".
 */
export function useSignOutFlow() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { checkNow } = useUnsavedChanges();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [drafts, setDrafts] = useState<DraftKey[]>([]);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  /** keepDrafts: "Save Drafts & Sign Out"; any other sign-out also removes a stored recording (it holds the user's video). */
  const signOut = useCallback(async (keepDrafts = false): Promise<boolean> => {
    setBusy(true);
    try {
      await auth.revokeSession();
    } catch (error) {
      console.error('Logout failed', error);
      setBusy(false);
      showToast((toast) => toast.error('Error logging out'));
      return false;
    }
    // Only once the session is gone: a failed sign-out leaves the user's draft where it was.
    // The recorder's draft code loads here rather than with every page (issue 37, first load).
    if (!keepDrafts) await (await import('../drafts/recording-draft.js')).discardDraft();
    // Leave protected pages before the user is cleared, so the guard does not bounce to /auth (the
    // router renders navigations at once: main.tsx).
    flushSync(() => void navigate('/'));
    auth.clearSession();
    setDialogOpen(false);
    setBusy(false);
    showToast((toast) => toast.success('Logged out successfully'));
    return true;
  }, [auth, navigate]);

  /** Logout from the avatar menu. */
  const requestSignOut = useCallback(() => {
    if (checkNow()) {
      setDrafts(findDrafts(storage(), auth.user?.id));
      setDialogOpen(true);
      return;
    }
    void signOut();
  }, [auth, checkNow, signOut]);

  const saveDraftsAndSignOut = useCallback(() => {
    window.dispatchEvent(new CustomEvent(SAVE_DRAFTS_EVENT));
    showToast((toast) => toast.success('Drafts Saved', { description: 'Your work has been saved locally and will be available when you return.' }));
    setBusy(true);
    setDialogOpen(false);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void signOut(true), SAVE_DRAFTS_SIGN_OUT_DELAY_MS);
  }, [signOut]);

  const signOutWithoutSaving = useCallback(() => {
    removeDrafts(storage(), auth.user?.id);
    void signOut();
  }, [auth, signOut]);

  const cancel = useCallback(() => {
    if (!busy) setDialogOpen(false);
  }, [busy]);

  return { dialogOpen, drafts, busy, requestSignOut, saveDraftsAndSignOut, signOutWithoutSaving, cancel };
}
