import { z } from 'zod';
import { safeText } from './text.schemas.js';
import { MAX_PASSKEYS_PER_ACCOUNT, PasskeyMessages } from './passkeys.js';
import { TwoStepMessages } from './two-step.js';

// Passkeys (WebAuthn) on the wire. The browser's answers are the JSON forms of WebAuthn's
// PublicKeyCredential (what @simplewebauthn/browser returns): base64url fields, bounded here.
// identity checks them with @simplewebauthn/server; nothing of them is trusted before that.

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'Not base64url.');
/** The extension outputs a browser reports (WebAuthn's AuthenticationExtensionsClientOutputs); only credProps is read. */
const extensionOutputs = z.object({ appid: z.boolean().optional(), credProps: z.object({ rk: z.boolean().optional() }).optional(), hmacCreateSecret: z.boolean().optional(), prf: z.unknown().optional() });
const KNOWN_TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
type KnownTransport = (typeof KNOWN_TRANSPORTS)[number];
const isKnownTransport = (name: string): name is KnownTransport => (KNOWN_TRANSPORTS as readonly string[]).includes(name);
// Browsers name new transports before the specification lists them: one unknown to us is a hint to drop, never a refusal.
const transports = z.array(z.string().max(32)).max(8).transform((names) => names.filter(isKnownTransport));

/** What both of the browser's answers carry beside their `response` (PublicKeyCredential's JSON form). */
const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionOutputs.optional(),
};

/** navigator.credentials.create()'s answer, as JSON. */
export const passkeyRegistrationResponseSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4000),
    attestationObject: base64url(20000),
    authenticatorData: base64url(8000).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4000).optional(),
  }),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;

/** navigator.credentials.get()'s answer, as JSON. */
export const passkeyAuthenticationResponseSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4000),
    authenticatorData: base64url(8000),
    signature: base64url(2000),
    userHandle: base64url(200).optional(),
  }),
});
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponseSchema>;

/**
 * A ceremony's options for the browser (WebAuthn's PublicKeyCredentialCreationOptionsJSON or
 * RequestOptionsJSON, as @simplewebauthn/server makes them) and the id of its challenge, sent back with
 * the answer. identity keeps only the challenge's hash, single-use, PASSKEY_CHALLENGE_SECONDS long.
 */
export const passkeyCeremonySchema = z.object({
  challengeId: z.uuid(),
  options: z.record(z.string(), z.unknown()).meta({ description: 'Hand to navigator.credentials.create()/get() (or @simplewebauthn/browser) as they are.' }),
});
export type PasskeyCeremony = z.infer<typeof passkeyCeremonySchema>;

const challengeId = z.uuid({ error: PasskeyMessages.refused });
const passkeyName = safeText({ error: PasskeyMessages.nameRequired }).trim().min(1, PasskeyMessages.nameRequired).max(60, PasskeyMessages.nameTooLong);

/** One passkey of the account, as Settings lists it. */
export const passkeyViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyViewSchema>;
export const passkeyListSchema = z.object({ passkeys: z.array(passkeyViewSchema).max(MAX_PASSKEYS_PER_ACCOUNT) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

/** POST /api/me/passkeys: the options' challenge, a name, and the authenticator's answer. */
export const addPasskeyBodySchema = z.object({ challengeId, name: passkeyName, credential: passkeyRegistrationResponseSchema });
export const addPasskeyPayloadSchema = addPasskeyBodySchema.strict();
/** PATCH /api/me/passkeys/:passkeyId */
export const renamePasskeyBodySchema = z.object({ name: passkeyName });
export const passkeyIdParamSchema = z.object({ passkeyId: z.uuid({ error: PasskeyMessages.notFound }) });
export const renamePasskeyPayloadSchema = z.object({ passkeyId: z.uuid(), name: passkeyName }).strict();

/** POST /api/auth/passkey and /api/me/confirm-identity/passkey: the options' challenge and the authenticator's answer. */
export const passkeyAssertionBodySchema = z.object({ challengeId, credential: passkeyAuthenticationResponseSchema });
export const passkeyAssertionPayloadSchema = passkeyAssertionBodySchema.strict();

const twoStepChallenge = safeText({ error: TwoStepMessages.signInRefused }).min(1, TwoStepMessages.signInRefused).max(200, TwoStepMessages.signInRefused);
/** POST /api/auth/sign-in/two-step/passkey/options: the password step's challenge. */
export const twoStepPasskeyOptionsBodySchema = z.object({ challenge: twoStepChallenge });
export const twoStepPasskeyOptionsPayloadSchema = twoStepPasskeyOptionsBodySchema.strict();
/** POST /api/auth/sign-in/two-step/passkey: the password step's challenge, the passkey's challenge and its answer. */
export const twoStepPasskeyBodySchema = z.object({ challenge: twoStepChallenge, challengeId, credential: passkeyAuthenticationResponseSchema });
export const twoStepPasskeyPayloadSchema = twoStepPasskeyBodySchema.strict();
