import type {
  AddContactRequest, CheckInLinkRequest, CheckInReply, ContactKeyReply, DeliveryCheck, DeliverySettings, DeliveryView, EmergencyContact, InactivityWatch, SaveDeliverySettingsRequest,
  SaveInactivityRequest,
} from '@lv/contracts';
import { api } from './api.js';

export const ifImNotThereKeys = {
  contacts: ['if-im-not-there', 'contacts'] as const,
  settings: ['if-im-not-there', 'delivery-settings'] as const,
  delivery: ['if-im-not-there', 'delivery'] as const,
};

export function fetchContacts(signal?: AbortSignal): Promise<EmergencyContact[]> {
  return api.get<EmergencyContact[]>('/api/if-im-not-there/contacts', { signal });
}

/** Adds a contact under the browser's id for it, so a retried add adds it once. */
export function addContact(contact: AddContactRequest): Promise<EmergencyContact> {
  return api.request<EmergencyContact>('/api/if-im-not-there/contacts', { method: 'POST', body: contact });
}

export function removeContact(id: string): Promise<{ id: string; removed: true }> {
  return api.request<{ id: string; removed: true }>(`/api/if-im-not-there/contacts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The access key toggle: on issues a 7-day key and e-mails it; off revokes it. */
export function setContactKey(id: string, enabled: boolean): Promise<ContactKeyReply> {
  return api.request<ContactKeyReply>(`/api/if-im-not-there/contacts/${encodeURIComponent(id)}/access-key`, { method: 'PUT', body: { enabled } });
}

export function fetchDeliverySettings(signal?: AbortSignal): Promise<DeliverySettings> {
  return api.get<DeliverySettings>('/api/if-im-not-there/delivery-settings', { signal });
}

export function saveDeliverySettings(settings: SaveDeliverySettingsRequest): Promise<DeliverySettings> {
  return api.request<DeliverySettings>('/api/if-im-not-there/delivery-settings', { method: 'PUT', body: settings });
}

/** Whether a delivery of the vault has started, and when it is due. */
export function fetchDelivery(signal?: AbortSignal): Promise<DeliveryView> {
  return api.get<DeliveryView>('/api/if-im-not-there/delivery', { signal });
}

/** "I'm still here": stops a delivery before it happens. */
export function cancelDelivery(): Promise<DeliveryView> {
  return api.request<DeliveryView>('/api/if-im-not-there/delivery/cancel', { method: 'POST' });
}

/** /test-vault-delivery: the delivery pipeline's checks for the caller's vault, run by the services (nothing is written). */
export function runDeliveryChecks(): Promise<DeliveryCheck[]> {
  return api.request<DeliveryCheck[]>('/api/if-im-not-there/delivery/checks', { method: 'POST' });
}

export const inactivityKeys = { watch: ['if-im-not-there', 'inactivity'] as const };

/** The owner's inactivity watch: the period (null: off), paused or not, and when the warnings and the delivery are due. */
export function fetchInactivity(signal?: AbortSignal): Promise<InactivityWatch> {
  return api.get<InactivityWatch>('/api/if-im-not-there/inactivity', { signal });
}

export function saveInactivity(body: SaveInactivityRequest): Promise<InactivityWatch> {
  return api.request<InactivityWatch>('/api/if-im-not-there/inactivity', { method: 'PUT', body });
}

export function pauseInactivity(): Promise<InactivityWatch> {
  return api.request<InactivityWatch>('/api/if-im-not-there/inactivity/pause', { method: 'POST' });
}

export function resumeInactivity(): Promise<InactivityWatch> {
  return api.request<InactivityWatch>('/api/if-im-not-there/inactivity/resume', { method: 'POST' });
}

/** A test warning e-mailed now, with a working check-in link. */
export function sendTestInactivityWarning(): Promise<InactivityWatch> {
  return api.request<InactivityWatch>('/api/if-im-not-there/inactivity/test-warning', { method: 'POST' });
}

/** The "I'm still here" link of a warning e-mail (public): its signed parameters, as they came. */
export function checkInByLink(link: CheckInLinkRequest): Promise<CheckInReply> {
  return api.request<CheckInReply>('/api/if-im-not-there/check-in', { method: 'POST', body: link });
}
