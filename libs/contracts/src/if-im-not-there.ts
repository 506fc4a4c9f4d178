// ---------------------------------------------------------------------------------------------
// If I'm Not There (access-family spec, "If I'm Not There"; entities emergency_contacts and vault
// delivery settings): the people to reach, and how the vault is handed over. Kept by the
// access-keys service, which issues the contacts' keys: `emergency-contact-{id}` (one stream per
// contact, its name, e-mail and phone sealed) and `delivery-settings-{ownerId}` (one per owner, the
// trustee and final thoughts sealed).

/** Relationship options (spec: "My Partner, My Lawyer, My Child, My Parent, My Sibling, My Friend, Other"). */
export const RELATIONSHIP_OPTIONS = ['My Partner', 'My Lawyer', 'My Child', 'My Parent', 'My Sibling', 'My Friend', 'Other'] as const;
export type Relationship = (typeof RELATIONSHIP_OPTIONS)[number];

/** Spec 9: "Emergency access key email validity: 7 days". */
export const EMERGENCY_KEY_VALID_DAYS = 7;
/** Limits the spec does not state. */
export const EMERGENCY_CONTACTS_MAX = 25;
export const CONTACT_NAME_MAX = 200;
export const CONTACT_PHONE_MAX = 40;
export const FINAL_THOUGHTS_MAX = 10_000;
export const TRUSTEE_NAME_MAX = 200;

/** Spec 3 and 4: delivery timing values. */
export const DELIVERY_TIMINGS = ['immediately', 'after_30_days', 'legal_verification'] as const;
export type DeliveryTiming = (typeof DELIVERY_TIMINGS)[number];

export const DELIVERY_TIMING_LABELS: Record<DeliveryTiming, string> = {
  immediately: 'Immediately',
  after_30_days: 'After 30 days',
  legal_verification: 'After legal verification',
};

export const IfImNotThereMessages = {
  // Spec 5 and 8: the page's own words.
  nameAndEmailRequired: 'Please provide name and email.',
  loadContactsFailed: 'Failed to load emergency contacts.',
  addContactFailed: 'Failed to add emergency contact.',
  removeContactFailed: 'Failed to remove contact.',
  updateKeyFailed: 'Failed to update access key.',
  loadSettingsFailed: 'Failed to load vault delivery settings.',
  saveSettingsFailed: 'Failed to save settings.',
  // Ours.
  emailInvalid: 'Please enter a valid email address.',
  relationshipInvalid: `Choose a relationship: ${RELATIONSHIP_OPTIONS.join(', ')}.`,
  fieldTooLong: 'This is too long.',
  tooManyContacts: `You can keep at most ${EMERGENCY_CONTACTS_MAX} emergency contacts.`,
  contactNotFound: 'That contact is no longer in your list.',
  contactAdded: 'Emergency contact added',
  contactRemoved: 'Contact removed',
  keySent: (email: string) => `Access key sent to ${email}, valid for ${EMERGENCY_KEY_VALID_DAYS} days.`,
  keyRevoked: 'Access key revoked',
  settingsSaved: 'Delivery settings saved',
  finalThoughtsTitle: 'Final Thoughts',
} as const;

/** Spec 9: "Default delivery timing: after_30_days; legal verification default off; preview allowed default on; trustee notification default on." */
export const DEFAULT_DELIVERY_SETTINGS = {
  delivery_timing: 'after_30_days',
  require_legal_verification: false,
  allow_preview: true,
  notify_trustee: true,
  trustee_name: '',
  trustee_email: '',
  final_thoughts: '',
} as const satisfies {
  delivery_timing: DeliveryTiming;
  require_legal_verification: boolean;
  allow_preview: boolean;
  notify_trustee: boolean;
  trustee_name: string;
  trustee_email: string;
  final_thoughts: string;
};
