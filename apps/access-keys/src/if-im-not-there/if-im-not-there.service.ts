import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  EMERGENCY_CONTACTS_MAX, EMERGENCY_KEY_VALID_DAYS, IfImNotThereMessages, isUuid, SUDO_WINDOW_SECONDS, VIEW_SECTIONS, type AddContactPayload, type ContactKeyReply, type DeliverySettings,
  type EmergencyContact, type FinalAccess, type FinalEntries, type RequestMeta, type SaveDeliverySettingsPayload,
} from '@lv/contracts';
import { ownerOf, requireRecentProof, vaultOwnerId, type Caller, type UserCaller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { decideAndAppend, handleCommand, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import type { AccessKeysService } from '../access-keys.service.js';
import { hashAccessKey } from '../secrets.js';
import { CONTACT_STREAM_TYPE, contactDecider, contactStreamId, type ContactCommand } from './contact.decider.js';
import { DELIVERY_SETTINGS_STREAM_TYPE, deliverySettingsDecider, deliverySettingsStreamId } from './delivery-settings.decider.js';
import { countContacts, findContact, findContacts, findDeliverySettings } from './if-im-not-there.projections.js';

const DAY_MS = 24 * 3600 * 1000;

export interface IfImNotThereDeps {
  orm: MikroORM;
  /** access-keys' one event store: the contacts' and settings' streams live beside the keys'. */
  store: EventStore;
  /** Issues and revokes the contacts' keys, e-mail job included. */
  keys: AccessKeysService;
}

/**
 * If I'm Not There: the owner's emergency contacts, the access key each may be given (a toggle:
 * enabling issues a key valid 7 days and e-mails it; disabling revokes it and its sessions), and the
 * vault delivery settings. The owner is always the verified caller.
 */
export class IfImNotThereService {
  constructor(private readonly deps: IfImNotThereDeps) {}

  private get em() {
    return this.deps.orm.em.fork();
  }

  listContacts(caller: Caller): Promise<EmergencyContact[]> {
    return findContacts(this.em, ownerOf(caller).userId);
  }

  async addContact(caller: Caller, input: AddContactPayload, meta: RequestMeta): Promise<EmergencyContact> {
    const owner = ownerOf(caller);
    const contactId = input.id.toLowerCase();
    const existing = await findContact(this.em, owner.userId, contactId);
    if (!existing && (await countContacts(this.em, owner.userId)) >= EMERGENCY_CONTACTS_MAX) {
      throw validationError({ contacts: IfImNotThereMessages.tooManyContacts }, IfImNotThereMessages.tooManyContacts);
    }
    await this.run(contactStreamId(contactId), {
      type: 'AddContact', contactId, ownerId: owner.userId, label: input.label, details: { name: input.name, email: input.email, phone: input.phone }, now: new Date().toISOString(),
    }, owner, meta);
    return this.contact(owner, contactId);
  }

  /** Removes a contact; its key, if it has one, is revoked first (it must stop working before the contact is gone). */
  async removeContact(caller: Caller, id: string, meta: RequestMeta): Promise<{ id: string; removed: true }> {
    const owner = ownerOf(caller);
    const contact = await this.contact(owner, id);
    if (contact.key_id) await this.revoke(caller, contact.key_id, meta);
    await this.run(contactStreamId(contact.id), { type: 'RemoveContact', ownerId: owner.userId, now: new Date().toISOString() }, owner, meta);
    return { id: contact.id, removed: true };
  }

  /**
   * The access key toggle. On: a new key (a random UUID, kept as its hash) valid 7 days, for every
   * section, recorded on the contact in the same transaction as the key and its e-mail job; the key
   * is answered once. A contact whose key still works keeps it. Off: the key is revoked, with its sessions.
   */
  async setContactKey(caller: Caller, input: { id: string; enabled: boolean }, meta: RequestMeta): Promise<ContactKeyReply> {
    // Sudo mode: a contact's key is issued or revoked here.
    const owner = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const contact = await this.contact(owner, input.id);
    if (!input.enabled) {
      if (contact.key_id) {
        await this.revoke(caller, contact.key_id, meta);
        await this.run(contactStreamId(contact.id), { type: 'DisableContactKey', ownerId: owner.userId, now: new Date().toISOString() }, owner, meta);
      }
      return { contact: strip(await this.contact(owner, contact.id)), access_key: null };
    }
    if (contact.has_access_key) return { contact: strip(contact), access_key: null };
    const key = randomUUID();
    const keyId = randomUUID();
    const now = new Date().toISOString();
    const expiresAt = new Date(Date.parse(now) + EMERGENCY_KEY_VALID_DAYS * DAY_MS).toISOString();
    await this.deps.keys.issueKey(owner, meta, {
      type: 'IssueKey', keyId, ownerId: owner.userId, keyHash: hashAccessKey(key), source: 'contact', requestId: null, scopes: [...VIEW_SECTIONS], expiresAt,
      recipient: { recipientEmail: contact.email, name: contact.name }, now,
    }, key, (em, metadata) => decideAndAppend(em, this.deps.store, contactDecider, { type: 'EnableContactKey', ownerId: owner.userId, keyId, expiresAt, now }, {
      streamId: contactStreamId(contact.id), streamType: CONTACT_STREAM_TYPE, metadata,
    }));
    return { contact: strip(await this.contact(owner, contact.id)), access_key: key };
  }

  deliverySettings(caller: Caller): Promise<DeliverySettings> {
    return findDeliverySettings(this.em, ownerOf(caller).userId);
  }

  async saveDeliverySettings(caller: Caller, input: SaveDeliverySettingsPayload, meta: RequestMeta): Promise<DeliverySettings> {
    // Sudo mode: what is delivered, and when, is changed only with a fresh proof of who he is.
    const owner = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    await handleCommand(this.deps.orm.em, this.deps.store, deliverySettingsDecider, {
      type: 'SaveDeliverySettings', ownerId: owner.userId, now: new Date().toISOString(),
      choices: { timing: input.delivery_timing, requireLegalVerification: input.require_legal_verification, allowPreview: input.allow_preview, notifyTrustee: input.notify_trustee },
      personal: { trusteeName: input.trustee_name, trusteeEmail: input.trustee_email, finalThoughts: input.final_thoughts },
    }, { streamId: deliverySettingsStreamId(owner.userId), streamType: DELIVERY_SETTINGS_STREAM_TYPE, metadata: this.actor(owner, meta) });
    return this.deliverySettings(caller);
  }

  /**
   * What the viewer's "If I'm Not There" tab lists (titles only): the owner's final thoughts, once
   * written. A key holder sees them only while the owner allows a preview ("allow preview").
   */
  async finalEntries(caller: Caller, released: boolean): Promise<FinalEntries> {
    const ownerId = vaultOwnerId(caller);
    const settings = await findDeliverySettings(this.em, ownerId);
    if (!settings.final_thoughts || !settings.updated_at) return [];
    if (!finalsOpen(caller, settings, released)) return [];
    return [{ id: `${ownerId}:final-thoughts`, title: IfImNotThereMessages.finalThoughtsTitle, created_at: settings.updated_at }];
  }

  /** What a key holder may open of the final words: the owner's preview setting, or the release, decides. */
  async finalAccess(caller: Caller, released: boolean): Promise<FinalAccess> {
    const settings = await findDeliverySettings(this.em, vaultOwnerId(caller));
    const open = finalsOpen(caller, settings, released);
    const thoughts = open && settings.final_thoughts && settings.updated_at ? { text: settings.final_thoughts, updated_at: settings.updated_at } : null;
    return { open, released, final_thoughts: thoughts };
  }

  /** The caller's contact, or NOT_FOUND (someone else's, removed, or not an id at all). */
  private async contact(owner: UserCaller, id: string) {
    const contact = isUuid(id) ? await findContact(this.em, owner.userId, id.toLowerCase()) : null;
    if (!contact) throw new DomainError('NOT_FOUND', IfImNotThereMessages.contactNotFound);
    return contact;
  }

  private async revoke(caller: Caller, keyId: string, meta: RequestMeta): Promise<void> {
    await this.deps.keys.revokeKey(caller, keyId, meta);
  }

  private run(streamId: string, command: ContactCommand, owner: UserCaller, meta: RequestMeta) {
    return handleCommand(this.deps.orm.em, this.deps.store, contactDecider, command, { streamId, streamType: CONTACT_STREAM_TYPE, metadata: this.actor(owner, meta) });
  }

  private actor(owner: UserCaller, meta: RequestMeta): EventMetadata {
    return { actor: { kind: 'user', id: owner.userId }, ...(meta.requestId ? { correlationId: meta.requestId } : {}) };
  }
}

const strip = ({ key_id: _keyId, ...contact }: EmergencyContact & { key_id: string | null }): EmergencyContact => contact;

/** The owner reads his own final words; a key holder once the owner allows a preview or the vault was released. */
function finalsOpen(caller: Caller, settings: Pick<DeliverySettings, 'allow_preview'>, released: boolean): boolean {
  return caller.kind !== 'viewer' || settings.allow_preview || released;
}
