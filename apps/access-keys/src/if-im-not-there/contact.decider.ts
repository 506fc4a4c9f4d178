import { IfImNotThereMessages, type Relationship } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** Who a contact is: sealed in the event store under the contact stream's own key (personal-sealing.ts). */
export interface ContactDetails {
  name: string;
  email: string;
  phone: string | null;
}

/**
 * An emergency contact: one stream per contact, `emergency-contact-{id}`. Added with its details,
 * removed by the owner; its access key toggle records which key (issued by the key stream, in the
 * same transaction) is the contact's, and disabling it names the key the service then revokes.
 */
export type ContactEvent =
  | { type: 'EmergencyContactAdded'; data: { contactId: string; ownerId: string; label: Relationship; addedAt: string; personal: ContactDetails | null } }
  | { type: 'EmergencyContactRemoved'; data: { contactId: string; ownerId: string; keyId: string | null; removedAt: string } }
  | { type: 'EmergencyContactKeyEnabled'; data: { contactId: string; ownerId: string; keyId: string; expiresAt: string; enabledAt: string } }
  | { type: 'EmergencyContactKeyDisabled'; data: { contactId: string; ownerId: string; keyId: string; disabledAt: string } };

export interface ContactState {
  status: 'none' | 'active' | 'removed';
  contactId: string | null;
  ownerId: string | null;
  label: Relationship | null;
  details: ContactDetails | null;
  keyId: string | null;
}

export type ContactCommand =
  | { type: 'AddContact'; contactId: string; ownerId: string; label: Relationship; details: ContactDetails; now: string }
  | { type: 'RemoveContact'; ownerId: string; now: string }
  | { type: 'EnableContactKey'; ownerId: string; keyId: string; expiresAt: string; now: string }
  | { type: 'DisableContactKey'; ownerId: string; now: string };

export const CONTACT_STREAM_TYPE = 'emergency-contact';
export const contactStreamId = (contactId: string) => `emergency-contact-${contactId}`;

const notFound = () => new DomainError('NOT_FOUND', IfImNotThereMessages.contactNotFound);
const sameDetails = (a: ContactDetails | null, b: ContactDetails) => a !== null && a.name === b.name && a.email === b.email && a.phone === b.phone;

export const contactDecider: Decider<ContactState, ContactCommand, ContactEvent> = {
  initialState: () => ({ status: 'none', contactId: null, ownerId: null, label: null, details: null, keyId: null }),

  decide(command, state) {
    if (command.type === 'AddContact') {
      if (state.status === 'none') {
        return [{ type: 'EmergencyContactAdded', data: { contactId: command.contactId, ownerId: command.ownerId, label: command.label, addedAt: command.now, personal: command.details } }];
      }
      // The same add again (a retried click, a lost answer) records nothing; anything else under this id is refused.
      if (state.status === 'active' && state.ownerId === command.ownerId && state.label === command.label && sameDetails(state.details, command.details)) return [];
      throw new DomainError('CONFLICT', 'This contact id is already in use.');
    }
    // Someone else's contact, one never added, or one removed: the same answer.
    if (state.status !== 'active' || state.ownerId !== command.ownerId) throw notFound();
    const contactId = state.contactId!;
    switch (command.type) {
      case 'RemoveContact':
        return [{ type: 'EmergencyContactRemoved', data: { contactId, ownerId: command.ownerId, keyId: state.keyId, removedAt: command.now } }];
      case 'EnableContactKey':
        return [{ type: 'EmergencyContactKeyEnabled', data: { contactId, ownerId: command.ownerId, keyId: command.keyId, expiresAt: command.expiresAt, enabledAt: command.now } }];
      case 'DisableContactKey':
        // Off already: nothing to do (a retried click).
        if (state.keyId === null) return [];
        return [{ type: 'EmergencyContactKeyDisabled', data: { contactId, ownerId: command.ownerId, keyId: state.keyId, disabledAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'EmergencyContactAdded':
        return { ...state, status: 'active', contactId: event.data.contactId, ownerId: event.data.ownerId, label: event.data.label, details: event.data.personal };
      case 'EmergencyContactRemoved':
        return { ...state, status: 'removed', keyId: null };
      case 'EmergencyContactKeyEnabled':
        return { ...state, keyId: event.data.keyId };
      case 'EmergencyContactKeyDisabled':
        return { ...state, keyId: null };
    }
  },
};
