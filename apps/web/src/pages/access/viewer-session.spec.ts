import { beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { CONSENT_VERSION, VIEWER_CONSENT_TEXT } from '@lv/contracts';
import { acceptedConsent, CONSENT_ACCEPTED_STORAGE, consentFor, rememberConsent, renewDelay } from './viewer-session.js';

beforeEach(() => localStorage.clear());

describe('the accepted disclaimer', () => {
  it('is the SHA-256 (hex) of the exact text, with its version, and is read back as stored', async () => {
    const consent = await consentFor(VIEWER_CONSENT_TEXT, CONSENT_VERSION);
    expect(consent).toEqual({ version: CONSENT_VERSION, text_hash: createHash('sha256').update(VIEWER_CONSENT_TEXT, 'utf8').digest('hex') });
    rememberConsent(consent);
    expect(acceptedConsent()).toEqual(consent);
  });

  it('counts as not accepted when the stored value is missing, of the old form, of another version, or not a hash', () => {
    expect(acceptedConsent()).toBeNull();
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, CONSENT_VERSION);
    expect(acceptedConsent()).toBeNull();
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, JSON.stringify({ version: CONSENT_VERSION, text_hash: 'not-a-hash' }));
    expect(acceptedConsent()).toBeNull();
    // Accepted under another version of the text: the gateway takes the current one only, so it shows again.
    localStorage.setItem(CONSENT_ACCEPTED_STORAGE, JSON.stringify({ version: 'v0.9', text_hash: 'a'.repeat(64) }));
    expect(acceptedConsent()).toBeNull();
  });
});

describe('viewer tokens and links', () => {
  it('renews a minute before the token expires, never sooner than in 5 s', () => {
    const now = 1_000_000;
    expect(renewDelay({ viewer_token_expires_at: now + 15 * 60_000 }, now)).toBe(14 * 60_000);
    expect(renewDelay({ viewer_token_expires_at: now + 30_000 }, now)).toBe(5000);
  });
});
