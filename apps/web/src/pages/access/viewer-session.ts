import { AccessMessages, CONSENT_VERSION, type OpenedViewSession, type ViewerTokenGrant } from '@lv/contracts';
import { ApiError, NetworkError } from '../../api/client.js';
import { redeemAccessKey, type RedeemKeyBody } from '../../api/access.js';
import { sha256Hex } from '../../lib/sha256.js';

/**
 * The view session's secret, kept for this tab only (sessionStorage, never localStorage, never the
 * address: issue 29). A reload of /vault/view finds it here.
 */
export const VIEW_SESSION_STORAGE = 'lv:view-session';
/** The disclaimer this browser accepted (spec: "Later uses skip the modal"). */
export const CONSENT_ACCEPTED_STORAGE = 'lv:viewer-consent';

/** Where the session lives when the browser refuses storage (private mode): this page's memory. */
let sessionInMemory: string | null = null;

export const storedViewSession = (): string | null => {
  try {
    return sessionStorage.getItem(VIEW_SESSION_STORAGE);
  } catch {
    return sessionInMemory;
  }
};
export const storeViewSession = (session: string | null) => {
  try {
    if (session) sessionStorage.setItem(VIEW_SESSION_STORAGE, session);
    else sessionStorage.removeItem(VIEW_SESSION_STORAGE);
  } catch {
    // storage refused (private mode): kept in memory, for as long as the page lives
    sessionInMemory = session;
  }
};

/**
 * The disclaimer a viewer accepted: its version and the SHA-256 of the very text they were shown. The
 * gateway takes the current version only, so one accepted under another is not sent (shown again).
 */
export type AcceptedConsent = RedeemKeyBody['consent'];

export const acceptedConsent = (): AcceptedConsent | null => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(CONSENT_ACCEPTED_STORAGE) ?? 'null');
    if (!stored || typeof stored !== 'object') return null;
    const { version, text_hash } = stored as Record<string, unknown>;
    return version === CONSENT_VERSION && typeof text_hash === 'string' && /^[0-9a-f]{64}$/.test(text_hash) ? { version, text_hash } : null;
  } catch {
    return null;
  }
};
export const rememberConsent = (consent: AcceptedConsent) => {
  try {
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, JSON.stringify(consent));
  } catch {
    // storage refused: the disclaimer simply shows again next time
  }
};
export const forgetConsent = () => {
  try {
    localStorage.removeItem(CONSENT_ACCEPTED_STORAGE);
  } catch {
    // nothing stored
  }
};

/** The consent for a text as shown: the server compares the hash with the text it records. */
export async function consentFor(text: string, version: AcceptedConsent['version']): Promise<AcceptedConsent> {
  return { version, text_hash: await sha256Hex(text, 'record your consent') };
}

/**
 * Redeems a key with the disclaimer this browser accepted. Null when the disclaimer must be shown
 * first: never accepted here, or the server's text changed since (CONSENT_REQUIRED), so what is
 * recorded is always what the viewer was shown.
 */
export async function redeemIfConsented(key: string, owner: string | null): Promise<OpenedViewSession | null> {
  const consent = acceptedConsent();
  if (!consent) return null;
  try {
    return await redeemAccessKey({ access_key: key, owner, consent });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'CONSENT_REQUIRED')) throw error;
    forgetConsent();
    return null;
  }
}

/** A refusal that means the view session itself is over (expired, revoked, closed), not a hiccup. */
export const sessionEnded = (error: unknown) => error instanceof ApiError && error.status === 401;

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
