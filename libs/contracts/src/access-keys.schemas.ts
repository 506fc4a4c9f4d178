import { z } from 'zod';
import {
  ACCESS_FIELD_MAX, AccessMessages, CONSENT_VERSION, isAccessKeyFormat, KEY_EXPIRY_DAYS_DEFAULT, KEY_EXPIRY_DAYS_MAX, KEY_EXPIRY_DAYS_MIN,
  PENDING_REQUESTS_PAGE_SIZE, VIEW_SECTIONS,
} from './access-keys.js';
import { queryInteger, safeText } from './text.schemas.js';

// Family access on the wire, as zod schemas (types inferred). Field names follow the spec's entities
// (section 3: snake_case), as the court documents do. The gateway validates bodies with these; the
// access-keys service validates its RPC payloads with the same schemas again.
//
// Public (no token; per-address limits in access-keys):
//   POST /api/access/requests                 SubmitAccessRequestBody -> 201 { success: true } | 400 (spec words) | 429
//   GET  /api/access/consent                  -> ViewerConsent (the text a viewer accepts, its version and hash)
//   POST /api/view/redeem                     RedeemKeyBody -> 201 OpenedViewSession | 401 INVALID_OR_EXPIRED_KEY | 400 CONSENT_REQUIRED | 429
//   POST /api/view/token                      { session } -> ViewerTokenGrant | 401 VIEW_SESSION_ENDED | 429
//   POST /api/view/close                      { session } -> 204 (Clear access: the session ends on the server too)
// Owner (access token):
//   GET  /api/access/requests?status=pending&limit=50 -> { items: AccessRequest[] }
//   POST /api/access/requests/:id/approve     { override_email?, scopes? } -> IssuedAccessKey | 409 ALREADY_DECIDED
//   POST /api/access/requests/:id/decline     -> AccessRequest | 409 ALREADY_DECIDED
//   GET  /api/access/keys                     -> AccessKeySummary[] (newest first)
//   POST /api/access/keys                     CreateAccessKeyBody -> 201 IssuedAccessKey | 400 (spec words) | 409 KEY_TAKEN
//   POST /api/access/keys/:id/revoke          -> AccessKeySummary (its open view sessions end at once)
//   GET  /api/access/sessions                 -> ViewSessionSummary[] (newest first, with consent and views)
//   POST /api/access/sessions/:id/revoke      -> ViewSessionSummary
// Viewer (viewer token):
//   GET  /api/view/session                    -> ViewSessionView (exists since the platform issue)
//   GET  /api/view/entries/:section           -> ViewerEntry[] | 403 (section not shared)

/** One section of a vault a key can open. */
export const viewSectionSchema = z.enum(VIEW_SECTIONS);

/**
 * What a viewer opens: each kind is read from its owning service, which checks the viewer's section
 * again. 'portrait' is the Who I Am text, 'final-thoughts' the owner's final thoughts.
 */
export const VIEWER_ITEM_KINDS = ['letter', 'recording', 'document', 'portrait', 'portrait-media', 'final-thoughts', 'final-message'] as const;
export type ViewerItemKind = (typeof VIEWER_ITEM_KINDS)[number];

/** One opened item, as the view audit keeps it: what and which one, never its words. */
export const viewedItemSchema = z.object({ kind: z.enum(VIEWER_ITEM_KINDS), id: z.string().min(1).max(100) });
export type ViewedItem = z.infer<typeof viewedItemSchema>;

/** Which parts of the vault a key opens; all five unless the owner chose fewer. */
export const viewScopesSchema = z.array(viewSectionSchema, { error: AccessMessages.scopesRequired }).min(1, AccessMessages.scopesRequired).transform((s) => [...new Set(s)]);

const optionalText = (max: number) =>
  safeText()
    .trim()
    .max(max, AccessMessages.fieldTooLong)
    .nullish()
    .transform((v) => (v ? v : null));

const email = (required: string) =>
  safeText({ error: required })
    .trim()
    .min(1, required)
    .max(ACCESS_FIELD_MAX.email, AccessMessages.emailInvalid)
    .pipe(z.email({ error: AccessMessages.emailInvalid }))
    .transform((e) => e.toLowerCase());

/** YYYY-MM-DD of a real calendar day, not in the future. */
const pastIsoDate = z
  .string({ error: AccessMessages.childDobInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, AccessMessages.childDobInvalid)
  .refine((d) => {
    const parsed = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === d && parsed.getTime() <= Date.now() && parsed.getUTCFullYear() >= 1900;
  }, AccessMessages.childDobInvalid);

const accessKey = z
  .string({ error: AccessMessages.keyEmpty })
  .trim()
  .min(1, AccessMessages.keyEmpty)
  .refine(isAccessKeyFormat, AccessMessages.keyMalformed)
  .transform((k) => k.toLowerCase());

/** Spec 3 "Submit payload" (plus requester_name, which the original collected and dropped). */
export const submitAccessRequestBodySchema = z.object({
  /** The vault owner the request is for (the link's ?owner=). */
  user_id: z.uuid({ error: AccessMessages.missingOwner }),
  requester_email: email(AccessMessages.emailRequired),
  requester_name: optionalText(ACCESS_FIELD_MAX.name),
  relationship: safeText({ error: AccessMessages.relationshipRequired })
    .trim()
    .min(1, AccessMessages.relationshipRequired)
    .max(ACCESS_FIELD_MAX.relationship, AccessMessages.fieldTooLong),
  /** The form's "Reason for Access". */
  message: safeText({ error: AccessMessages.reasonRequired }).trim().min(1, AccessMessages.reasonRequired).max(ACCESS_FIELD_MAX.message, AccessMessages.fieldTooLong),
  child_name: optionalText(ACCESS_FIELD_MAX.childName),
  child_dob: pastIsoDate.nullish().transform((v) => v ?? null),
  /**
   * A key the requester already holds (e.g. an expired one they want renewed). Never stored: its hash
   * is looked up among this owner's keys, and the owner sees which key it was.
   */
  access_key: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(z.string().refine(isAccessKeyFormat, AccessMessages.keyMalformed).nullable()),
  /**
   * Chosen by the client once per filled form and sent again on every retry of it: the request's id
   * is derived from it and the owner, so a retry whose first attempt was saved (its answer lost) is
   * answered as that one and saves nothing. Other details under the same id are refused (409 CONFLICT).
   * Without it every call is a new request.
   */
  submission_id: z.uuid().nullish().transform((v) => v?.toLowerCase() ?? null),
});
export type SubmitAccessRequestBody = z.input<typeof submitAccessRequestBodySchema>;

export const submitAccessRequestReplySchema = z.object({ success: z.literal(true) });

/** A key the requester said they hold, when it is one of this owner's keys. */
export const heldKeySchema = z.object({ key_id: z.uuid(), name: z.string().nullable(), status: z.enum(['active', 'expired', 'revoked']) });

/** Spec 3 "Access request", as its owner sees it. */
export const accessRequestSchema = z.object({
  id: z.uuid(),
  owner_id: z.uuid(),
  requester_email: z.string(),
  requester_name: z.string().nullable(),
  relationship: z.string(),
  message: z.string(),
  child_name: z.string().nullable(),
  child_dob: z.string().nullable(),
  created_at: z.string(),
  status: z.enum(['pending', 'approved', 'declined']),
  decided_at: z.string().nullable(),
  /** The key issued on approval. */
  key_id: z.uuid().nullable(),
  held_key: heldKeySchema.nullable(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

const pageLimitMessage = `limit is a whole number from 1 to ${PENDING_REQUESTS_PAGE_SIZE}.`;
/** GET /api/access/requests?status=&limit= (query strings: `limit` in plain digits, never 0x10 or 1e1). */
export const listAccessRequestsQuerySchema = z.object({
  status: z.enum(['pending']).default('pending'),
  limit: queryInteger(1, PENDING_REQUESTS_PAGE_SIZE, pageLimitMessage).default(PENDING_REQUESTS_PAGE_SIZE),
});
/** The same, as access-keys receives it over NATS (numbers already). */
export const listAccessRequestsPayloadSchema = z.object({
  status: z.enum(['pending']).default('pending'),
  limit: z.number({ error: pageLimitMessage }).int(pageLimitMessage).min(1, pageLimitMessage).max(PENDING_REQUESTS_PAGE_SIZE, pageLimitMessage).default(PENDING_REQUESTS_PAGE_SIZE),
});
export const accessRequestPageSchema = z.object({ items: z.array(accessRequestSchema) });
export type AccessRequestPage = z.infer<typeof accessRequestPageSchema>;

export const approveAccessRequestBodySchema = z.object({
  /** Send the key to another address than the requester's. */
  override_email: email(AccessMessages.missingEmail).nullish().transform((v) => v ?? null),
  scopes: viewScopesSchema.optional(),
  /** Whether the key's viewers may download originals (default: view only). */
  allow_download: z.boolean({ error: AccessMessages.allowDownloadInvalid }).default(false),
});

export const requestIdPayloadSchema = z.object({ request_id: z.uuid() });
export const approveAccessRequestPayloadSchema = approveAccessRequestBodySchema.extend({ request_id: z.uuid() });

/** Spec 3 "Access key response": the key in clear, once, to the owner who created it. */
export const issuedAccessKeySchema = z.object({
  key_id: z.uuid(),
  access_key: z.string(),
  recipient_email: z.string(),
  expires_at: z.string(),
  scopes: z.array(viewSectionSchema),
  /** True once the e-mail job is queued (it is sent by notifications; its status shows in the key list). */
  emailed: z.boolean(),
});
export type IssuedAccessKey = z.infer<typeof issuedAccessKeySchema>;

/** "Generate Access Key": a key made by the server, and the draft that lets Save bring it back (valid an hour). */
export const keyDraftSchema = z.object({ access_key: z.uuid(), draft: z.string() });
export type KeyDraft = z.infer<typeof keyDraftSchema>;

/** Generate Keys tab: the key the server generated (with its draft), who it is for, how long it lasts. */
export const createAccessKeyBodySchema = z.object({
  access_key: z
    .string({ error: AccessMessages.noKeyGenerated })
    .trim()
    .min(1, AccessMessages.noKeyGenerated)
    // Only random (version 4) UUIDs are accepted here: the others carry time or a name, not 122 random bits.
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, AccessMessages.keyMalformed)
    .transform((k) => k.toLowerCase()),
  /** What "Generate Access Key" answered with the key: proof the server made it for this owner. */
  draft: z
    .string({ error: AccessMessages.noKeyGenerated })
    .min(1, AccessMessages.noKeyGenerated)
    // Its expiry (ms) and an HMAC-SHA256 in base64url: anything else was not made by the service.
    .regex(/^\d{1,16}\.[A-Za-z0-9_-]{43}$/, AccessMessages.keyDraftInvalid),
  name: safeText({ error: AccessMessages.missingName }).trim().min(1, AccessMessages.missingName).max(ACCESS_FIELD_MAX.keyName, AccessMessages.fieldTooLong),
  email: email(AccessMessages.missingEmail),
  expires_in_days: z
    .number({ error: AccessMessages.keyExpiryInvalid })
    .int(AccessMessages.keyExpiryInvalid)
    .min(KEY_EXPIRY_DAYS_MIN, AccessMessages.keyExpiryInvalid)
    .max(KEY_EXPIRY_DAYS_MAX, AccessMessages.keyExpiryInvalid)
    .default(KEY_EXPIRY_DAYS_DEFAULT),
  scopes: viewScopesSchema.optional(),
  /** Whether the key's viewers may download originals (default: view only). */
  allow_download: z.boolean({ error: AccessMessages.allowDownloadInvalid }).default(false),
});
export type CreateAccessKeyBody = z.input<typeof createAccessKeyBodySchema>;
/** The body as the service receives it, defaults filled in. */
export type CreateAccessKeyInput = z.output<typeof createAccessKeyBodySchema>;

/** One of the owner's keys (never the key itself: only its hash is kept). */
export const accessKeySummarySchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  recipient_email: z.string(),
  source: z.enum(['request', 'owner', 'contact', 'delivery', 'milestone']),
  request_id: z.uuid().nullable(),
  scopes: z.array(viewSectionSchema),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
  revoked_at: z.string().nullable(),
  email_status: z.enum(['queued', 'sent', 'failed']),
  email_sent_at: z.string().nullable(),
  /** Why the e-mail failed (null unless it did): a daily cap on key e-mails, the owner's address not verified yet (nothing was sent), or the mail server refused it. */
  email_failure: z.enum(['daily_limit', 'email_not_verified', 'undeliverable']).nullable(),
  /** View sessions opened with it, and when the vault was last viewed through it. */
  sessions: z.number().int(),
  last_viewed_at: z.string().nullable(),
  /** The owner allowed downloads of originals with this key ("Downloads allowed"). */
  allow_download: z.boolean(),
});
export type AccessKeySummary = z.infer<typeof accessKeySummarySchema>;

export const keyIdPayloadSchema = z.object({ key_id: z.uuid() });
export const sessionIdPayloadSchema = z.object({ session_id: z.uuid() });

/** The consent a viewer gave, as recorded before the first view (spec 3 vault_view_consents). */
export const viewConsentRecordSchema = z.object({
  consent_version: z.string(),
  consent_text: z.string(),
  consent_hash: z.string(),
  user_agent: z.string().nullable(),
  origin: z.string().nullable(),
  accepted_at: z.string(),
});

export const viewSessionSummarySchema = z.object({
  id: z.uuid(),
  key_id: z.uuid(),
  key_name: z.string().nullable(),
  recipient_email: z.string(),
  scopes: z.array(viewSectionSchema),
  opened_at: z.string(),
  expires_at: z.string(),
  status: z.enum(['active', 'expired', 'revoked', 'closed']),
  ended_at: z.string().nullable(),
  consent: viewConsentRecordSchema,
  /** Who viewed what and when, newest first (at most 100): a section's list opened, or an item in it (`item`, with its title when it still exists). */
  views: z.array(z.object({ section: viewSectionSchema, at: z.string(), item: viewedItemSchema.extend({ title: z.string().nullable() }).optional() })),
});
export type ViewSessionSummary = z.infer<typeof viewSessionSummarySchema>;

/** GET /api/access/consent: the text a viewer accepts; the client sends back its SHA-256 (hex). */
export const viewerConsentSchema = z.object({ version: z.literal(CONSENT_VERSION), text: z.string(), hash: z.string() });
export type ViewerConsent = z.infer<typeof viewerConsentSchema>;

export const redeemKeyBodySchema = z.object({
  access_key: accessKey,
  /** The link's ?owner=, when it has one: a key of another vault is refused like an unknown key. */
  owner: z.uuid().nullish().transform((v) => v ?? null),
  consent: z.object(
    {
      version: z.literal(CONSENT_VERSION, { error: AccessMessages.consentRequired }),
      /** SHA-256 (hex) of VIEWER_CONSENT_TEXT as the viewer was shown it. */
      text_hash: z.string({ error: AccessMessages.consentRequired }).regex(/^[0-9a-f]{64}$/, AccessMessages.consentRequired),
    },
    { error: AccessMessages.consentRequired },
  ),
});
export type RedeemKeyBody = z.input<typeof redeemKeyBodySchema>;

/** A view session's secret (the `session` in the address): 43 base64url characters, stored only as a hash. */
export const viewSessionSecretSchema = z.string({ error: AccessMessages.noViewSession }).regex(/^[A-Za-z0-9_-]{43}$/, AccessMessages.viewExpired);
export const viewSessionBodySchema = z.object({ session: viewSessionSecretSchema });

/** A viewer token for the session: 15 minutes, never past the session's end; the client renews it. */
export const viewerTokenGrantSchema = z.object({
  session_id: z.uuid(),
  owner_id: z.uuid(),
  scopes: z.array(viewSectionSchema),
  viewer_token: z.string(),
  viewer_token_expires_at: z.number().int(),
  session_expires_at: z.string(),
  /** A milestone key's session: the one letter it opens (GET /api/view/letter); absent for every other key. */
  letter_id: z.uuid().optional(),
  /** The key allows downloads of originals: media and document links then carry a downloadUrl. */
  may_download: z.boolean(),
});
export type ViewerTokenGrant = z.infer<typeof viewerTokenGrantSchema>;

export const openedViewSessionSchema = viewerTokenGrantSchema.extend({
  /** The session's secret: what the address and the browser keep (spec: "the session"). */
  session: z.string(),
});
export type OpenedViewSession = z.infer<typeof openedViewSessionSchema>;

/**
 * What a viewer's tab lists (spec 3 "Vault entries read by viewer"): created time and one headline
 * field, and what the entry is, so the viewer can open it (`media` for recordings and media:
 * 'video', 'audio' or 'image').
 */
export const viewerEntrySchema = z.object({
  id: z.string(), created_at: z.string(), headline: z.string(), kind: z.enum(VIEWER_ITEM_KINDS), media: z.enum(['video', 'audio', 'image']).nullable().optional(),
  /** A recording with a poster: GET /api/view/media/:id/poster gives its link. */
  poster: z.boolean().optional(),
  /** A recording's length in seconds, once its playback copy is made. */
  duration_seconds: z.number().nonnegative().nullable().optional(),
});
export type ViewerEntry = z.infer<typeof viewerEntrySchema>;

/** A section opened (its list), or one item in it opened. */
export const recordViewPayloadSchema = z.object({ section: viewSectionSchema, item: viewedItemSchema.optional() });

// Operator commands (ops CLI).
export const ownerIdPayloadSchema = z.object({ owner_id: z.uuid() });
export const keyEmailResendReplySchema = z.object({ key_id: z.uuid(), status: z.enum(['retried', 'already-sent', 'queued']), detail: z.string() });
