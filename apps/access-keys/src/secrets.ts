import { createHash, randomBytes } from 'node:crypto';
import { keyEmailSealContext, VIEWER_CONSENT_TEXT, type SealedText } from '@lv/contracts';
import { sealForJob } from '@lv/platform/queues';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * What is kept of an access key: its SHA-256. A key is a random UUID (122 random bits), so a plain
 * hash is enough: nobody can search that space, and the hash lets redemption find the key in one
 * indexed lookup. Keys are compared lower-cased, as the spec accepts them in any case.
 */
export const hashAccessKey = (key: string): string => sha256Hex(key.trim().toLowerCase());

/** A view session's secret (the `session` in the viewer's address): 32 random bytes, base64url, 43 characters. */
export const newSessionSecret = (): string => randomBytes(32).toString('base64url');

/** What is kept of a session secret: its SHA-256, so a copy of the database opens no session. */
export const hashSessionSecret = (secret: string): string => sha256Hex(secret);

/** SHA-256 (hex) of the consent text a viewer accepts; the viewer's client sends the same back. */
export const CONSENT_HASH = sha256Hex(VIEWER_CONSENT_TEXT);

/** The key as its e-mail job carries it through Redis: sealed with KEY_MAIL_SECRET, bound to the key's id. */
export const sealKeyForMail = (secret: string, keyId: string, key: string): SealedText => sealForJob(secret, keyEmailSealContext(keyId), key);
