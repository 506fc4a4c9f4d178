import { AccessMessages, CONSENT_VERSION, type ViewerTokenGrant } from '@lv/contracts';
import { ApiError, NetworkError } from '../../api/client.js';
import { fetchConsent, redeemAccessKey } from '../../api/access.js';

/** The view session's secret, kept for this tab: the address carries it too, never the key. */
export const VIEW_SESSION_STORAGE = 'lv:view-session';
/** The disclaimer's version this browser accepted (spec: "Later uses skip the modal"). */
export const CONSENT_ACCEPTED_STORAGE = 'lv:viewer-consent';

/** Query parameters that may carry a key or a link token (spec 2, /vault/view). */
export const KEY_PARAMS = ['key', 'token', 'k', 'access', 'view', 'access_key'] as const;

export const storedViewSession = (): string | null => {
  try {
    return sessionStorage.getItem(VIEW_SESSION_STORAGE);
  } catch {
    return null;
  }
};
export const storeViewSession = (session: string | null) => {
  try {
    if (session) sessionStorage.setItem(VIEW_SESSION_STORAGE, session);
    else sessionStorage.removeItem(VIEW_SESSION_STORAGE);
  } catch {
    // storage refused (private mode): the address still carries the session
  }
};

export const consentAccepted = (): boolean => {
  try {
    return localStorage.getItem(CONSENT_ACCEPTED_STORAGE) === CONSENT_VERSION;
  } catch {
    return false;
  }
};
export const rememberConsent = () => {
  try {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, CONSENT_VERSION);
  } catch {
    // the server records the consent anyway; the modal will simply show again next time
  }
};

/** The first key-like value among the address's parameters. */
export function keyFromParams(params: URLSearchParams): string | null {
  for (const name of KEY_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

/**
 * Redeems a key with the consent of the text the server serves (its version and SHA-256), so what
 * is recorded is exactly what the viewer was shown.
 */
export async function redeemWithConsent(key: string, owner: string | null) {
  const consent = await fetchConsent();
  return redeemAccessKey({ access_key: key, owner, consent: { version: consent.version, text_hash: consent.hash } });
}

/** What a viewer reads for a failed key or session (spec 8, "Key redeem and viewer"). */
export function viewerErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'RATE_LIMITED') return AccessMessages.tooManyKeyAttempts;
    if (['INVALID_OR_EXPIRED_KEY', 'SESSION_EXPIRED', 'VIEW_SESSION_ENDED', 'UNAUTHENTICATED'].includes(error.code)) return AccessMessages.viewExpired;
    return error.body.message;
  }
  if (error instanceof NetworkError) return error.message;
  return error instanceof Error ? error.message : AccessMessages.unknownError;
}

/** The key-entry messages (spec 8): an unknown key, too many tries, or the server's own words. */
export function redeemErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'INVALID_OR_EXPIRED_KEY') return AccessMessages.keyInvalid;
    if (error.code === 'RATE_LIMITED') return AccessMessages.tooManyKeyAttempts;
    return error.body.message;
  }
  return error instanceof Error ? error.message : AccessMessages.unknownError;
}

/** When to renew a viewer token: a minute before it expires (never sooner than in 5 s). */
export const renewDelay = (grant: Pick<ViewerTokenGrant, 'viewer_token_expires_at'>, now = Date.now()) => Math.max(5000, grant.viewer_token_expires_at - now - 60_000);
