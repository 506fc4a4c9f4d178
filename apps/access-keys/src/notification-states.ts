import type { RequestNoticeState } from '@lv/contracts';
import { KEY_STREAM_TYPE, keyDecider, keyStatusAt, keyStreamId } from './keys/key.decider.js';
import type { KeysRepository } from './keys/keys.repository.js';
import type { RequestsRepository } from './requests/requests.repository.js';
import type { StreamCommands } from './stream-commands.js';

export interface NotificationStatesDeps {
  keys: Pick<KeysRepository, 'byId'>;
  requests: Pick<RequestsRepository, 'find'>;
  commands: StreamCommands;
  now: () => Date;
}

/**
 * What notifications' workers ask before an e-mail goes (its jobs are queued before the commit of what
 * they announce, so "not committed yet" answers 'unknown'), and what they report back.
 */
export class NotificationStates {
  constructor(private readonly deps: NotificationStatesDeps) {}

  /** Whether a key's e-mail may go: the key is committed and active ('unknown' until its transaction commits). */
  async keyMailState(keyId: string): Promise<{ state: 'active' | 'expired' | 'revoked' | 'unknown' }> {
    const key = await this.deps.keys.byId(keyId);
    return { state: key ? keyStatusAt(key, this.deps.now().getTime()) : 'unknown' };
  }

  /**
   * Whether the owner's e-mail about a request may go: 'pending' (committed, not decided yet) with what
   * the requester wrote of themselves, 'decided', or 'unknown' (not committed yet, or not this owner's).
   */
  async requestNoticeState(ownerId: string, requestId: string): Promise<RequestNoticeState> {
    const request = await this.deps.requests.find(ownerId, requestId);
    if (!request) return { state: 'unknown', requester_name: null, relationship: null };
    if (request.status !== 'pending') return { state: 'decided', requester_name: null, relationship: null };
    return { state: 'pending', requester_name: request.requester_name, relationship: request.relationship };
  }

  /** notifications reported a key's e-mail as sent or failed (its durable consumer calls this). */
  async recordEmailStatus(report: { keyId: string; status: 'sent' | 'failed'; at: string; messageId: string | null; reason: string | null }): Promise<void> {
    await this.deps.commands.run(keyDecider, { streamId: keyStreamId(report.keyId), streamType: KEY_STREAM_TYPE }, { type: 'RecordEmailStatus', ...report }, {
      actor: { kind: 'system', id: 'notifications' },
    });
  }
}
