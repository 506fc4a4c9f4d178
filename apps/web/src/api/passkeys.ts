import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PasskeyMessages, type AddPasskeyRequest, type PasskeyAssertionRequest, type PasskeyList, type PasskeyView, type SessionView, type TwoStepPasskeyRequest } from '@lv/contracts';
import { api } from './api.js';
import { appSession } from './app-session.js';
import { errorMessage, sendRequest } from './client.js';

// Passkeys (WebAuthn) in the SPA: the gateway's /api/me/passkeys and /api/auth/passkey routes, with the
// browser's navigator.credentials through @simplewebauthn/browser. identity checks every answer.

/** A ceremony as identity hands it out: the options are WebAuthn's JSON forms, ready for the browser. */
interface RegistrationCeremony { challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }
interface AuthenticationCeremony { challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }

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
  return api.get<PasskeyList>('/api/me/passkeys', { signal });
}

/** Adds a passkey under `name`: the server's options, the browser's (or phone's) passkey, the server's check. Sudo mode. */
export async function addPasskey(name: string): Promise<PasskeyView> {
  const ceremony = await api.post<RegistrationCeremony>('/api/me/passkeys/options');
  const credential = await inBrowser(async () => (await webAuthn()).startRegistration({ optionsJSON: ceremony.options }));
  return api.post<PasskeyView>('/api/me/passkeys', { challengeId: ceremony.challengeId, name, credential } satisfies AddPasskeyRequest);
}

export function renamePasskey(passkeyId: string, name: string): Promise<PasskeyView> {
  return api.request<PasskeyView>(`/api/me/passkeys/${encodeURIComponent(passkeyId)}`, { method: 'PATCH', body: { name } });
}

/** Sudo mode: the API client asks "Confirm it's you" first when the last proof is old. */
export function removePasskey(passkeyId: string): Promise<PasskeyList> {
  return api.request<PasskeyList>(`/api/me/passkeys/${encodeURIComponent(passkeyId)}`, { method: 'DELETE' });
}

const post = <T>(path: string, body?: unknown) => sendRequest<T>((input, init) => globalThis.fetch(input, init), path, { method: 'POST', ...(body === undefined ? {} : { body }) });

/** "Sign in with a passkey": no e-mail or password; the browser offers this site's passkeys. */
export async function signInWithPasskey(): Promise<SessionView> {
  const ceremony = await post<AuthenticationCeremony>('/api/auth/passkey/options');
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: ceremony.options }));
  return post<SessionView>('/api/auth/passkey', { challengeId: ceremony.challengeId, credential } satisfies PasskeyAssertionRequest);
}

/** The second step with a passkey, after the password: the password step's challenge binds it. */
export async function passkeySecondStep(challenge: string): Promise<SessionView> {
  const ceremony = await post<AuthenticationCeremony>('/api/auth/sign-in/two-step/passkey/options', { challenge });
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: ceremony.options }));
  return post<SessionView>('/api/auth/sign-in/two-step/passkey', { challenge, challengeId: ceremony.challengeId, credential } satisfies TwoStepPasskeyRequest);
}

/** Sudo mode with a passkey instead of the password; the new token (a fresh proof) replaces the tab's. */
export async function confirmIdentityWithPasskey(): Promise<void> {
  const ceremony = await api.post<AuthenticationCeremony>('/api/me/confirm-identity/passkey/options');
  const credential = await inBrowser(async () => (await webAuthn()).startAuthentication({ optionsJSON: ceremony.options }));
  appSession.acceptConfirmedIdentity(await api.post<SessionView>('/api/me/confirm-identity/passkey', { challengeId: ceremony.challengeId, credential } satisfies PasskeyAssertionRequest));
}
