import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthProvider.js';
import { BEFORE_UNLOAD_MESSAGE, detectUnsavedChanges, UNSAVED_CHECK_INTERVAL_MS } from './unsaved.js';

interface UnsavedChangesContextValue {
  /** Unsaved work exists and a user is signed in: drives the top-bar indicator and the unload warning. */
  hasUnsavedChanges: boolean;
  recordingActive: boolean;
  /** Recorders call this when they start (true) and stop or save (false). */
  setRecordingActive: (active: boolean) => void;
  /** Runs the detection now and returns its raw result (signed in or not). */
  checkNow: () => boolean;
}

const UnsavedChangesContext = createContext<UnsavedChangesContextValue | null>(null);

const safeLocalStorage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [detected, setDetected] = useState(false);
  const [recordingActive, setRecordingActiveState] = useState(false);
  const recordingRef = useRef(false);

  const owner = user?.id;
  const checkNow = useCallback((): boolean => {
    const result = detectUnsavedChanges({ storage: safeLocalStorage(), owner, recordingActive: recordingRef.current, root: document });
    setDetected(result);
    return result;
  }, [owner]);

  const setRecordingActive = useCallback(
    (active: boolean) => {
      recordingRef.current = active;
      setRecordingActiveState(active);
      checkNow();
    },
    [checkNow],
  );

  // Every 5 seconds and on any input or change event.
  useEffect(() => {
    checkNow();
    const timer = window.setInterval(checkNow, UNSAVED_CHECK_INTERVAL_MS);
    // Deferred: run synchronously inside the capture-phase event, the state change re-rendered
    // controlled inputs before React's own onChange saw the new text, and the first paste or
    // programmatic fill into an empty field was lost.
    const onEdit = () => window.setTimeout(checkNow, 0);
    document.addEventListener('input', onEdit, true);
    document.addEventListener('change', onEdit, true);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('input', onEdit, true);
      document.removeEventListener('change', onEdit, true);
    };
  }, [checkNow]);

  const hasUnsavedChanges = detected && user !== null;

  // While unsaved changes are flagged, the browser asks before the page unloads.
  useEffect(() => {
    if (!hasUnsavedChanges) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Legacy browsers show (or at least require) a return value.
      event.returnValue = BEFORE_UNLOAD_MESSAGE;
      return BEFORE_UNLOAD_MESSAGE;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasUnsavedChanges]);

  const value = useMemo(
    () => ({ hasUnsavedChanges, recordingActive, setRecordingActive, checkNow }),
    [hasUnsavedChanges, recordingActive, setRecordingActive, checkNow],
  );
  return <UnsavedChangesContext.Provider value={value}>{children}</UnsavedChangesContext.Provider>;
}

export function useUnsavedChanges(): UnsavedChangesContextValue {
  const context = useContext(UnsavedChangesContext);
  if (!context) throw new Error('useUnsavedChanges must be used within an UnsavedChangesProvider');
  return context;
}

/** For recorders in later issues: `const setRecordingActive = useSetRecordingActive(); setRecordingActive(true)`. */
export function useSetRecordingActive(): (active: boolean) => void {
  return useUnsavedChanges().setRecordingActive;
}
