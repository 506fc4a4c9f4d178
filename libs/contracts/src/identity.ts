import type { SubscriptionTier } from './tiers.js';

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
/**
 * A sign-in or a session refresh succeeded (stream user-activity-{id}): ids and time only, no address
 * or agent. At most one an hour per user (identity's activity_marks), so a busy session stays cheap.
 */
export interface UserSignedIn { userId: string; sessionId: string; signedInAt: string }

export type IdentityEvent =
  | { type: 'UserRegistered'; data: UserRegistered }
  | { type: 'ProfileUpdated'; data: ProfileUpdated }
  | { type: 'SubscriptionTierChanged'; data: SubscriptionTierChanged }
  | { type: 'AdminGranted'; data: AdminGranted }
  | { type: 'AdminRevoked'; data: AdminRevoked }
  | { type: 'PasswordChanged'; data: PasswordChanged }
  | { type: 'UserSignedIn'; data: UserSignedIn };
