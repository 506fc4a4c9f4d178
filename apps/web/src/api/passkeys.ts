import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PasskeyMessages } from '@lv/contracts';
import { http } from './api.js';
import { appSession } from './app-session.js';
import { errorMessage } from './client.js';
import { bareHttp, type Schema } from './typed-api.js';

// Passkeys (WebAuthn) in the SPA: the gateway's /api/me/passkeys and /api/auth/passkey routes, with the
// browser's navigator.credentials through @simplewebauthn/browser. identity checks every answer.

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type PasskeyList = Schema<'PasskeyListDto'>;
export type PasskeyView = Schema<'PasskeyDto'>;
type SessionView = Schema<'SessionViewDto'>;
type Ceremony = Schema<'PasskeyCeremonyDto'>;

// The document keeps a ceremony's options an open object ("hand them to navigator.credentials as they
// are"): WebAuthn's JSON forms, which identity builds with @simplewebauthn/server. Their required
// fields are checked here, so the browser is never handed something else.
const isRegistrationOptions = (options: object): options is PublicKeyCredentialCreationOptionsJSON =>
  'challenge' in options && 'rp' in options && 'user' in options && 'pubKeyCredParams' in options;
const isAuthenticationOptions = (options: object): options is PublicKeyCredentialRequestOptionsJSON => 'challenge' in options;

function registrationOptions({ options }: Ceremony): PublicKeyCredentialCreationOptionsJSON {
  if (!isRegistrationOptions(options)) throw new Error('The passkey options from the server are incomplete.');
  return options;
}

function authenticationOptions({ options }: Ceremony): PublicKeyCredentialRequestOptionsJSON {
  if (!isAuthenticationOptions(options)) throw new Error('The passkey options from the server are incomplete.');
  return options;
}

export const passkeyKeys = { list: ['settings', 'passkeys'] as const };

/**
 * A passkey ceremony refused in the browser (cancelled, timed out, the wrong site, no WebAuthn): its
 * message is written for the person. Kept here, not in the API client, so pages that never use a
 * passkey do not load it.
 */
export class UserFacingError extends Error {}

/** An error's words for the person: a browser refusal's own, the server's, else `fallback`. */
export const passkeyErrorMessage = (error: unknown, fallback: string): string => (error instanceof UserFacingError ? error.message : errorMessage(error, fallback));

/** Whether this browser has WebAuthn at all (the library itself is loaded only when a ceremony starts: /auth stays light). */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

const webAuthn = () => import('@simplewebauthn/browser');

/** The browser's refusals (the person cancelled, the time ran out, no passkey here) in the page's words. */
export class PasskeyCancelled extends UserFacingError {
  constructor() {
    super(PasskeyMessages.cancelled);
  }
}

/** Why the browser refused the site: on an IP address (a stack on 127.0.0.1), where the same stack answers as localhost. */
export function wrongSiteMessage(location: Pick<Location, 'protocol' | 'hostname' | 'port'>): string {
  const onIpAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(location.hostname) || location.hostname.startsWith('[');
  return onIpAddress ? `${PasskeyMessages.wrongSite} Open ${location.protocol}//localhost${location.port ? `:${location.port}` : ''} to use them.` : PasskeyMessages.wrongSite;
}

async function inBrowser<T>(ceremony: () => Promise<T>): Promise<T> {
  if (!passkeysSupported()) throw new UserFacingError(PasskeyMessages.unsupported);
  try {
    return await ceremony();
  } catch (error) {
    // NotAllowedError: cancelled, timed out, or no matching passkey; AbortError: a newer ceremony replaced this one.
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) throw new PasskeyCancelled();
    // SecurityError: the page's host is not the passkeys' site (identity's PUBLIC_URL), e.g. an IP address.
    if (error instanceof Error && error.name === 'SecurityError') throw new UserFacingError(wrongSiteMessage(window.location));
    throw error;
  }
}

export function fetchPasskeys(signal?: AbortSignal): Promise<PasskeyList> {
  return http.get('/api/me/passkeys', { signal });
}

/** Adds a passkey under `name`: the server's options, the browser's (or phone's) passkey, the server's check. Sudo mode. */
export async function addPasskey(name: string): Promise<PasskeyView> {
  const ceremony = await http.post('/api/me/passkeys/options');
  const credential = await inBrowser(async () => (await webAuthn()).startRegistration({ optionsJSON: registrationOptions(ceremony) }));
  return http.post('/api/me/passkeys', { body: { challengeId: ceremony.challengeId, name, credential } });
}

export function renamePasskey(passkeyId: string, name: string): Promise<PasskeyView> {
  return http.patch('/api/me/passkeys/{passkeyId}', { path: { passkeyId }, body: { name } });
}

/** Sudo mode: the API client asks "Confirm it's you" first when the last proof is old. */
export function removePasskey(passkeyId: string): Promise<PasskeyList> {
  return http.del('/api/me/passkeys/{passkeyId}', { path: { passkeyId } });
}

/** "Sign in with a passkey": no e-mail or password; the browser offers this site's passkeys. */
export async function signInWithPasskey(): Promise<SessionView> {
  const ceremony = await bareHttp().post('/api/auth/passkey/options');
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: authenticationOptions(ceremony) }));
  return bareHttp().post('/api/auth/passkey', { body: { challengeId: ceremony.challengeId, credential } });
}

/** The second step with a passkey, after the password: the password step's challenge binds it. */
export async function passkeySecondStep(challenge: string): Promise<SessionView> {
  const ceremony = await bareHttp().post('/api/auth/sign-in/two-step/passkey/options', { body: { challenge } });
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: authenticationOptions(ceremony) }));
  return bareHttp().post('/api/auth/sign-in/two-step/passkey', { body: { challenge, challengeId: ceremony.challengeId, credential } });
}

/** Sudo mode with a passkey instead of the password; the new token (a fresh proof) replaces the tab's. */
export async function confirmIdentityWithPasskey(): Promise<void> {
  const ceremony = await http.post('/api/me/confirm-identity/passkey/options');
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: authenticationOptions(ceremony) }));
  appSession.acceptConfirmedIdentity(await http.post('/api/me/confirm-identity/passkey', { body: { challengeId: ceremony.challengeId, credential } }));
}
