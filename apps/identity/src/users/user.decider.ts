import { DEFAULT_NOTIFICATION_PREFERENCES, normaliseEmail, validateCredentials, type IdentityEvent, type NotificationPreferences, type SubscriptionTier } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** A user's stream: `user-{id}`. State is only what the rules below need. */
export interface UserState {
  status: 'new' | 'registered';
  email: string | null;
  fullName: string | null;
  avatarUrl: string | null;
  tier: SubscriptionTier;
  isAdmin: boolean;
  notifications: NotificationPreferences;
}

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string; now: string }
  | { type: 'UpdateProfile'; userId: string; fullName?: string | null; avatarUrl?: string | null }
  | { type: 'ChangeSubscriptionTier'; userId: string; tier: SubscriptionTier }
  | { type: 'SetAdmin'; userId: string; admin: boolean }
  /** The caller proved the current password first (the service checks it; a decider does no I/O). */
  | { type: 'ChangeEmail'; userId: string; email: string }
  | { type: 'RecordPasswordChange'; userId: string; now: string }
  | { type: 'SetNotificationPreferences'; userId: string; preferences: NotificationPreferences };

export const FULL_NAME_MAX = 120;

export const userStreamId = (userId: string) => `user-${userId}`;
/** A user's sign-ins (UserSignedIn), apart from the profile's stream so its commands never read them. */
export const userActivityStreamId = (userId: string) => `user-activity-${userId}`;

function requireRegistered(state: UserState): void {
  if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'User not found');
}

export const userDecider: Decider<UserState, UserCommand, IdentityEvent> = {
  initialState: () => ({ status: 'new', email: null, fullName: null, avatarUrl: null, tier: 'none', isAdmin: false, notifications: DEFAULT_NOTIFICATION_PREFERENCES }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        if (state.status === 'registered') throw new DomainError('EMAIL_TAKEN');
        return [{ type: 'UserRegistered', data: { userId: command.userId, email: command.email, registeredAt: command.now } }];

      case 'UpdateProfile': {
        requireRegistered(state);
        const data: { userId: string; full_name?: string | null; avatar_url?: string | null } = { userId: command.userId };
        if (command.fullName !== undefined) {
          const fullName = command.fullName === null ? null : command.fullName.trim() || null;
          if (fullName && fullName.length > FULL_NAME_MAX) throw validationError({ full_name: `Full name must be at most ${FULL_NAME_MAX} characters` });
          if (fullName !== state.fullName) data.full_name = fullName;
        }
        if (command.avatarUrl !== undefined && command.avatarUrl !== state.avatarUrl) {
          if (command.avatarUrl !== null && !/^https:\/\/\S+$/.test(command.avatarUrl)) throw validationError({ avatar_url: 'Avatar must be an https:// address' });
          data.avatar_url = command.avatarUrl;
        }
        return Object.keys(data).length > 1 ? [{ type: 'ProfileUpdated', data }] : [];
      }

      case 'ChangeSubscriptionTier':
        requireRegistered(state);
        if (command.tier === state.tier) return [];
        return [{ type: 'SubscriptionTierChanged', data: { userId: command.userId, tier: command.tier, previousTier: state.tier } }];

      case 'SetAdmin':
        requireRegistered(state);
        if (command.admin === state.isAdmin) return [];
        return [command.admin ? { type: 'AdminGranted', data: { userId: command.userId } } : { type: 'AdminRevoked', data: { userId: command.userId } }];

      case 'ChangeEmail': {
        requireRegistered(state);
        const problem = validateCredentials({ email: command.email, password: 'xxxxxx' })?.email;
        if (problem) throw validationError({ email: problem }, problem);
        const email = normaliseEmail(command.email);
        if (email === state.email) return [];
        return [{ type: 'EmailChanged', data: { userId: command.userId, email, previousEmail: state.email! } }];
      }

      case 'RecordPasswordChange':
        requireRegistered(state);
        return [{ type: 'PasswordChanged', data: { userId: command.userId, changedAt: command.now } }];

      case 'SetNotificationPreferences': {
        requireRegistered(state);
        const { emailNotifications, accessRequests, systemUpdates, marketingEmails } = command.preferences;
        const preferences = { emailNotifications, accessRequests, systemUpdates, marketingEmails };
        const same = (Object.keys(preferences) as (keyof NotificationPreferences)[]).every((key) => preferences[key] === state.notifications[key]);
        return same ? [] : [{ type: 'NotificationPreferencesChanged', data: { userId: command.userId, preferences } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, status: 'registered', email: event.data.email };
      case 'ProfileUpdated':
        return {
          ...state,
          fullName: event.data.full_name !== undefined ? event.data.full_name : state.fullName,
          avatarUrl: event.data.avatar_url !== undefined ? event.data.avatar_url : state.avatarUrl,
        };
      case 'SubscriptionTierChanged':
        return { ...state, tier: event.data.tier };
      case 'AdminGranted':
        return { ...state, isAdmin: true };
      case 'AdminRevoked':
        return { ...state, isAdmin: false };
      case 'PasswordChanged':
      case 'UserSignedIn':
        return state;
      case 'EmailChanged':
        return { ...state, email: event.data.email };
      case 'NotificationPreferencesChanged':
        return { ...state, notifications: event.data.preferences };
    }
  },
};
