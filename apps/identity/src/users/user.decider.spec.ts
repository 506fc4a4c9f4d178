import type { IdentityEvent } from '@lv/contracts';
import type { StoredEvent } from '@lv/platform/event-store';
import { deciderSpecification } from '@lv/testing';
import { identityPublishPolicy } from './publish-policy.js';
import { userDecider, type UserEvent } from './user.decider.js';

/** An identity event as the store hands it to the publish policy (only its type matters there). */
const stored = (type: UserEvent['type']): StoredEvent => ({
  type, data: {}, eventId: 'e1', streamId: 'user-1', streamType: 'user', version: 1, globalPosition: '1', metadata: {}, occurredAt: new Date(0),
});

const spec = deciderSpecification(userDecider);
const userId = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const registered: IdentityEvent = { type: 'UserRegistered', data: { userId, email: 'dad@example.com', registeredAt: '2026-11-22T10:00:00.000Z' } };

describe('user decider', () => {
  describe('RegisterUser', () => {
    it('registers a new user', () =>
      spec.given([]).when({ type: 'RegisterUser', userId, email: 'dad@example.com', now: '2026-11-22T10:00:00.000Z' }).then([registered]));
    it('refuses to register the same stream twice', () =>
      spec.given([registered]).when({ type: 'RegisterUser', userId, email: 'dad@example.com', now: 'x' }).thenThrows('EMAIL_TAKEN'));
  });

  describe('UpdateProfile', () => {
    it('trims the full name', () =>
      spec.given([registered]).when({ type: 'UpdateProfile', userId, fullName: '  John Smith ' }).then([{ type: 'ProfileUpdated', data: { userId, full_name: 'John Smith' } }]));
    it('stores a blank name as no name', () =>
      spec.given([registered, { type: 'ProfileUpdated', data: { userId, full_name: 'John' } }]).when({ type: 'UpdateProfile', userId, fullName: '   ' })
        .then([{ type: 'ProfileUpdated', data: { userId, full_name: null } }]));
    it('emits nothing when nothing changes', () =>
      spec.given([registered, { type: 'ProfileUpdated', data: { userId, full_name: 'John' } }]).when({ type: 'UpdateProfile', userId, fullName: 'John' }).then([]));
    it('refuses a name over 120 characters', () =>
      spec.given([registered]).when({ type: 'UpdateProfile', userId, fullName: 'x'.repeat(121) }).thenThrows('VALIDATION_FAILED'));
    it('accepts only https avatars', () => {
      spec.given([registered]).when({ type: 'UpdateProfile', userId, avatarUrl: 'javascript:alert(1)' }).thenThrows('VALIDATION_FAILED');
      spec.given([registered]).when({ type: 'UpdateProfile', userId, avatarUrl: 'https://img.example/a.png' })
        .then([{ type: 'ProfileUpdated', data: { userId, avatar_url: 'https://img.example/a.png' } }]);
    });
    it('does not update a user that does not exist', () =>
      spec.given([]).when({ type: 'UpdateProfile', userId, fullName: 'John' }).thenThrows('NOT_FOUND'));
  });

  describe('ChangeSubscriptionTier', () => {
    it('records the previous tier', () =>
      spec.given([registered]).when({ type: 'ChangeSubscriptionTier', userId, tier: 'pro' })
        .then([{ type: 'SubscriptionTierChanged', data: { userId, tier: 'pro', previousTier: 'none' } }]));
    it('is idempotent', () =>
      spec.given([registered, { type: 'SubscriptionTierChanged', data: { userId, tier: 'pro', previousTier: 'none' } }])
        .when({ type: 'ChangeSubscriptionTier', userId, tier: 'pro' }).then([]));
  });

  describe('SetAdmin', () => {
    it('grants and revokes', () => {
      spec.given([registered]).when({ type: 'SetAdmin', userId, admin: true }).then([{ type: 'AdminGranted', data: { userId } }]);
      spec.given([registered, { type: 'AdminGranted', data: { userId } }]).when({ type: 'SetAdmin', userId, admin: false }).then([{ type: 'AdminRevoked', data: { userId } }]);
    });
    it('does nothing when already in that state', () =>
      spec.given([registered]).when({ type: 'SetAdmin', userId, admin: false }).then([]));
  });

  describe('an e-mail change', () => {
    const changeId = '1b2c3d4e-0000-4000-8000-000000000001';
    const undoId = '1b2c3d4e-0000-4000-8000-000000000002';
    const ask = (email: string) => ({ type: 'RequestEmailChange' as const, userId, email, changeId, undoId, now: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-07T10:00:00.000Z', undoExpiresAt: '2026-12-13T10:00:00.000Z' });
    const requested: UserEvent = { type: 'EmailChangeRequested', data: { userId, changeId, undoId, email: 'dad.new@example.com', previousEmail: 'dad@example.com', requestedAt: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-07T10:00:00.000Z', undoExpiresAt: '2026-12-13T10:00:00.000Z' } };
    const confirm = (now: string, id = changeId) => ({ type: 'ConfirmEmailChange' as const, userId, changeId: id, now });
    const undo = (now: string, id = undoId) => ({ type: 'UndoEmailChange' as const, userId, undoId: id, now });
    const confirmed: UserEvent[] = [
      { type: 'EmailChangeConfirmed', data: { userId, changeId, confirmedAt: '2026-12-06T11:00:00.000Z' } },
      { type: 'EmailChanged', data: { userId, email: 'dad.new@example.com', previousEmail: 'dad@example.com' } },
      // The link went to the new address: it is proven.
      { type: 'EmailVerified', data: { userId, email: 'dad.new@example.com', verifiedAt: '2026-12-06T11:00:00.000Z' } },
    ];

    it('asks the new address, lower-cased, to confirm: the address does not change yet', () =>
      spec.given([registered]).when(ask(' Dad.New@Example.com ')).then([requested]));
    it('emits nothing for the same address', () =>
      spec.given([registered]).when(ask('DAD@example.com')).then([]));
    it('refuses an address that is not one', () =>
      spec.given([registered]).when(ask('dad@')).thenThrows('VALIDATION_FAILED'));
    it('changes the address when the new one confirms within 24 hours', () =>
      spec.given([registered, requested]).when(confirm('2026-12-06T11:00:00.000Z')).then(confirmed));
    it('refuses a confirm link used twice, lapsed, or never this account\'s', () => {
      spec.given([registered, requested, ...confirmed]).when(confirm('2026-12-06T12:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
      spec.given([registered, requested]).when(confirm('2026-12-07T10:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
      spec.given([registered, requested]).when(confirm('2026-12-06T11:00:00.000Z', undoId)).thenThrows('EMAIL_CHANGE_LINK_INVALID');
      spec.given([]).when(confirm('2026-12-06T11:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
    });
    it('lets only the latest request\'s link confirm', () =>
      spec.given([registered, requested, { ...requested, data: { ...requested.data, changeId: undoId, undoId: changeId, email: 'c@example.com' } }])
        .when(confirm('2026-12-06T11:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID'));
    it('undo after the confirmation restores the old address', () =>
      spec.given([registered, requested, ...confirmed]).when(undo('2026-12-12T10:00:00.000Z')).then([
        { type: 'EmailChangeUndone', data: { userId, undoId, undoneAt: '2026-12-12T10:00:00.000Z' } },
        { type: 'EmailChanged', data: { userId, email: 'dad@example.com', previousEmail: 'dad.new@example.com' } },
        { type: 'EmailVerified', data: { userId, email: 'dad@example.com', verifiedAt: '2026-12-12T10:00:00.000Z' } },
      ]));
    it('undo before the confirmation ends the pending change, and its confirm link with it', () => {
      const undone: UserEvent = { type: 'EmailChangeUndone', data: { userId, undoId, undoneAt: '2026-12-06T10:30:00.000Z' } };
      spec.given([registered, requested]).when(undo('2026-12-06T10:30:00.000Z')).then([undone, { type: 'EmailVerified', data: { userId, email: 'dad@example.com', verifiedAt: '2026-12-06T10:30:00.000Z' } }]);
      spec.given([registered, requested, undone]).when(confirm('2026-12-06T11:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
    });
    it('refuses an undo link used twice, after its 7 days, or never this account\'s', () => {
      spec.given([registered, requested, { type: 'EmailChangeUndone', data: { userId, undoId, undoneAt: 'x' } }]).when(undo('2026-12-06T11:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
      spec.given([registered, requested]).when(undo('2026-12-13T10:00:00.000Z')).thenThrows('EMAIL_CHANGE_LINK_INVALID');
      spec.given([registered, requested]).when(undo('2026-12-06T11:00:00.000Z', changeId)).thenThrows('EMAIL_CHANGE_LINK_INVALID');
    });
    it('keeps its steps out of the published stream: EmailChanged tells the rest', () => {
      for (const type of ['EmailChangeRequested', 'EmailChangeConfirmed', 'EmailChangeUndone'] as const) expect(identityPublishPolicy(stored(type))).toBeNull();
      expect(identityPublishPolicy(stored('EmailChanged'))).toMatchObject({ subject: 'identity.user.email-changed.v1' });
    });
  });

  describe('verifying the address', () => {
    const verificationId = '2c3d4e5f-0000-4000-8000-000000000003';
    const ask = (id = verificationId) => ({ type: 'RequestEmailVerification' as const, userId, verificationId: id, now: '2026-12-07T10:00:00.000Z', expiresAt: '2026-12-08T10:00:00.000Z' });
    const requested: UserEvent = { type: 'EmailVerificationRequested', data: { userId, verificationId, email: 'dad@example.com', requestedAt: '2026-12-07T10:00:00.000Z', expiresAt: '2026-12-08T10:00:00.000Z' } };
    const verify = (now: string, id = verificationId) => ({ type: 'VerifyEmail' as const, userId, verificationId: id, now });
    const verified: UserEvent = { type: 'EmailVerified', data: { userId, email: 'dad@example.com', verifiedAt: '2026-12-07T11:00:00.000Z' } };

    it('sends a link to the account\'s address, valid until its time', () =>
      spec.given([registered]).when(ask()).then([requested]));
    it('sends none once the address is verified', () =>
      spec.given([registered, requested, verified]).when(ask('9d3c2b1a-0000-4000-8000-000000000000')).then([]));
    it('verifies the address with the open link, within its 24 hours', () =>
      spec.given([registered, requested]).when(verify('2026-12-07T11:00:00.000Z')).then([verified]));
    it('refuses a link used twice, lapsed, replaced, sent to an address the account left, or never this account\'s, all alike', () => {
      spec.given([registered, requested, verified]).when(verify('2026-12-07T12:00:00.000Z')).thenThrows('EMAIL_VERIFY_LINK_INVALID');
      spec.given([registered, requested]).when(verify('2026-12-08T10:00:00.000Z')).thenThrows('EMAIL_VERIFY_LINK_INVALID');
      spec.given([registered, requested, { ...requested, data: { ...requested.data, verificationId: '9d3c2b1a-0000-4000-8000-000000000000' } }])
        .when(verify('2026-12-07T11:00:00.000Z')).thenThrows('EMAIL_VERIFY_LINK_INVALID');
      spec.given([registered, requested, { type: 'EmailChanged', data: { userId, email: 'other@example.com', previousEmail: 'dad@example.com' } }])
        .when(verify('2026-12-07T11:00:00.000Z')).thenThrows('EMAIL_VERIFY_LINK_INVALID');
      spec.given([]).when(verify('2026-12-07T11:00:00.000Z')).thenThrows('EMAIL_VERIFY_LINK_INVALID');
    });
    it('keeps its events out of the published stream: the access token\'s claim tells the rest', () => {
      for (const type of ['EmailVerificationRequested', 'EmailVerified'] as const) expect(identityPublishPolicy(stored(type))).toBeNull();
    });
  });

  describe('RecordPasswordChange', () => {
    it('records when, never the password', () =>
      spec.given([registered]).when({ type: 'RecordPasswordChange', userId, now: '2026-11-26T10:00:00.000Z' })
        .then([{ type: 'PasswordChanged', data: { userId, changedAt: '2026-11-26T10:00:00.000Z' } }]));
    it('needs a registered user', () =>
      spec.given([]).when({ type: 'RecordPasswordChange', userId, now: 'x' }).thenThrows('NOT_FOUND'));
  });

  describe('SetNotificationPreferences', () => {
    const preferences = { emailNotifications: false, accessRequests: true, systemUpdates: true, marketingEmails: false };
    it('starts from the spec defaults: saving them changes nothing', () =>
      spec.given([registered]).when({ type: 'SetNotificationPreferences', userId, preferences: { emailNotifications: true, accessRequests: true, systemUpdates: false, marketingEmails: false } }).then([]));
    it('records all four switches when one changes', () =>
      spec.given([registered]).when({ type: 'SetNotificationPreferences', userId, preferences })
        .then([{ type: 'NotificationPreferencesChanged', data: { userId, preferences } }]));
    it('keeps only the four switches', () =>
      spec.given([registered]).when({ type: 'SetNotificationPreferences', userId, preferences: { ...preferences, sms: true } as never })
        .then([{ type: 'NotificationPreferencesChanged', data: { userId, preferences } }]));
  });

  describe('password reset', () => {
    const resetId = '0b7e3c1a-6f0e-4a8e-9b1d-2c3d4e5f6a7b';
    const requested: UserEvent = { type: 'PasswordResetRequested', data: { userId, resetId, requestedAt: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-06T10:30:00.000Z' } };
    const reset = (now: string, id = resetId) => ({ type: 'ResetPassword' as const, userId, resetId: id, now });

    it('records a request with the time its link stops working', () =>
      spec.given([registered]).when({ type: 'RequestPasswordReset', userId, resetId, now: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-06T10:30:00.000Z' }).then([requested]));
    it('refuses a request for a user that does not exist', () =>
      spec.given([]).when({ type: 'RequestPasswordReset', userId, resetId, now: 'x', expiresAt: 'y' }).thenThrows('NOT_FOUND'));
    it('uses an open link once: the password changes', () =>
      spec.given([registered, requested]).when(reset('2026-12-06T10:29:59.000Z')).then([
        { type: 'PasswordResetUsed', data: { userId, resetId, usedAt: '2026-12-06T10:29:59.000Z' } },
        { type: 'PasswordChanged', data: { userId, changedAt: '2026-12-06T10:29:59.000Z' } },
      ]));
    it('refuses a link used before', () =>
      spec.given([registered, requested, { type: 'PasswordResetUsed', data: { userId, resetId, usedAt: 'x' } }, { type: 'PasswordChanged', data: { userId, changedAt: 'x' } }])
        .when(reset('2026-12-06T10:05:00.000Z')).thenThrows('RESET_LINK_INVALID'));
    it('refuses a link at the end of its 30 minutes', () =>
      spec.given([registered, requested]).when(reset('2026-12-06T10:30:00.000Z')).thenThrows('RESET_LINK_INVALID'));
    it('refuses a link this account never asked for', () =>
      spec.given([registered, requested]).when(reset('2026-12-06T10:05:00.000Z', '9d3c2b1a-0000-4000-8000-000000000000')).thenThrows('RESET_LINK_INVALID'));
    it('keeps its own events out of the published stream', () => {
      expect(identityPublishPolicy(stored('PasswordResetRequested'))).toBeNull();
      expect(identityPublishPolicy(stored('PasswordResetUsed'))).toBeNull();
      expect(identityPublishPolicy(stored('PasswordChanged'))).toMatchObject({ subject: 'identity.user.password-changed.v1' });
    });
    it('refuses an open link once the password was changed another way', () =>
      spec.given([registered, requested, { type: 'PasswordChanged', data: { userId, changedAt: '2026-12-06T10:01:00.000Z' } }])
        .when(reset('2026-12-06T10:05:00.000Z')).thenThrows('RESET_LINK_INVALID'));
  });

  describe('two-step sign-in', () => {
    const now = '2026-12-07T03:00:00.000Z';
    const enabled: UserEvent = { type: 'TwoStepEnabled', data: { userId, enabledAt: now, recoveryCodes: 10 } };
    it('turns on once, off once, and makes new recovery codes only while on', () => {
      spec.given([registered]).when({ type: 'EnableTwoStep', userId, now, recoveryCodes: 10 }).then([enabled]);
      spec.given([registered, enabled]).when({ type: 'EnableTwoStep', userId, now, recoveryCodes: 10 }).thenThrows('CONFLICT');
      spec.given([registered, enabled]).when({ type: 'RegenerateRecoveryCodes', userId, now, recoveryCodes: 10 })
        .then([{ type: 'RecoveryCodesRegenerated', data: { userId, regeneratedAt: now, recoveryCodes: 10 } }]);
      spec.given([registered, enabled]).when({ type: 'DisableTwoStep', userId, now }).then([{ type: 'TwoStepDisabled', data: { userId, disabledAt: now } }]);
      spec.given([registered, enabled, { type: 'TwoStepDisabled', data: { userId, disabledAt: now } }]).when({ type: 'DisableTwoStep', userId, now }).thenThrows('CONFLICT');
      spec.given([registered]).when({ type: 'RegenerateRecoveryCodes', userId, now, recoveryCodes: 10 }).thenThrows('CONFLICT');
      spec.given([]).when({ type: 'EnableTwoStep', userId, now, recoveryCodes: 10 }).thenThrows('NOT_FOUND');
    });
    it('keeps its events out of the published stream', () => {
      for (const type of ['TwoStepEnabled', 'TwoStepDisabled', 'RecoveryCodesRegenerated'] as const) expect(identityPublishPolicy(stored(type))).toBeNull();
    });
  });

  describe('deleting the account', () => {
    const deletionId = 'c0a8a1b2-0000-4000-8000-000000000001';
    const requestedAt = '2026-12-07T10:00:00.000Z';
    const dueAt = '2026-12-14T10:00:00.000Z';
    const requested: UserEvent = { type: 'AccountDeletionRequested', data: { userId, deletionId, requestedAt, dueAt } };
    const request = (confirmation: string) => ({ type: 'RequestAccountDeletion' as const, userId, deletionId, confirmation, now: requestedAt, dueAt });

    it('schedules the deletion when the owner typed the word (letter case and spaces aside)', () => {
      spec.given([registered]).when(request('DELETE')).then([requested]);
      spec.given([registered]).when(request('  delete ')).then([requested]);
    });
    it('refuses any other confirmation with a field error', () => {
      spec.given([registered]).when(request('')).thenThrows('VALIDATION_FAILED');
      spec.given([registered]).when(request('dad@example.com')).thenThrows('VALIDATION_FAILED');
      spec.given([registered]).when(request('DELETED')).thenThrows('VALIDATION_FAILED');
    });
    it('refuses a second request while one is pending, and a request for no account', () => {
      spec.given([registered, requested]).when(request('DELETE')).thenThrows('CONFLICT');
      spec.given([]).when(request('DELETE')).thenThrows('NOT_FOUND');
    });
    it('is kept from Settings while pending; from Settings with nothing pending is a conflict', () => {
      spec.given([registered, requested]).when({ type: 'CancelAccountDeletion', userId, now: '2026-12-08T10:00:00.000Z' })
        .then([{ type: 'AccountDeletionCancelled', data: { userId, deletionId, cancelledAt: '2026-12-08T10:00:00.000Z', by: 'settings' } }]);
      spec.given([registered]).when({ type: 'CancelAccountDeletion', userId, now: '2026-12-08T10:00:00.000Z' }).thenThrows('CONFLICT');
    });
    it('is kept by its link once, before it is due; a used, lapsed, older or foreign link is refused alike', () => {
      const cancelled: UserEvent = { type: 'AccountDeletionCancelled', data: { userId, deletionId, cancelledAt: '2026-12-08T10:00:00.000Z', by: 'link' } };
      spec.given([registered, requested]).when({ type: 'CancelAccountDeletion', userId, deletionId, now: '2026-12-08T10:00:00.000Z' }).then([cancelled]);
      spec.given([registered, requested, cancelled]).when({ type: 'CancelAccountDeletion', userId, deletionId, now: '2026-12-08T11:00:00.000Z' }).thenThrows('ACCOUNT_DELETION_LINK_INVALID');
      spec.given([registered, requested]).when({ type: 'CancelAccountDeletion', userId, deletionId, now: dueAt }).thenThrows('ACCOUNT_DELETION_LINK_INVALID');
      spec.given([registered, requested]).when({ type: 'CancelAccountDeletion', userId, deletionId: 'another', now: requestedAt }).thenThrows('ACCOUNT_DELETION_LINK_INVALID');
      spec.given([]).when({ type: 'CancelAccountDeletion', userId, deletionId, now: requestedAt }).thenThrows('ACCOUNT_DELETION_LINK_INVALID');
    });
    it('erases the account once it is due, never early, never twice, never after it was kept', () => {
      const erased: UserEvent = { type: 'AccountErased', data: { userId, erasedAt: dueAt } };
      spec.given([registered, requested]).when({ type: 'EraseAccount', userId, deletionId, now: dueAt }).then([erased]);
      spec.given([registered, requested]).when({ type: 'EraseAccount', userId, deletionId, now: '2026-12-14T09:59:59.999Z' }).then([]);
      spec.given([registered, requested, erased]).when({ type: 'EraseAccount', userId, deletionId, now: '2026-12-15T10:00:00.000Z' }).then([]);
      spec.given([registered, requested, { type: 'AccountDeletionCancelled', data: { userId, deletionId, cancelledAt: requestedAt, by: 'settings' } }])
        .when({ type: 'EraseAccount', userId, deletionId, now: dueAt }).then([]);
      // A timer left from a deletion kept and asked again erases nothing: the newer one has its own.
      spec.given([registered, { type: 'AccountDeletionRequested', data: { userId, deletionId: 'newer', requestedAt, dueAt } }])
        .when({ type: 'EraseAccount', userId, deletionId, now: dueAt }).then([]);
    });
    it('erases again an account a restore brought back (the erasure journal), and nothing already erased or never registered', () => {
      const now = '2026-12-20T10:00:00.000Z';
      spec.given([registered]).when({ type: 'EraseAccountAgain', userId, now }).then([{ type: 'AccountErased', data: { userId, erasedAt: now } }]);
      spec.given([registered, { type: 'AccountErased', data: { userId, erasedAt: dueAt } }]).when({ type: 'EraseAccountAgain', userId, now }).then([]);
      spec.given([]).when({ type: 'EraseAccountAgain', userId, now }).then([]);
    });
    it('leaves an erased account nothing to do: no profile change, no new deletion', () => {
      const erased: UserEvent = { type: 'AccountErased', data: { userId, erasedAt: dueAt } };
      spec.given([registered, requested, erased]).when({ type: 'UpdateProfile', userId, fullName: 'John' }).thenThrows('NOT_FOUND');
      spec.given([registered, requested, erased]).when(request('DELETE')).thenThrows('NOT_FOUND');
    });
    it('keeps the grace period out of the published stream; AccountErased is published', () => {
      expect(identityPublishPolicy(stored('AccountDeletionRequested'))).toBeNull();
      expect(identityPublishPolicy(stored('AccountDeletionCancelled'))).toBeNull();
      expect(identityPublishPolicy(stored('AccountErased'))?.subject).toBe('identity.user.account-erased.v1');
    });
  });
});
