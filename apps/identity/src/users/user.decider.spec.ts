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
});
