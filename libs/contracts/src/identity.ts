import type {
  AdminGranted, AdminRevoked, EmailChanged, NotificationPreferencesChanged, PasswordChanged, ProfileUpdated, SubscriptionTierChanged, UserRegistered, UserSignedIn, AccountErased,
} from './identity.messaging.js';
import type { SubscriptionTier } from './tiers.js';

/** Claims inside an access token. Every service verifies them itself. */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  email: string;
  tier: SubscriptionTier;
  admin: boolean;
  /**
   * The account's address is verified. Absent in tokens signed before verification existed: read as
   * not verified. A verification shows in the next token (sign-in or refresh).
   */
  emailVerified?: boolean;
  /** 'user' for people, 'operator' for the ops CLI. */
  kind: 'user' | 'operator';
  /**
   * Epoch seconds of the session's last proof (sign-in, or the password again): sensitive actions need
   * one within SUDO_WINDOW_SECONDS. Identity sets it on every token; a token without it counts from its
   * own issue time (`iat`).
   */
  authAt?: number;
}

/** Sudo mode: how long a proof of who one is lets sensitive actions through (NIST SP 800-63B's re-authentication). */
export const SUDO_WINDOW_SECONDS = 600;

// Identity events (stream: user-{id}), published as they are stored: their data is declared once,
// with IdentityEvents (identity.messaging.ts). Password hashes and session tokens are never in events:
// the log is immutable and leaves the service through JetStream, so secrets live only in identity's
// own credential and session tables.
export type IdentityEvent =
  | { type: 'UserRegistered'; data: UserRegistered }
  | { type: 'ProfileUpdated'; data: ProfileUpdated }
  | { type: 'SubscriptionTierChanged'; data: SubscriptionTierChanged }
  | { type: 'AdminGranted'; data: AdminGranted }
  | { type: 'AdminRevoked'; data: AdminRevoked }
  | { type: 'PasswordChanged'; data: PasswordChanged }
  | AccountSettingsEvent
  | { type: 'UserSignedIn'; data: UserSignedIn }
  | { type: 'AccountErased'; data: AccountErased };

// Account settings (/settings): e-mail changes and notification preferences, event-sourced like the
// profile. The e-mail is in the event as it is in UserRegistered: identity's other consumers key on it.
/** The four switches of Notification Settings (spec 02, Settings). */
export interface NotificationPreferences {
  emailNotifications: boolean;
  accessRequests: boolean;
  systemUpdates: boolean;
  marketingEmails: boolean;
}

export type AccountSettingsEvent =
  | { type: 'EmailChanged'; data: EmailChanged }
  | { type: 'NotificationPreferencesChanged'; data: NotificationPreferencesChanged };

/** Spec 02, Settings: emailNotifications and accessRequests on; systemUpdates and marketingEmails off. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: true,
  accessRequests: true,
  systemUpdates: false,
  marketingEmails: false,
};

/** What /settings says, in the spec's words where it gives them. */
export const SettingsMessages = {
  saved: 'Settings Saved! Your changes have been updated successfully.',
  currentPasswordRequired: 'Enter your current password to change your email or password.',
  currentPasswordWrong: 'Your current password is not correct.',
  passwordsDoNotMatch: 'The new passwords do not match.',
  samePassword: 'The new password must be different from the current one.',
  /** Shown after a sign-in whose password fails today's rules (set before they existed). */
  weakPassword: 'Your password is shorter than 8 characters or is a common or breached one. Please choose a new password to keep your vault safe.',
} as const;
