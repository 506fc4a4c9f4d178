import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Credentials, SessionView, TwoStepChallenge, TwoStepSignInRequest, UserProfile } from '@lv/contracts';
import { appSession } from '../api/app-session.js';
import { REFRESH_TICK_MS } from '../api/refresh-schedule.js';
import type { SessionManager, SignInOutcome } from '../api/session.js';

export type AuthStatus = 'loading' | 'anonymous' | 'authenticated';

export interface AuthContextValue {
  status: AuthStatus;
  /** The signed-in user's profile, or null. */
  user: UserProfile | null;
  /** The password step (with two-step sign-in on: the challenge, no session), or the second step: the challenge and a code. */
  signIn(credentials: Credentials | TwoStepSignInRequest): Promise<SignInOutcome | TwoStepChallenge>;
  signUp(credentials: Credentials): Promise<UserProfile>;
  /** A session a passkey opened (POST /api/auth/passkey, or the second step with one) becomes this tab's. */
  acceptSignIn(view: SessionView): SignInOutcome;
  /** Revokes the session on the server; local state is untouched until clearSession(). */
  revokeSession(): Promise<void>;
  /** Forgets the session in this tab. */
  clearSession(): void;
  updateProfile(user: UserProfile): void;
  /** Asks for a new access token now (e.g. after a payment changed the plan it carries); true when one was issued. */
  refresh(): Promise<boolean>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children, session = appSession }: { children: ReactNode; session?: SessionManager }) {
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);

  // Restore the session from the refresh cookie (POST /api/auth/session) once per page load.
  useEffect(() => {
    void session.restore();
  }, [session]);

  // Refresh before expiry: tick every 30 s, and at once when the tab becomes visible again.
  useEffect(() => {
    const tick = () => void session.tick(Date.now());
    const timer = window.setInterval(tick, REFRESH_TICK_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [session]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: state.status,
      user: state.status === 'authenticated' ? state.user : null,
      signIn: (credentials) => session.signIn(credentials),
      signUp: (credentials) => session.signUp(credentials),
      acceptSignIn: (view) => session.acceptSignIn(view),
      revokeSession: () => session.revoke(),
      clearSession: () => session.clear(),
      updateProfile: (user) => session.updateProfile(user),
      refresh: () => session.refresh(),
    }),
    [state, session],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
