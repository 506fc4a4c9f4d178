import { randomUUID } from 'node:crypto';
import type { ViewedItem } from '@lv/contracts';
import { foldEvents, type Decider, type DomainEvent, type EventMetadata } from '@lv/platform/event-store';
import { emailFailureOf, type KeyEvent } from '../keys/key.decider.js';
import type { KeyInUse, KeyRow, KeysRepository } from '../keys/keys.repository.js';
import type { RequestEvent } from '../requests/request.decider.js';
import type { RequestSettingEvent } from '../requests/request-setting.decider.js';
import type { RequestRow, RequestsRepository } from '../requests/requests.repository.js';
import type { SessionEvent } from '../sessions/session.decider.js';
import type { OwnerSessionRow, SessionRow, SessionsRepository, ViewRow } from '../sessions/sessions.repository.js';
import type { StreamCommands, StreamRef } from '../stream-commands.js';

type AccessEvent = KeyEvent | RequestEvent | RequestSettingEvent | SessionEvent;

const ACCESS_EVENT_TYPES: ReadonlySet<string> = new Set<AccessEvent['type']>([
  'AccessKeyIssued', 'AccessKeyRevoked', 'AccessKeyEmailStatusChanged', 'AccessRequestSubmitted', 'AccessRequestApproved', 'AccessRequestDeclined',
  'RequestSettingChanged', 'ViewSessionOpened', 'ViewSessionSectionViewed', 'ViewSessionRevoked', 'ViewSessionClosed',
]);
const isAccessEvent = (event: DomainEvent): event is AccessEvent => ACCESS_EVENT_TYPES.has(event.type);

const newestFirst = <T extends { id: string }>(at: (row: T) => Date) => (a: T, b: T) => at(b).getTime() - at(a).getTime() || b.id.localeCompare(a.id);

/**
 * access-keys' streams and read models in memory, for the use cases' unit specs: commands run the
 * real deciders over each stream's history, and the appended events update the rows as
 * access.projections.ts updates the tables. `alongside` work runs before the events are kept, so a
 * throw there keeps nothing, as a rolled-back transaction does.
 */
export class InMemoryAccess implements StreamCommands {
  private readonly streams = new Map<string, DomainEvent[]>();
  readonly keyRows = new Map<string, KeyRow>();
  readonly requestRows = new Map<string, RequestRow>();
  readonly requestsOpen = new Map<string, boolean>();
  readonly sessionRows = new Map<string, SessionRow>();
  readonly viewRows: ViewRow[] = [];

  constructor(private readonly now: () => Date) {}

  async run<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>, stream: StreamRef, command: Command, _metadata: EventMetadata, alongside?: (eventIds: string[]) => Promise<void>,
  ): Promise<void> {
    const history = this.readStream<Event>(stream.streamId);
    const decided = decider.decide(command, foldEvents(decider, history));
    if (decided.length === 0) return;
    // Fresh ids, as the event store gives each appended event.
    await alongside?.(decided.map(() => randomUUID()));
    this.streams.set(stream.streamId, [...history, ...decided]);
    for (const event of decided) if (isAccessEvent(event)) this.project(event);
  }

  /** A stream's events, typed as its decider decided them (as EventStore.readStream types them). */
  readStream<Event extends DomainEvent>(streamId: string): Event[] {
    return (this.streams.get(streamId) ?? []) as Event[];
  }

  readonly keys: KeysRepository = {
    byHash: (keyHash) => Promise.resolve([...this.keyRows.values()].find((k) => k.key_hash === keyHash)),
    byId: (id) => Promise.resolve(this.keyRows.get(id)),
    ofOwner: (ownerId) => Promise.resolve([...this.keyRows.values()].filter((k) => k.owner_id === ownerId).sort(newestFirst((k) => k.created_at)).map((k): KeyInUse => {
      const opened = [...this.sessionRows.values()].filter((s) => s.key_id === k.id);
      const viewed = opened.map((s) => s.last_viewed_at).filter((d): d is Date => d !== null).map((d) => d.getTime());
      return { ...k, sessions: opened.length, last_viewed_at: viewed.length ? new Date(Math.max(...viewed)) : null };
    })),
  };

  readonly requests: RequestsRepository = {
    withStatus: (ownerId, status, limit) =>
      Promise.resolve([...this.requestRows.values()].filter((r) => r.owner_id === ownerId && r.status === status).sort(newestFirst((r) => r.created_at)).slice(0, limit)),
    find: (ownerId, id) => {
      const row = this.requestRows.get(id);
      return Promise.resolve(row?.owner_id === ownerId ? row : undefined);
    },
    isOpen: (ownerId) => Promise.resolve(this.requestsOpen.get(ownerId) ?? true),
  };

  readonly sessions: SessionsRepository = {
    bySecretHash: (secretHash) => Promise.resolve([...this.sessionRows.values()].find((s) => s.secret_hash === secretHash)),
    byId: (id) => Promise.resolve(this.sessionRows.get(id)),
    ofOwner: (ownerId) => Promise.resolve([...this.sessionRows.values()].filter((s) => s.owner_id === ownerId).sort(newestFirst((s) => s.opened_at)).map((s): OwnerSessionRow => {
      const key = this.keyRows.get(s.key_id);
      return { ...s, key_name: key?.name ?? null, recipient_email: key?.recipient_email ?? '' };
    })),
    activeIdsOfKey: (keyId) => Promise.resolve([...this.sessionRows.values()].filter((s) => s.key_id === keyId && s.status === 'active').map((s) => s.id)),
    views: (sessionIds, perSession) => Promise.resolve(sessionIds.flatMap((id) =>
      this.viewRows.filter((v) => v.session_id === id).sort((a, b) => b.viewed_at.getTime() - a.viewed_at.getTime()).slice(0, perSession),
    ).sort((a, b) => b.viewed_at.getTime() - a.viewed_at.getTime())),
    viewedRecently: (sessionId: string, section: string, item: ViewedItem | undefined, seconds: number) => Promise.resolve(this.viewRows.some((v) =>
      v.session_id === sessionId && v.section === section && v.item_kind === (item?.kind ?? '') && v.item_id === (item?.id ?? '')
      && v.viewed_at.getTime() > this.now().getTime() - seconds * 1000)),
  };

  private project(event: AccessEvent): void {
    switch (event.type) {
      case 'AccessKeyIssued': {
        const d = event.data;
        this.keyRows.set(d.keyId, {
          id: d.keyId, owner_id: d.ownerId, key_hash: d.keyHash, name: d.personal?.name ?? null, recipient_email: d.personal?.recipientEmail ?? '',
          source: d.source, request_id: d.requestId, scopes: d.scopes, created_at: new Date(d.issuedAt), expires_at: new Date(d.expiresAt),
          revoked_at: null, email_status: 'queued', email_sent_at: null, email_failure: null, letter_id: d.letterId ?? null, allow_download: d.allowDownload === true,
        });
        break;
      }
      case 'AccessKeyRevoked':
        this.updateKey(event.data.keyId, { revoked_at: new Date(event.data.revokedAt) });
        break;
      case 'AccessKeyEmailStatusChanged':
        this.updateKey(event.data.keyId, { email_status: event.data.status, email_sent_at: event.data.status === 'sent' ? new Date(event.data.at) : null, email_failure: emailFailureOf(event.data) });
        break;
      case 'AccessRequestSubmitted': {
        const { requestId, ownerId, heldKeyId, submittedAt, personal: p } = event.data;
        if (!p) break;
        this.requestRows.set(requestId, {
          id: requestId, owner_id: ownerId, requester_email: p.requesterEmail, requester_name: p.requesterName, relationship: p.relationship, message: p.message,
          child_name: p.childName, child_dob: p.childDob, held_key_id: heldKeyId, status: 'pending', created_at: new Date(submittedAt), decided_at: null, key_id: null,
        });
        break;
      }
      case 'AccessRequestApproved':
        this.updateRequest(event.data.requestId, { status: 'approved', decided_at: new Date(event.data.approvedAt), key_id: event.data.keyId });
        break;
      case 'AccessRequestDeclined':
        this.updateRequest(event.data.requestId, { status: 'declined', decided_at: new Date(event.data.declinedAt) });
        break;
      case 'RequestSettingChanged':
        this.requestsOpen.set(event.data.ownerId, event.data.open);
        break;
      case 'ViewSessionOpened': {
        const d = event.data;
        this.sessionRows.set(d.sessionId, {
          id: d.sessionId, owner_id: d.ownerId, key_id: d.keyId, secret_hash: d.secretHash, scopes: d.scopes, opened_at: new Date(d.openedAt), expires_at: new Date(d.expiresAt),
          status: 'active', ended_at: null, consent_version: d.consent.version, consent_text: d.consent.text, consent_hash: d.consent.hash, user_agent: d.consent.userAgent,
          origin: d.consent.origin, last_viewed_at: null, letter_id: d.letterId ?? null, may_download: d.mayDownload === true,
        });
        break;
      }
      case 'ViewSessionSectionViewed': {
        const d = event.data;
        const at = new Date(d.viewedAt);
        this.viewRows.push({ session_id: d.sessionId, section: d.section, viewed_at: at, item_kind: d.item?.kind ?? '', item_id: d.item?.id ?? '' });
        const last = this.sessionRows.get(d.sessionId)?.last_viewed_at;
        this.updateSession(d.sessionId, { last_viewed_at: last && last > at ? last : at });
        break;
      }
      case 'ViewSessionRevoked':
        this.updateSession(event.data.sessionId, { status: 'revoked', ended_at: new Date(event.data.revokedAt) });
        break;
      case 'ViewSessionClosed':
        this.updateSession(event.data.sessionId, { status: 'closed', ended_at: new Date(event.data.closedAt) });
        break;
    }
  }

  private updateKey(id: string, change: Partial<KeyRow>): void {
    const row = this.keyRows.get(id);
    if (row) this.keyRows.set(id, { ...row, ...change });
  }

  private updateRequest(id: string, change: Partial<RequestRow>): void {
    const row = this.requestRows.get(id);
    if (row) this.requestRows.set(id, { ...row, ...change });
  }

  private updateSession(id: string, change: Partial<SessionRow>): void {
    const row = this.sessionRows.get(id);
    if (row) this.sessionRows.set(id, { ...row, ...change });
  }
}
