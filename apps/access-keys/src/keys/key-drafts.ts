import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyDraft } from '@lv/contracts';

/** How long a generated key waits for the owner to fill in the form and save it. */
export const KEY_DRAFT_TTL_MS = 60 * 60 * 1000;

/**
 * Keys are made here, never by the browser: "Generate Access Key" asks for one, and Save must bring
 * it back with this draft, an HMAC binding the key to its owner and an expiry. A key value the
 * client chose (a guessable one, or another vault's, which would answer KEY_TAKEN as an oracle) has
 * no valid draft, so it is refused before anything is looked up. Nothing is stored until Save.
 */
export class KeyDrafts {
  private readonly secret: Buffer;

  constructor(sealingSecret: string, private readonly now: () => Date) {
    // Its own key, derived from the service's sealing secret, so a draft never verifies as anything else.
    this.secret = createHmac('sha256', sealingSecret).update('access-key-draft/v1').digest();
  }

  make(ownerId: string): KeyDraft {
    const accessKey = randomUUID();
    const expiresAt = this.now().getTime() + KEY_DRAFT_TTL_MS;
    return { access_key: accessKey, draft: `${expiresAt}.${this.sign(ownerId, accessKey, expiresAt)}` };
  }

  /** True when the key was made here for this owner within the hour. */
  verify(ownerId: string, accessKey: string, draft: string): boolean {
    const [expiresText, signature, ...rest] = draft.split('.');
    const expiresAt = Number(expiresText);
    if (rest.length > 0 || !signature || !Number.isSafeInteger(expiresAt) || expiresAt < this.now().getTime()) return false;
    const expected = Buffer.from(this.sign(ownerId, accessKey.toLowerCase(), expiresAt));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(ownerId: string, accessKey: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${ownerId}\n${accessKey}\n${expiresAt}`).digest('base64url');
  }
}
