import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { MilestoneReleaseReply } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { retryOnConflict, type EventMetadata } from '@lv/platform/event-store';
import type { AccessKeysService } from '../access-keys.service.js';
import { SqlKeysRepository } from '../keys/keys.repository.js';
import { hashAccessKey } from '../secrets.js';

const DAY_MS = 24 * 3600 * 1000;
/** A milestone key lasts a year: the recipient may come back to the letter (each view session lasts 30 days). */
export const MILESTONE_KEY_DAYS = 365;

export interface LetterKeysDeps {
  orm: MikroORM;
  keys: AccessKeysService;
  /** letters' answer: has this release committed, and for whom (never taken from the caller's payload)? */
  releaseOf: (letterId: string, releaseId: string) => Promise<MilestoneReleaseReply>;
  now?: () => Date;
}

/**
 * The key of a letter sealed until a day, issued to its recipient once letters has recorded the
 * release. Its id is the release id, so however often letters asks (retries, racing jobs, the
 * operator's due check) one key is issued and one e-mail queued (the job id is the key's). It reads
 * only that letter: its scopes are ['letters'] and its sessions' viewer tokens carry the letter id.
 */
export class LetterKeysService {
  private readonly keys: SqlKeysRepository;

  constructor(private readonly deps: LetterKeysDeps) {
    this.keys = new SqlKeysRepository(deps.orm);
  }

  async issue(letterId: string, releaseId: string): Promise<{ key_id: string | null }> {
    const keyId = releaseId.toLowerCase();
    if (await this.keys.byId(keyId)) return { key_id: keyId };
    const release = await this.deps.releaseOf(letterId, releaseId);
    // Not released (never, not yet, or the letter is gone): no key, and letters' job tries again or stops.
    if (release.state !== 'released') return { key_id: null };
    const now = (this.deps.now?.() ?? new Date()).toISOString();
    const key = randomUUID();
    const metadata: EventMetadata = { actor: { kind: 'system', id: 'milestone-release' }, correlationId: `milestone-${releaseId}` };
    try {
      await retryOnConflict(3, () => this.deps.orm.em.fork().transactional((em) => this.deps.keys.issueKeyIn(em, metadata, {
        type: 'IssueKey', keyId, ownerId: release.owner_id, keyHash: hashAccessKey(key), source: 'milestone', requestId: null, scopes: ['letters'],
        expiresAt: new Date(Date.parse(now) + MILESTONE_KEY_DAYS * DAY_MS).toISOString(), recipient: { recipientEmail: release.recipient_email, name: release.recipient_name },
        letterId: letterId.toLowerCase(), now,
      }, key, release.shared_by)));
    } catch (error) {
      // A racing call issued it first (same key id): that one key is the answer.
      const taken = error instanceof UniqueConstraintViolationException || (error instanceof DomainError && (error.code === 'KEY_TAKEN' || error.code === 'CONFLICT'));
      if (!taken || !(await this.keys.byId(keyId))) throw error;
    }
    return { key_id: keyId };
  }
}
