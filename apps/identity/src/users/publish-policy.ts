import { IdentityEvents, type IdentityEvent } from '@lv/contracts';
import type { PublishPolicy } from '@lv/platform/event-store';

/**
 * Every identity event is public to the other services (none carries a secret, see migrations) but
 * account recovery's own (PasswordResetRequested, PasswordResetUsed): PasswordChanged tells the rest;
 * and an e-mail change's steps (EmailChangeRequested, ...Confirmed, ...Undone): EmailChanged tells the rest;
 * and the address's verification (EmailVerificationRequested, EmailVerified): the access token's claim tells the rest;
 * and two-step sign-in's (TwoStepEnabled, TwoStepDisabled, RecoveryCodesRegenerated): no other service acts on them;
 * and an account deletion's grace period (AccountDeletionRequested, AccountDeletionCancelled): AccountErased tells the rest when it ends.
 */
const PRIVATE = new Set([
  'PasswordResetRequested', 'PasswordResetUsed', 'EmailChangeRequested', 'EmailChangeConfirmed', 'EmailChangeUndone', 'EmailVerificationRequested', 'EmailVerified',
  'TwoStepEnabled', 'TwoStepDisabled', 'RecoveryCodesRegenerated',
  'AccountDeletionRequested', 'AccountDeletionCancelled',
]);

export const identityPublishPolicy: PublishPolicy = (event) => {
  if (PRIVATE.has(event.type)) return null;
  const type = event.type as IdentityEvent['type'];
  return { subject: IdentityEvents[type].subject, data: event.data };
};
