import { AccountDeletionMessages, DEFAULT_NOTIFICATION_PREFERENCES, normaliseEmail, TwoStepMessages, validateCredentials, type IdentityEvent, type NotificationPreferences, type SubscriptionTier } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * Account recovery's facts, stored in the user's stream but never published: when a reset link was
 * asked for and until when it works (its token's hash lives in password_resets), and that it was used.
 */
export type PasswordResetEvent =
  | { type: 'PasswordResetRequested'; data: { userId: string; resetId: string; requestedAt: string; expiresAt: string } }
  | { type: 'PasswordResetUsed'; data: { userId: string; resetId: string; usedAt: string } };

/**
 * An e-mail change's facts, also kept out of the published stream (EmailChanged tells the rest): the
 * new address was asked for (its confirm link and the old address's undo link, their hashes in
 * email_change_links), the new address confirmed, or the old address undid it.
 */
export type EmailChangeEvent =
  | { type: 'EmailChangeRequested'; data: { userId: string; changeId: string; undoId: string; email: string; previousEmail: string; requestedAt: string; expiresAt: string; undoExpiresAt: string } }
  | { type: 'EmailChangeConfirmed'; data: { userId: string; changeId: string; confirmedAt: string } }
  | { type: 'EmailChangeUndone'; data: { userId: string; undoId: string; undoneAt: string } };

/**
 * Verifying the account's address, kept out of the published stream too (the access token's
 * emailVerified claim tells the other services): a link was sent (its hash in email_verifications, a
 * newer one replaces it), and the address it went to was proven.
 */
export type EmailVerificationEvent =
  | { type: 'EmailVerificationRequested'; data: { userId: string; verificationId: string; email: string; requestedAt: string; expiresAt: string } }
  | { type: 'EmailVerified'; data: { userId: string; email: string; verifiedAt: string } };

/**
 * Two-step sign-in, kept out of the published stream too: turned on (the owner's first code proved
 * the app holds the secret), off, and new recovery codes made. No secret and no code is in them: the
 * secret is sealed and the codes hashed in identity's two_step tables, written in the same transaction.
 */
export type TwoStepEvent =
  | { type: 'TwoStepEnabled'; data: { userId: string; enabledAt: string; recoveryCodes: number } }
  | { type: 'TwoStepDisabled'; data: { userId: string; disabledAt: string } }
  | { type: 'RecoveryCodesRegenerated'; data: { userId: string; regeneratedAt: string; recoveryCodes: number } };

/**
 * Deleting the account, kept out of the published stream too (AccountErased tells the rest, once the
 * grace period is over): the owner asked (in sudo mode, the word typed), and kept the account again from
 * Settings or with the e-mailed link (its hash in account_deletions). Ids and times only.
 */
export type AccountDeletionEvent =
  | { type: 'AccountDeletionRequested'; data: { userId: string; deletionId: string; requestedAt: string; dueAt: string } }
  | { type: 'AccountDeletionCancelled'; data: { userId: string; deletionId: string; cancelledAt: string; by: 'settings' | 'link' } };

export type UserEvent = IdentityEvent | PasswordResetEvent | EmailChangeEvent | EmailVerificationEvent | TwoStepEvent | AccountDeletionEvent;

/** A user's stream: `user-{id}`. State is only what the rules below need. */
export interface UserState {
  /** `erased`: the account was deleted and its grace period ended; nothing of it is kept. */
  status: 'new' | 'registered' | 'erased';
  email: string | null;
  fullName: string | null;
  avatarUrl: string | null;
  tier: SubscriptionTier;
  isAdmin: boolean;
  notifications: NotificationPreferences;
  /** Reset links not used yet, by id: when each stops working. Any password change voids them all. */
  openResets: Readonly<Record<string, string>>;
  /** The address waiting for its confirmation: only the latest request's link works. */
  pendingEmail: { changeId: string; email: string; expiresAt: string } | null;
  /** Undo links not used yet, by id: the address each restores and when it stops working. */
  openUndos: Readonly<Record<string, { restoreTo: string; expiresAt: string }>>;
  /** The address was proven by a link sent to it (a verification, or an e-mail change's confirm or undo link). */
  emailVerified: boolean;
  /** The one verification link that works: the latest sent, for the address it went to. */
  openVerification: { verificationId: string; email: string; expiresAt: string } | null;
  /** Two-step sign-in is on: a password alone opens no session. */
  twoStep: boolean;
  /** The account's deletion waiting for its grace period to end: which request, and when it is erased. */
  pendingDeletion: { deletionId: string; dueAt: string } | null;
}

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string; now: string }
  | { type: 'UpdateProfile'; userId: string; fullName?: string | null; avatarUrl?: string | null }
  | { type: 'ChangeSubscriptionTier'; userId: string; tier: SubscriptionTier }
  | { type: 'SetAdmin'; userId: string; admin: boolean }
  /** The caller proved the current password first (the service checks it; a decider does no I/O). */
  | { type: 'RequestEmailChange'; userId: string; email: string; changeId: string; undoId: string; now: string; expiresAt: string; undoExpiresAt: string }
  /** The service matched the link's token to the stored hash first, as for a reset. */
  | { type: 'ConfirmEmailChange'; userId: string; changeId: string; now: string }
  | { type: 'UndoEmailChange'; userId: string; undoId: string; now: string }
  | { type: 'RecordPasswordChange'; userId: string; now: string }
  | { type: 'SetNotificationPreferences'; userId: string; preferences: NotificationPreferences }
  | { type: 'RequestPasswordReset'; userId: string; resetId: string; now: string; expiresAt: string }
  /** The service matched the link's token to this reset's stored hash first (a decider does no I/O). */
  | { type: 'ResetPassword'; userId: string; resetId: string; now: string }
  | { type: 'RequestEmailVerification'; userId: string; verificationId: string; now: string; expiresAt: string }
  /** The service matched the link's token to this verification's stored hash first. */
  | { type: 'VerifyEmail'; userId: string; verificationId: string; now: string }
  /** The service checked the first code of the new secret first. */
  | { type: 'EnableTwoStep'; userId: string; now: string; recoveryCodes: number }
  /** The service checked the password and a current code first. */
  | { type: 'DisableTwoStep'; userId: string; now: string }
  /** The service checked a current code first. */
  | { type: 'RegenerateRecoveryCodes'; userId: string; now: string; recoveryCodes: number }
  /** The service checked sudo mode first; `confirmation` is what the owner typed. */
  | { type: 'RequestAccountDeletion'; userId: string; deletionId: string; confirmation: string; now: string; dueAt: string }
  /** From Settings (no deletionId), or by the e-mailed link (the service matched its token to the deletion's stored hash first). */
  | { type: 'CancelAccountDeletion'; userId: string; deletionId?: string; now: string }
  /** The grace period's timer (or the operators' account:erase-due): erases the account when this deletion is still pending and due. */
  | { type: 'EraseAccount'; userId: string; deletionId: string; now: string }
  /** The erasure journal: this account was erased, and a restore of an older snapshot brought it back. */
  | { type: 'EraseAccountAgain'; userId: string; now: string };

export const FULL_NAME_MAX = 120;

export const userStreamId = (userId: string) => `user-${userId}`;
/** A user's sign-ins (UserSignedIn), apart from the profile's stream so its commands never read them. */
export const userActivityStreamId = (userId: string) => `user-activity-${userId}`;

function requireRegistered(state: UserState): void {
  if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'User not found');
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'new', email: null, fullName: null, avatarUrl: null, tier: 'none', isAdmin: false, notifications: DEFAULT_NOTIFICATION_PREFERENCES, openResets: {}, pendingEmail: null, openUndos: {}, emailVerified: false, openVerification: null, twoStep: false, pendingDeletion: null }),

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

      case 'RequestEmailChange': {
        requireRegistered(state);
        const problem = validateCredentials({ email: command.email, password: 'xxxxxx' })?.email;
        if (problem) throw validationError({ email: problem }, problem);
        const email = normaliseEmail(command.email);
        if (email === state.email) return [];
        const { userId, changeId, undoId, now, expiresAt, undoExpiresAt } = command;
        return [{ type: 'EmailChangeRequested', data: { userId, changeId, undoId, email, previousEmail: state.email!, requestedAt: now, expiresAt, undoExpiresAt } }];
      }

      case 'ConfirmEmailChange': {
        // Used, lapsed, replaced by a newer request, undone, or never this account's: one refusal for all.
        const pending = state.status === 'registered' ? state.pendingEmail : null;
        if (!pending || pending.changeId !== command.changeId || Date.parse(pending.expiresAt) <= Date.parse(command.now)) throw new DomainError('EMAIL_CHANGE_LINK_INVALID');
        // The link went to the new address: opening it proves that address.
        return [
          { type: 'EmailChangeConfirmed', data: { userId: command.userId, changeId: command.changeId, confirmedAt: command.now } },
          { type: 'EmailChanged', data: { userId: command.userId, email: pending.email, previousEmail: state.email! } },
          { type: 'EmailVerified', data: { userId: command.userId, email: pending.email, verifiedAt: command.now } },
        ];
      }

      case 'UndoEmailChange': {
        const undo = state.status === 'registered' ? state.openUndos[command.undoId] : undefined;
        if (!undo || Date.parse(undo.expiresAt) <= Date.parse(command.now)) throw new DomainError('EMAIL_CHANGE_LINK_INVALID');
        const undone: UserEvent = { type: 'EmailChangeUndone', data: { userId: command.userId, undoId: command.undoId, undoneAt: command.now } };
        // The undo link went to the address the account keeps: opening it proves that address.
        const proven: UserEvent = { type: 'EmailVerified', data: { userId: command.userId, email: undo.restoreTo, verifiedAt: command.now } };
        // Not confirmed yet: nothing to restore, the pending change simply ends.
        return undo.restoreTo === state.email
          ? [undone, proven]
          : [undone, { type: 'EmailChanged', data: { userId: command.userId, email: undo.restoreTo, previousEmail: state.email! } }, proven];
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

      case 'RequestPasswordReset':
        requireRegistered(state);
        return [{ type: 'PasswordResetRequested', data: { userId: command.userId, resetId: command.resetId, requestedAt: command.now, expiresAt: command.expiresAt } }];

      case 'ResetPassword': {
        // Used, lapsed, voided by a password change since, or never this account's: one refusal for all.
        const expiresAt = state.status === 'registered' ? state.openResets[command.resetId] : undefined;
        if (!expiresAt || Date.parse(expiresAt) <= Date.parse(command.now)) throw new DomainError('RESET_LINK_INVALID');
        return [
          { type: 'PasswordResetUsed', data: { userId: command.userId, resetId: command.resetId, usedAt: command.now } },
          { type: 'PasswordChanged', data: { userId: command.userId, changedAt: command.now } },
        ];
      }

      case 'RequestEmailVerification': {
        requireRegistered(state);
        // Nothing to prove any more: no link is made (the service says so instead of sending one).
        if (state.emailVerified) return [];
        const { userId, verificationId, now, expiresAt } = command;
        return [{ type: 'EmailVerificationRequested', data: { userId, verificationId, email: state.email!, requestedAt: now, expiresAt } }];
      }

      case 'VerifyEmail': {
        // Used, lapsed, replaced by a newer link, sent to an address the account no longer has, or never this account's: one refusal for all.
        const open = state.status === 'registered' ? state.openVerification : null;
        if (!open || open.verificationId !== command.verificationId || open.email !== state.email || Date.parse(open.expiresAt) <= Date.parse(command.now)) {
          throw new DomainError('EMAIL_VERIFY_LINK_INVALID');
        }
        return [{ type: 'EmailVerified', data: { userId: command.userId, email: open.email, verifiedAt: command.now } }];
      }

      case 'EnableTwoStep':
        requireRegistered(state);
        if (state.twoStep) throw new DomainError('CONFLICT', TwoStepMessages.alreadyEnabled);
        return [{ type: 'TwoStepEnabled', data: { userId: command.userId, enabledAt: command.now, recoveryCodes: command.recoveryCodes } }];

      case 'DisableTwoStep':
        requireRegistered(state);
        if (!state.twoStep) throw new DomainError('CONFLICT', TwoStepMessages.notEnabled);
        return [{ type: 'TwoStepDisabled', data: { userId: command.userId, disabledAt: command.now } }];

      case 'RegenerateRecoveryCodes':
        requireRegistered(state);
        if (!state.twoStep) throw new DomainError('CONFLICT', TwoStepMessages.notEnabled);
        return [{ type: 'RecoveryCodesRegenerated', data: { userId: command.userId, regeneratedAt: command.now, recoveryCodes: command.recoveryCodes } }];

      case 'RequestAccountDeletion': {
        requireRegistered(state);
        if (command.confirmation.trim().toUpperCase() !== AccountDeletionMessages.confirmationWord) {
          throw validationError({ confirmation: AccountDeletionMessages.confirmationWrong }, AccountDeletionMessages.confirmationWrong);
        }
        if (state.pendingDeletion) throw new DomainError('CONFLICT', AccountDeletionMessages.alreadyScheduled);
        const { userId, deletionId, now, dueAt } = command;
        return [{ type: 'AccountDeletionRequested', data: { userId, deletionId, requestedAt: now, dueAt } }];
      }

      case 'CancelAccountDeletion': {
        const pending = state.status === 'registered' ? state.pendingDeletion : null;
        if (command.deletionId === undefined) {
          requireRegistered(state);
          if (!pending) throw new DomainError('CONFLICT', AccountDeletionMessages.notScheduled);
          return [{ type: 'AccountDeletionCancelled', data: { userId: command.userId, deletionId: pending.deletionId, cancelledAt: command.now, by: 'settings' } }];
        }
        // Used, of a deletion kept since (a newer one has another id), lapsed, or never this account's: one refusal for all.
        if (!pending || pending.deletionId !== command.deletionId || Date.parse(pending.dueAt) <= Date.parse(command.now)) throw new DomainError('ACCOUNT_DELETION_LINK_INVALID');
        return [{ type: 'AccountDeletionCancelled', data: { userId: command.userId, deletionId: pending.deletionId, cancelledAt: command.now, by: 'link' } }];
      }

      case 'EraseAccount': {
        // Erased already, kept since, replaced by a newer request, or not due yet: nothing happens (a
        // timer's duplicate, retry or early wake-up erases nothing, and never twice).
        const pending = state.status === 'registered' ? state.pendingDeletion : null;
        if (!pending || pending.deletionId !== command.deletionId || Date.parse(pending.dueAt) > Date.parse(command.now)) return [];
        return [{ type: 'AccountErased', data: { userId: command.userId, erasedAt: command.now } }];
      }

      case 'EraseAccountAgain':
        // Erased (the restore was newer than the erasure) or never registered in this snapshot: nothing to do.
        if (state.status !== 'registered') return [];
        return [{ type: 'AccountErased', data: { userId: command.userId, erasedAt: command.now } }];
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
        return { ...state, openResets: {} };
      case 'PasswordResetRequested':
        return { ...state, openResets: { ...state.openResets, [event.data.resetId]: event.data.expiresAt } };
      case 'PasswordResetUsed': {
        const { [event.data.resetId]: _used, ...rest } = state.openResets;
        return { ...state, openResets: rest };
      }
      case 'UserSignedIn':
        return state;
      case 'EmailChanged':
        return { ...state, email: event.data.email };
      case 'EmailChangeRequested':
        return {
          ...state,
          pendingEmail: { changeId: event.data.changeId, email: event.data.email, expiresAt: event.data.expiresAt },
          openUndos: { ...state.openUndos, [event.data.undoId]: { restoreTo: event.data.previousEmail, expiresAt: event.data.undoExpiresAt } },
        };
      case 'EmailChangeConfirmed':
        return { ...state, pendingEmail: null };
      case 'EmailChangeUndone':
        // The owner said "this wasn't me": every change link in flight ends with it.
        return { ...state, pendingEmail: null, openUndos: {} };
      case 'NotificationPreferencesChanged':
        return { ...state, notifications: event.data.preferences };
      case 'EmailVerificationRequested':
        return { ...state, openVerification: { verificationId: event.data.verificationId, email: event.data.email, expiresAt: event.data.expiresAt } };
      case 'EmailVerified':
        return { ...state, emailVerified: true, openVerification: null };
      case 'TwoStepEnabled':
        return { ...state, twoStep: true };
      case 'TwoStepDisabled':
        return { ...state, twoStep: false };
      case 'AccountErased':
        return { ...userDecider.initialState(), status: 'erased' };
      case 'RecoveryCodesRegenerated':
        return state;
      case 'AccountDeletionRequested':
        return { ...state, pendingDeletion: { deletionId: event.data.deletionId, dueAt: event.data.dueAt } };
      case 'AccountDeletionCancelled':
        return { ...state, pendingDeletion: null };
    }
  },
};
