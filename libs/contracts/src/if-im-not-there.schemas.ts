import { z } from 'zod';
import {
  CONTACT_NAME_MAX, CONTACT_PHONE_MAX, DELIVERY_TIMINGS, FINAL_THOUGHTS_MAX, IfImNotThereMessages as M, RELATIONSHIP_OPTIONS, TRUSTEE_NAME_MAX,
} from './if-im-not-there.js';
import { safeText } from './text.schemas.js';
import { formatCount } from './count-format.js';

// If I'm Not There on the wire: /api/if-im-not-there/* and rpc.access-keys.contacts.* /
// rpc.access-keys.delivery-settings.*. Field names are the spec's entities'.

const EMAIL_MAX = 254;

/** One emergency contact as the owner's list shows it (spec: emergency_contacts). */
export const emergencyContactSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  label: z.enum(RELATIONSHIP_OPTIONS),
  email: z.string(),
  phone: z.string().nullable(),
  has_access_key: z.boolean(),
  /** The contact's current key: when it stops working, and whether its e-mail went out. */
  access_key_expires_at: z.string().nullable(),
  access_key_email: z.enum(['queued', 'sent', 'failed']).nullable(),
  created_at: z.string(),
});
export type EmergencyContact = z.infer<typeof emergencyContactSchema>;

const requiredText = (max: number) => safeText({ error: M.nameAndEmailRequired }).trim().min(1, M.nameAndEmailRequired).max(max, M.fieldTooLong);

/**
 * POST /api/if-im-not-there/contacts. Name and email are required ("Please provide name and email."),
 * phone is optional; `id` is the browser's UUID for the contact, so a retried add adds it once.
 */
export const addContactBodySchema = z.object({
  id: z.uuid({ error: 'A contact id is a UUID.' }),
  name: requiredText(CONTACT_NAME_MAX),
  label: z.enum(RELATIONSHIP_OPTIONS, { error: M.relationshipInvalid }),
  email: requiredText(EMAIL_MAX)
    .pipe(z.email({ error: M.emailInvalid }))
    .transform((e) => e.toLowerCase()),
  phone: safeText()
    .trim()
    .max(CONTACT_PHONE_MAX, M.fieldTooLong)
    .regex(/^[0-9+()\-.\s]*$/, 'A phone number has digits, spaces and + ( ) - . only.')
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type AddContactPayload = z.output<typeof addContactBodySchema>;

/** PUT /api/if-im-not-there/contacts/:id/access-key: the toggle. */
export const setContactKeyBodySchema = z.object({ enabled: z.boolean({ error: 'Send enabled as true or false.' }) });

/** The toggle's answer: the contact, and the key itself once, when one was just issued (it is also e-mailed). */
export const contactKeyReplySchema = z.object({ contact: emergencyContactSchema, access_key: z.string().nullable() });
export type ContactKeyReply = z.infer<typeof contactKeyReplySchema>;

export const contactByIdPayloadSchema = z.object({ id: safeText().max(64) });
export const setContactKeyPayloadSchema = z.object({ id: safeText().max(64), enabled: z.boolean() });
export const removeContactReplySchema = z.object({ id: z.string(), removed: z.literal(true) });

/** Vault delivery settings (spec 3), with the spec's defaults when none are saved. */
export const deliverySettingsSchema = z.object({
  delivery_timing: z.enum(DELIVERY_TIMINGS),
  require_legal_verification: z.boolean(),
  allow_preview: z.boolean(),
  notify_trustee: z.boolean(),
  trustee_name: z.string(),
  trustee_email: z.string(),
  final_thoughts: z.string(),
  updated_at: z.string().nullable().meta({ description: 'When they were last saved; null: the defaults, never saved.' }),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

/** PUT /api/if-im-not-there/delivery-settings: all of them at once. The trustee's e-mail is optional, but must be one. */
export const saveDeliverySettingsBodySchema = z.object({
  delivery_timing: z.enum(DELIVERY_TIMINGS, { error: `Delivery timing is one of: ${DELIVERY_TIMINGS.join(', ')}.` }),
  require_legal_verification: z.boolean({ error: 'Send true or false.' }),
  allow_preview: z.boolean({ error: 'Send true or false.' }),
  notify_trustee: z.boolean({ error: 'Send true or false.' }),
  trustee_name: safeText().trim().max(TRUSTEE_NAME_MAX, M.fieldTooLong).default(''),
  trustee_email: safeText()
    .trim()
    .max(EMAIL_MAX, M.emailInvalid)
    .refine((e) => e === '' || z.email().safeParse(e).success, M.emailInvalid)
    .transform((e) => e.toLowerCase())
    .default(''),
  final_thoughts: safeText().trim().max(FINAL_THOUGHTS_MAX, `Final thoughts can be at most ${formatCount(FINAL_THOUGHTS_MAX)} characters.`).default(''),
});
export type SaveDeliverySettingsRequest = z.input<typeof saveDeliverySettingsBodySchema>;
export type SaveDeliverySettingsPayload = z.output<typeof saveDeliverySettingsBodySchema>;

/** A key holder's "If I'm Not There" tab (spec 3: id, created_at, title). */
export const finalEntriesSchema = z.array(z.object({ id: z.string(), title: z.string(), created_at: z.string() }));
export type FinalEntries = z.infer<typeof finalEntriesSchema>;

/**
 * Whether a key holder of "If I'm Not There" may open what it lists (the final thoughts' words, the
 * final messages): when the owner's settings allow a preview, or once the vault was released. The
 * owner always may. `final_thoughts` is null when closed or never written.
 */
export const finalAccessSchema = z.object({
  open: z.boolean(),
  released: z.boolean(),
  final_thoughts: z.object({ text: z.string(), updated_at: z.string() }).nullable(),
});
export type FinalAccess = z.infer<typeof finalAccessSchema>;

/** The owner's vault delivery, as the If I'm Not There page and the operator see it. */
export const deliveryViewSchema = z.object({
  status: z.enum(['none', 'awaiting-verification', 'waiting', 'cancelled', 'rejected', 'released']),
  release_id: z.string().nullable(),
  due_at: z.string().nullable().meta({ description: 'When it will be released (null: waiting for legal verification, or none).' }),
  triggered_at: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

/** Operator commands: a trustee's report confirmed, legal documents verified (the CLI resolves the owner by e-mail). */
export const deliveryOperatorPayloadSchema = z.object({ owner_id: z.uuid(), owner_email: z.email() });

/** /test-vault-delivery: each integration check of the delivery pipeline, run against the running services. */
export const deliveryCheckSchema = z.object({ name: z.string(), passed: z.boolean(), detail: z.string() });
export const deliveryChecksSchema = z.array(deliveryCheckSchema);
export type DeliveryCheck = z.infer<typeof deliveryCheckSchema>;
