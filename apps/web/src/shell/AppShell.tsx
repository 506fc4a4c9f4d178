import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { sudoPrompt } from '../api/sudo-prompt.js';
import { useAuth } from '../auth/AuthProvider.js';
import { uploadsInFlight } from '../api/uploads-in-flight.js';
import { TopBar } from './TopBar.js';
import { useSignOutFlow } from './use-sign-out.js';
import { useUnsavedChanges } from './UnsavedChangesProvider.js';

// The side menu and the sign-out warning are dialogs nobody sees on a first load: their code (Radix
// Dialog, the menu's icons) is fetched when one first opens (issue 10, first load).
const SideMenu = lazy(async () => ({ default: (await import('./SideMenu.js')).SideMenu }));
const SignOutDialog = lazy(async () => ({ default: (await import('./SignOutDialog.js')).SignOutDialog }));
// Sudo mode's password dialog: loaded only when a sensitive action asks for it.
const SudoDialog = lazy(async () => ({ default: (await import('./SudoDialog.js')).SudoDialog }));
// Only an owner who has not verified his address yet sees the banner (and loads its resend call).
const VerifyEmailBanner = lazy(async () => ({ default: (await import('./VerifyEmailBanner.js')).VerifyEmailBanner }));
// The saves still going on: loaded once the owner saves something.
const UploadStatus = lazy(async () => ({ default: (await import('./UploadStatus.js')).UploadStatus }));
const anyUploads = () => uploadsInFlight.snapshot().length > 0;

/**
 * Top bar, side menu, sign-out warning and the page in <main>. `accountPending`: the page needs the
 * session, which is still loading (the top bar then shows neither Login nor the avatar).
 */
export function AppShell({ children, accountPending = false }: { children: ReactNode; accountPending?: boolean }) {
  const { user } = useAuth();
  const { hasUnsavedChanges, recordingActive, checkNow } = useUnsavedChanges();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const signOut = useSignOutFlow();
  const sudoAsked = useSyncExternalStore(sudoPrompt.subscribe, sudoPrompt.isOpen, () => false);
  const uploading = useSyncExternalStore(uploadsInFlight.subscribe, anyUploads, () => false);
  const location = useLocation();
  // Mounted from their first opening on, so they close with their own animation and focus handling.
  const [menuUsed, setMenuUsed] = useState(false);
  if (menuOpen && !menuUsed) setMenuUsed(true);
  const [signOutUsed, setSignOutUsed] = useState(false);
  if (signOut.dialogOpen && !signOutUsed) setSignOutUsed(true);
  // Browser back/forward while the menu is open: close it, while rendering the new page (React's
  // "adjusting state when a prop changes") rather than in an effect after it has shown the menu open.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  // A new page may have brought or removed fields: check again once it is on screen.
  useEffect(() => {
    checkNow();
  }, [location.pathname, checkNow]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-[60] rounded-lg bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <TopBar
        user={user}
        menuOpen={menuOpen}
        menuButtonRef={menuButtonRef}
        onOpenMenu={() => setMenuOpen(true)}
        showUnsaved={hasUnsavedChanges && user !== null}
        accountPending={accountPending}
        onLogout={() => window.setTimeout(signOut.requestSignOut, 0)}
      />
      {menuUsed ? (
        <Suspense fallback={null}>
          <SideMenu open={menuOpen} onOpenChange={setMenuOpen} user={user} returnFocusRef={menuButtonRef} />
        </Suspense>
      ) : null}
      <main id="main-content" tabIndex={-1} className="flex-1 pt-16 outline-none">
        {/* The verification page says it all itself. */}
        {user && !user.emailVerified && location.pathname !== '/verify-email' ? (
          <Suspense fallback={null}>
            <VerifyEmailBanner email={user.email} />
          </Suspense>
        ) : null}
        {children}
      </main>
      {uploading ? (
        <Suspense fallback={null}>
          <UploadStatus />
        </Suspense>
      ) : null}
      <footer className="border-t border-border py-6 text-center text-xs text-muted-foreground">
        <p>© {new Date().getFullYear()} Legacy Vault · Your words, kept safe for the people you love.</p>
      </footer>
      {signOutUsed ? (
        <Suspense fallback={null}>
          <SignOutDialog
            open={signOut.dialogOpen}
            drafts={signOut.drafts}
            canSaveDrafts={hasUnsavedChanges}
            recordingActive={recordingActive}
            busy={signOut.busy}
            onSaveAndSignOut={signOut.saveDraftsAndSignOut}
            onSignOutWithoutSaving={signOut.signOutWithoutSaving}
            onCancel={signOut.cancel}
            returnFocus={() => document.querySelector<HTMLElement>('button[aria-label="Account menu"]')}
          />
        </Suspense>
      ) : null}
      {sudoAsked ? (
        <Suspense fallback={null}>
          <SudoDialog onDone={(confirmed) => sudoPrompt.settle(confirmed)} />
        </Suspense>
      ) : null}
    </div>
  );
}
