import type { AccessRequest, AccessRequestPage, RequestMeta } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { keyStatusAt } from '../keys/key.decider.js';
import type { KeyRow, KeysRepository } from '../keys/keys.repository.js';
import { ownerActor } from '../owner-actor.js';
import type { StreamCommands } from '../stream-commands.js';
import { REQUEST_STREAM_TYPE, requestDecider, requestStreamId } from './request.decider.js';
import type { RequestRow, RequestsRepository } from './requests.repository.js';

export interface OwnerRequestsDeps {
  keys: Pick<KeysRepository, 'byId'>;
  requests: Pick<RequestsRepository, 'withStatus' | 'find'>;
  commands: StreamCommands;
  now: () => Date;
}

/** The owner's pending requests, and declining one (approving issues a key: approve-request.ts). */
export class OwnerRequests {
  constructor(private readonly deps: OwnerRequestsDeps) {}

  /** An owner's pending requests (the owner's list, and the operators' ops CLI). */
  async pending(ownerId: string, limit = 50): Promise<AccessRequestPage> {
    return { items: await this.withHeldKeys(await this.deps.requests.withStatus(ownerId, 'pending', limit)) };
  }

  async decline(caller: Caller, requestId: string, meta: RequestMeta): Promise<AccessRequest> {
    const owner = ownerOf(caller);
    await this.deps.commands.run(requestDecider, { streamId: requestStreamId(requestId), streamType: REQUEST_STREAM_TYPE }, {
      type: 'DeclineRequest', ownerId: owner.userId, now: this.deps.now().toISOString(),
    }, ownerActor(owner, meta));
    const row = await this.deps.requests.find(owner.userId, requestId);
    if (!row) throw new DomainError('NOT_FOUND');
    return (await this.withHeldKeys([row]))[0]!;
  }

  private async withHeldKeys(rows: RequestRow[]): Promise<AccessRequest[]> {
    const held = new Map<string, KeyRow>();
    for (const id of new Set(rows.map((r) => r.held_key_id).filter((id): id is string => !!id))) {
      const key = await this.deps.keys.byId(id);
      if (key) held.set(id, key);
    }
    const now = this.deps.now().getTime();
    return rows.map((row) => toAccessRequest(row, row.held_key_id ? held.get(row.held_key_id) : undefined, now));
  }
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

function toAccessRequest(row: RequestRow, held: KeyRow | undefined, now: number): AccessRequest {
  return {
    id: row.id, owner_id: row.owner_id, requester_email: row.requester_email, requester_name: row.requester_name, relationship: row.relationship,
    message: row.message, child_name: row.child_name, child_dob: row.child_dob, created_at: new Date(row.created_at).toISOString(), status: row.status,
    decided_at: iso(row.decided_at), key_id: row.key_id,
    held_key: held ? { key_id: held.id, name: held.name, status: keyStatusAt(held, now) } : null,
  };
}
