import type { IdentityEvent } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { userDecider } from './user.decider.js';

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

  describe('ChangeEmail', () => {
    it('records the new address, lower-cased, with the one it replaces', () =>
      spec.given([registered]).when({ type: 'ChangeEmail', userId, email: ' Dad.New@Example.com ' })
        .then([{ type: 'EmailChanged', data: { userId, email: 'dad.new@example.com', previousEmail: 'dad@example.com' } }]));
    it('emits nothing for the same address', () =>
      spec.given([registered]).when({ type: 'ChangeEmail', userId, email: 'DAD@example.com' }).then([]));
    it('refuses an address that is not one', () =>
      spec.given([registered]).when({ type: 'ChangeEmail', userId, email: 'dad@' }).thenThrows('VALIDATION_FAILED'));
    it('follows the latest address', () =>
      spec.given([registered, { type: 'EmailChanged', data: { userId, email: 'b@example.com', previousEmail: 'dad@example.com' } }])
        .when({ type: 'ChangeEmail', userId, email: 'dad@example.com' })
        .then([{ type: 'EmailChanged', data: { userId, email: 'dad@example.com', previousEmail: 'b@example.com' } }]));
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
});
