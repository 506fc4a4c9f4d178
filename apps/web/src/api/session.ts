import type { Credentials, SessionView, SignInView, TwoStepChallenge, TwoStepSignInRequest, UserProfile } from '@lv/contracts';
import { ApiError, sendRequest } from './client.js';
import { shouldRefresh } from './refresh-schedule.js';
import { createTypedApi } from './typed-api.js';

export type SessionState =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'authenticated'; user: UserProfile; accessTokenExpiresAt: number };

/** The gateway's /api/auth endpoints. */
export interface AuthTransport {
  /**
   * The password step (a session, or with two-step sign-in on the challenge for a code), or the second
   * step (the challenge and a code from the app or a recovery code).
   */
  signIn(credentials: Credentials | TwoStepSignInRequest): Promise<SignInView>;
  signUp(credentials: Credentials): Promise<SessionView>;
  /**
   * Uses the httpOnly refresh cookie; null when there is no valid session. Asks POST /api/auth/session,
   * which answers a signed-out browser with 200 `{ session: null }`, not a 401 the console would log.
   */
  refresh(): Promise<SessionView | null>;
  signOut(accessToken: string | null): Promise<void>;
}

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The /api/auth calls, typed from the gateway's OpenAPI document (openapi.gen.ts), sent bare: they make the session. */
export function createHttpAuthTransport(fetchImpl?: FetchLike, baseUrl = ''): AuthTransport {
  const f: FetchLike = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  const auth = (token: string | null = null) => createTypedApi((url, options) => sendRequest(f, `${baseUrl}${url}`, { ...options, token }));
  return {
    signIn: (body) => ('challenge' in body ? auth().post('/api/auth/sign-in/two-step', { body }) : auth().post('/api/auth/sign-in', { body })),
    signUp: (credentials) => auth().post('/api/auth/sign-up', { body: credentials }),
    refresh: async () => (await auth().post('/api/auth/session')).session,
    signOut: (accessToken) => auth(accessToken).post('/api/auth/sign-out'),
  };
}

const isAuthRefusal = (error: unknown): boolean => error instanceof ApiError && (error.status === 401 || error.status === 403);

/**
 * The browser session. The access token lives in this object's memory only (never in localStorage);
 * the refresh token is an httpOnly cookie that only the gateway reads. React subscribes through
 * useSyncExternalStore (see AuthProvider); the API client asks it for the token and for refreshes.
 */
/** What a sign-in tells the page beyond the session itself. */
export interface SignInOutcome {
  user: UserProfile;
  passwordChangeRequired: boolean;
}

export class SessionManager {
  private state: SessionState = { status: 'loading' };
  private accessToken: string | null = null;
  private readonly listeners = new Set<() => void>();
  private refreshInFlight: Promise<boolean> | null = null;
  private restoring: Promise<void> | null = null;
  /** Bumped whenever the session is replaced or dropped, so a late refresh answer cannot revive an old one. */
  private generation = 0;

  constructor(private readonly transport: AuthTransport) {}

  readonly getState = (): SessionState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getAccessToken(): string | null {
    return this.accessToken;
  }

  /** Restores the session from the refresh cookie once per page load. No session (or no answer) means signed out. */
  restore(): Promise<void> {
    this.restoring ??= this.refresh().then(() => {
      if (this.state.status === 'loading') this.setState({ status: 'anonymous' });
    });
    return this.restoring;
  }

  /**
   * Exchanges the refresh cookie for a new access token. Concurrent callers share one request (the
   * gateway rotates the cookie, so two parallel refreshes would race). Resolves true when a session
   * was issued. No session (or a 401/403) drops it; a network failure leaves it as it is.
   */
  refresh(): Promise<boolean> {
    if (this.refreshInFlight) return this.refreshInFlight;
    const generation = this.generation;
    this.refreshInFlight = this.transport
      .refresh()
      .then((view) => {
        if (generation !== this.generation) return false;
        if (!view) {
          this.clear();
          return false;
        }
        this.apply(view);
        return true;
      })
      .catch((error: unknown) => {
        if (generation === this.generation && isAuthRefusal(error)) this.clear();
        else if (!isAuthRefusal(error)) console.warn('Session refresh failed', error);
        return false;
      })
      .finally(() => {
        this.refreshInFlight = null;
      });
    return this.refreshInFlight;
  }

  /** Called by the 30-second timer: refreshes when the token is within 90 s of expiry. */
  tick(now: number): Promise<boolean> | undefined {
    if (this.state.status !== 'authenticated') return undefined;
    if (!shouldRefresh(now, this.state.accessTokenExpiresAt)) return undefined;
    return this.refresh();
  }

  /**
   * Signs in; passwordChangeRequired when the password fails today's rules and should be changed now.
   * With two-step sign-in on, the password opens no session: the challenge comes back, to send again with a code.
   */
  async signIn(credentials: Credentials | TwoStepSignInRequest): Promise<SignInOutcome | TwoStepChallenge> {
    const view = await this.transport.signIn(credentials);
    if ('twoStepRequired' in view) return view;
    this.generation++;
    this.apply(view);
    return { user: view.profile, passwordChangeRequired: view.passwordChangeRequired === true };
  }

  /** A session opened elsewhere than the password form (a passkey): it becomes this tab's. */
  acceptSignIn(view: SessionView): SignInOutcome {
    this.generation++;
    this.apply(view);
    return { user: view.profile, passwordChangeRequired: view.passwordChangeRequired === true };
  }

  async signUp(credentials: Credentials): Promise<UserProfile> {
    const view = await this.transport.signUp(credentials);
    this.generation++;
    this.apply(view);
    return view.profile;
  }

  /**
   * Revokes the session on the server (and clears the cookie). Does not touch local state, so the
   * caller can leave protected pages first; call clear() afterwards. A 401 means it was already gone.
   */
  async revoke(): Promise<void> {
    try {
      await this.transport.signOut(this.accessToken);
    } catch (error) {
      if (!isAuthRefusal(error)) throw error;
    }
  }

  /** Forgets the session locally (token and user). */
  clear(): void {
    this.generation++;
    this.accessToken = null;
    if (this.state.status !== 'anonymous') this.setState({ status: 'anonymous' });
  }

  /** Sudo mode: the token identity gave for the password confirmed again (same session, a fresh proof). */
  acceptConfirmedIdentity(view: SessionView): void {
    if (this.state.status !== 'authenticated' || this.state.user.id !== view.profile.id) return;
    this.apply(view);
  }

  /** Replaces the signed-in user's profile (after a profile edit). */
  updateProfile(user: UserProfile): void {
    if (this.state.status !== 'authenticated') return;
    this.setState({ ...this.state, user });
  }

  private apply(view: SessionView): void {
    this.accessToken = view.accessToken;
    this.setState({ status: 'authenticated', user: view.profile, accessTokenExpiresAt: view.accessTokenExpiresAt });
  }

  private setState(next: SessionState): void {
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}
