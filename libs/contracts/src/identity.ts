import type { SubscriptionTier } from './tiers.js';

/** The profile every signed-in user has (owner-core spec, section 3: user_profiles). */
export interface UserProfile {
  id: string;
  email: string;
  full_name: string | null;
  avatar_url: string | null;
  created_at: string;
  subscription_tier: SubscriptionTier;
  ai_admin: boolean;
}

export interface Credentials {
  email: string;
  password: string;
}

/** What sign-in, sign-up and refresh return to the gateway. The refresh token never reaches the SPA's JavaScript: the gateway puts it in an httpOnly cookie. */
export interface IssuedSession {
  accessToken: string;
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number;
  refreshToken: string;
  refreshTokenExpiresAt: number;
  sessionId: string;
  profile: UserProfile;
}

/** What the SPA receives from /api/auth/*: the session without the refresh token. */
export interface SessionView {
  accessToken: string;
  accessTokenExpiresAt: number;
  profile: UserProfile;
}

export interface UpdateProfileRequest {
  full_name?: string | null;
  avatar_url?: string | null;
}

/** Claims inside an access token. Every service verifies them itself. */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  email: string;
  tier: SubscriptionTier;
  admin: boolean;
  /** 'user' for people, 'operator' for the ops CLI. */
  kind: 'user' | 'operator';
}

// Identity events (stream: user-{id}). Payloads are the facts, nothing derived. Password hashes
// and session tokens are never in events: the log is immutable and leaves the service through
// JetStream, so secrets live only in identity's own credential and session tables.
export interface UserRegistered { userId: string; email: string; registeredAt: string }
export interface ProfileUpdated { userId: string; full_name?: string | null; avatar_url?: string | null }
export interface SubscriptionTierChanged { userId: string; tier: SubscriptionTier; previousTier: SubscriptionTier }
export interface AdminGranted { userId: string }
export interface AdminRevoked { userId: string }
export interface PasswordChanged { userId: string; changedAt: string }

export type IdentityEvent =
  | { type: 'UserRegistered'; data: UserRegistered }
  | { type: 'ProfileUpdated'; data: ProfileUpdated }
  | { type: 'SubscriptionTierChanged'; data: SubscriptionTierChanged }
  | { type: 'AdminGranted'; data: AdminGranted }
  | { type: 'AdminRevoked'; data: AdminRevoked }
  | { type: 'PasswordChanged'; data: PasswordChanged };

// Request-reply payloads (subjects in messaging.ts, IdentityRpc).
export type SignUpRequest = Credentials;
export type SignInRequest = Credentials;
export interface RefreshRequest { refreshToken: string }
export interface SignOutRequest { refreshToken?: string }
export interface SignOutReply { revoked: boolean }
export interface FindUserRequest { email: string }
export interface SetAdminRequest { email: string; admin: boolean }
export interface SetTierRequest { email: string; tier: SubscriptionTier }
export interface RebuildReply { projections: { projection: string; events: number; ms: number }[] }
export interface ServiceHealthReply { service: string; status: 'up' | 'down'; checks: Record<string, { status: 'up' | 'down'; detail?: string }> }
