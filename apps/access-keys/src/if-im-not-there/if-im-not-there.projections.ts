import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings, type EmergencyContact, type Relationship } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { ContactEvent } from './contact.decider.js';
import type { DeliverySettingsEvent } from './delivery-settings.decider.js';

/**
 * emergency_contacts: the owner's contacts, details in the clear for the owner only (every read
 * filters on the verified caller), with the id of the contact's current key. A removed contact's row
 * is deleted.
 */
export const contactsProjection = projectionFor<ContactEvent>({
  name: 'emergency_contacts',
  handles: ['EmergencyContactAdded', 'EmergencyContactRemoved', 'EmergencyContactKeyEnabled', 'EmergencyContactKeyDisabled'],

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'EmergencyContactAdded': {
          const d = event.data;
          await em.execute(
            `insert into emergency_contacts (id, owner_id, label, name, email, phone, created_at) values (?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
            [d.contactId, d.ownerId, d.label, d.personal?.name ?? '', d.personal?.email ?? '', d.personal?.phone ?? null, d.addedAt],
          );
          break;
        }
        case 'EmergencyContactRemoved':
          await em.execute(`delete from emergency_contacts where id = ?`, [event.data.contactId]);
          break;
        case 'EmergencyContactKeyEnabled':
          await em.execute(`update emergency_contacts set key_id = ? where id = ?`, [event.data.keyId, event.data.contactId]);
          break;
        case 'EmergencyContactKeyDisabled':
          await em.execute(`update emergency_contacts set key_id = null where id = ? and key_id = ?`, [event.data.contactId, event.data.keyId]);
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from emergency_contacts');
  },
});

/** delivery_settings: each owner's saved settings (the last save wins); none saved means the spec's defaults. */
export const deliverySettingsProjection = projectionFor<DeliverySettingsEvent>({
  name: 'delivery_settings',
  handles: ['DeliverySettingsSaved'],

  async apply(em, events) {
    for (const event of events) {
      const d = event.data;
      await em.execute(
        `insert into delivery_settings (owner_id, delivery_timing, require_legal_verification, allow_preview, notify_trustee, trustee_name, trustee_email, final_thoughts, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?)
         on conflict (owner_id) do update set delivery_timing = excluded.delivery_timing, require_legal_verification = excluded.require_legal_verification,
           allow_preview = excluded.allow_preview, notify_trustee = excluded.notify_trustee, trustee_name = excluded.trustee_name,
           trustee_email = excluded.trustee_email, final_thoughts = excluded.final_thoughts, updated_at = excluded.updated_at`,
        [d.ownerId, d.timing, d.requireLegalVerification, d.allowPreview, d.notifyTrustee, d.personal?.trusteeName ?? '', d.personal?.trusteeEmail ?? '', d.personal?.finalThoughts ?? '', d.savedAt],
      );
    }
  },

  async reset(em) {
    await em.execute('delete from delivery_settings');
  },
});

interface ContactRow {
  id: string;
  label: Relationship;
  name: string;
  email: string;
  phone: string | null;
  created_at: Date;
  key_id: string | null;
  key_expires_at: Date | null;
  key_revoked_at: Date | null;
  key_email_status: 'queued' | 'sent' | 'failed' | null;
}

const toContact = (row: ContactRow, now = Date.now()): EmergencyContact => {
  // The toggle is on while the contact's key still opens the vault: an expired or revoked key is off.
  const live = row.key_id !== null && row.key_revoked_at === null && row.key_expires_at !== null && new Date(row.key_expires_at).getTime() > now;
  return {
    id: row.id, name: row.name, label: row.label, email: row.email, phone: row.phone, has_access_key: live,
    access_key_expires_at: live ? new Date(row.key_expires_at!).toISOString() : null, access_key_email: live ? row.key_email_status : null,
    created_at: new Date(row.created_at).toISOString(),
  };
};

const CONTACT_SELECT = `select c.id, c.label, c.name, c.email, c.phone, c.created_at, c.key_id, k.expires_at as key_expires_at, k.revoked_at as key_revoked_at,
  k.email_status as key_email_status from emergency_contacts c left join access_keys k on k.id = c.key_id`;

/** The owner's contacts, oldest first (the order they were added). */
export async function findContacts(em: EntityManager, ownerId: string): Promise<EmergencyContact[]> {
  const rows = await em.execute<ContactRow[]>(`${CONTACT_SELECT} where c.owner_id = ? order by c.created_at, c.id`, [ownerId]);
  return rows.map((row) => toContact(row));
}

export async function findContact(em: EntityManager, ownerId: string, contactId: string): Promise<(EmergencyContact & { key_id: string | null }) | null> {
  const [row] = await em.execute<ContactRow[]>(`${CONTACT_SELECT} where c.owner_id = ? and c.id = ?`, [ownerId, contactId]);
  return row ? { ...toContact(row), key_id: row.key_id } : null;
}

export async function countContacts(em: EntityManager, ownerId: string): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from emergency_contacts where owner_id = ?`, [ownerId]);
  return row?.n ?? 0;
}

interface SettingsRow extends Omit<DeliverySettings, 'updated_at'> {
  updated_at: Date;
}

/** The owner's delivery settings, or the spec's defaults (updated_at null) when none are saved. */
export async function findDeliverySettings(em: EntityManager, ownerId: string): Promise<DeliverySettings> {
  const [row] = await em.execute<SettingsRow[]>(
    `select delivery_timing, require_legal_verification, allow_preview, notify_trustee, trustee_name, trustee_email, final_thoughts, updated_at
     from delivery_settings where owner_id = ?`,
    [ownerId],
  );
  if (!row) return { ...DEFAULT_DELIVERY_SETTINGS, updated_at: null };
  return { ...row, updated_at: new Date(row.updated_at).toISOString() };
}

/** Who a delivery gives a key: every contact of the owner, read inside the delivery's transaction. */
export function findContactsForDelivery(em: EntityManager, ownerId: string): Promise<{ name: string; email: string }[]> {
  return em.execute<{ name: string; email: string }[]>(`select name, email from emergency_contacts where owner_id = ? order by created_at, id`, [ownerId]);
}
