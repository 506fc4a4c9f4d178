import type { RevokedViewSessions } from '@lv/platform/auth';
import type { EventMetadata } from '@lv/platform/event-store';
import type { StreamCommands } from '../stream-commands.js';
import { SESSION_STREAM_TYPE, sessionDecider, sessionStreamId, type SessionCommand } from './session.decider.js';

export interface EndSessionDeps {
  commands: StreamCommands;
  revokedViewSessions: Pick<RevokedViewSessions, 'revoke'>;
}

/** Revokes or closes a view session, and stops the viewer tokens already handed out for it. */
export async function endSession(deps: EndSessionDeps, sessionId: string, command: Extract<SessionCommand, { type: 'RevokeSession' | 'CloseSession' }>, metadata: EventMetadata): Promise<void> {
  await deps.commands.run(sessionDecider, { streamId: sessionStreamId(sessionId), streamType: SESSION_STREAM_TYPE }, command, metadata);
  // Tokens already handed out stop at every service on their next request, not at their expiry.
  await deps.revokedViewSessions.revoke(sessionId);
}
