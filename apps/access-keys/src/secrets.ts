import { createHash, randomBytes } from 'node:crypto';
import { VIEWER_CONSENT_TEXT, type SealedText } from '@lv/contracts';
import { openSealedText, sealText } from '@lv/platform/event-store';

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

/** The key e-mail job's sealing key: SHA-256 of KEY_MAIL_SECRET (notifications derives the same). */
export const keyMailKey = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Binds the sealed key to its job: a sealed key moved into another key's job fails to open. */
export const keyMailContext = (keyId: string) => `key-email:${keyId}`;

export const sealKeyForMail = (secret: string, keyId: string, key: string): SealedText => sealText(keyMailKey(secret), key, keyMailContext(keyId));

export const openKeyFromMail = (secret: string, keyId: string, sealed: SealedText): string => openSealedText(keyMailKey(secret), sealed, keyMailContext(keyId));
