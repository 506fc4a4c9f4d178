import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts), under the names the screens use.
export type EmergencyContact = Schema<'EmergencyContactDto'>;
export type AddContactRequest = Schema<'AddContactDto'>;
export type RemovedContact = Schema<'RemoveContactReplyDto'>;
export type ContactKeyReply = Schema<'ContactKeyReplyDto'>;
export type DeliverySettings = Schema<'DeliverySettingsDto'>;
export type SaveDeliverySettingsRequest = Schema<'SaveDeliverySettingsDto'>;
export type DeliveryView = Schema<'DeliveryViewDto'>;
export type DeliveryCheck = Schema<'DeliveryCheckDto'>;
export type InactivityWatch = Schema<'InactivityWatchDto'>;
export type SaveInactivityRequest = Schema<'SaveInactivityDto'>;
export type CheckInLinkRequest = Schema<'CheckInLinkDto'>;
export type CheckInReply = Schema<'CheckInReplyDto'>;

export const ifImNotThereKeys = {
  contacts: ['if-im-not-there', 'contacts'] as const,
  settings: ['if-im-not-there', 'delivery-settings'] as const,
  delivery: ['if-im-not-there', 'delivery'] as const,
};

export function fetchContacts(signal?: AbortSignal): Promise<EmergencyContact[]> {
  return http.get('/api/if-im-not-there/contacts', { signal });
}

/** Adds a contact under the browser's id for it, so a retried add adds it once. */
export function addContact(contact: AddContactRequest): Promise<EmergencyContact> {
  return http.post('/api/if-im-not-there/contacts', { body: contact });
}

export function removeContact(id: string): Promise<RemovedContact> {
  return http.del('/api/if-im-not-there/contacts/{id}', { path: { id } });
}

/** The access key toggle: on issues a 7-day key and e-mails it; off revokes it. */
export function setContactKey(id: string, enabled: boolean): Promise<ContactKeyReply> {
  return http.put('/api/if-im-not-there/contacts/{id}/access-key', { path: { id }, body: { enabled } });
}

export function fetchDeliverySettings(signal?: AbortSignal): Promise<DeliverySettings> {
  return http.get('/api/if-im-not-there/delivery-settings', { signal });
}

export function saveDeliverySettings(settings: SaveDeliverySettingsRequest): Promise<DeliverySettings> {
  return http.put('/api/if-im-not-there/delivery-settings', { body: settings });
}

/** Whether a delivery of the vault has started, and when it is due. */
export function fetchDelivery(signal?: AbortSignal): Promise<DeliveryView> {
  return http.get('/api/if-im-not-there/delivery', { signal });
}

/** "I'm still here": stops a delivery before it happens. */
export function cancelDelivery(): Promise<DeliveryView> {
  return http.post('/api/if-im-not-there/delivery/cancel');
}

/** /test-vault-delivery: the delivery pipeline's checks for the caller's vault, run by the services (nothing is written). */
export function runDeliveryChecks(): Promise<DeliveryCheck[]> {
  return http.post('/api/if-im-not-there/delivery/checks');
}

export const inactivityKeys = { watch: ['if-im-not-there', 'inactivity'] as const };

/** The owner's inactivity watch: the period (null: off), paused or not, and when the warnings and the delivery are due. */
export function fetchInactivity(signal?: AbortSignal): Promise<InactivityWatch> {
  return http.get('/api/if-im-not-there/inactivity', { signal });
}

export function saveInactivity(body: SaveInactivityRequest): Promise<InactivityWatch> {
  return http.put('/api/if-im-not-there/inactivity', { body });
}

export function pauseInactivity(): Promise<InactivityWatch> {
  return http.post('/api/if-im-not-there/inactivity/pause');
}

export function resumeInactivity(): Promise<InactivityWatch> {
  return http.post('/api/if-im-not-there/inactivity/resume');
}

/** A test warning e-mailed now, with a working check-in link. */
export function sendTestInactivityWarning(): Promise<InactivityWatch> {
  return http.post('/api/if-im-not-there/inactivity/test-warning');
}

/** The "I'm still here" link of a warning e-mail (public): its signed parameters, as they came. */
export function checkInByLink(link: CheckInLinkRequest): Promise<CheckInReply> {
  return http.post('/api/if-im-not-there/check-in', { body: link });
}
