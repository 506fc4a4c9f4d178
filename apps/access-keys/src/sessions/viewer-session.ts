import type { RequestMeta, ViewedItem, ViewSection } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { hashSessionSecret } from '../secrets.js';
import { endSession, type EndSessionDeps } from './end-session.js';
import { SESSION_STREAM_TYPE, sessionDecider, sessionStreamId } from './session.decider.js';
import type { SessionsRepository } from './sessions.repository.js';
import { requireViewable } from './viewer-access.decider.js';

/** A section's views are recorded at most once a minute per session (a viewer switching tabs back and forth). */
const VIEW_RECORD_INTERVAL_SECONDS = 60;

export interface ViewerSessionDeps extends EndSessionDeps {
  sessions: Pick<SessionsRepository, 'bySecretHash' | 'byId' | 'viewedRecently'>;
  now: () => Date;
}

/** What a viewer does inside an open session: every read is recorded first, and "Clear access" ends it. */
export class ViewerSession {
  constructor(private readonly deps: ViewerSessionDeps) {}

  /** "Clear access": the viewer ends their own session; an unknown secret is simply not closed. */
  async close(secret: string, meta: RequestMeta): Promise<{ closed: boolean }> {
    const session = await this.deps.sessions.bySecretHash(hashSessionSecret(secret));
    if (!session) return { closed: false };
    await endSession(this.deps, session.id, { type: 'CloseSession', now: this.deps.now().toISOString() }, { actor: { kind: 'viewer', id: session.id }, correlationId: meta.requestId });
    return { closed: true };
  }

  /**
   * Records that a viewer opened a section (who viewed what and when), after checking the session is
   * still live: the gateway calls it before every read, so an ended session reads nothing.
   */
  async recordView(caller: Caller, section: ViewSection, item: ViewedItem | undefined, meta: RequestMeta): Promise<{ recorded: true }> {
    if (caller.kind !== 'viewer') throw new DomainError('FORBIDDEN');
    const session = await this.deps.sessions.byId(caller.viewSessionId);
    const now = this.deps.now();
    requireViewable(caller, session, section, now.getTime());
    // At most one row a minute per list or item: a viewer scrubbing through a video is one opening.
    if (await this.deps.sessions.viewedRecently(caller.viewSessionId, section, item, VIEW_RECORD_INTERVAL_SECONDS)) return { recorded: true };
    await this.deps.commands.run(sessionDecider, { streamId: sessionStreamId(caller.viewSessionId), streamType: SESSION_STREAM_TYPE }, {
      type: 'RecordView', section, ...(item ? { item } : {}), now: now.toISOString(),
    }, { actor: { kind: 'viewer', id: caller.viewSessionId }, correlationId: meta.requestId });
    return { recorded: true };
  }
}
