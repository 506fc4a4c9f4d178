import { isUuid, type ReportHashPayload, type ReportHashReply } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { MediaPorts } from '../media.ports.js';

/** Records the media-hashing job's result: verified, or a mismatch the owner is told about. */
export function reportHash({ streams, signer, logger, now }: Pick<MediaPorts, 'streams' | 'signer' | 'logger' | 'now'>) {
  return async (payload: ReportHashPayload): Promise<ReportHashReply> => {
    if (!isUuid(payload.recordingId) || !signer.verifyReportToken(payload.recordingId, payload.reportToken)) throw new DomainError('FORBIDDEN');
    const result = await streams.execute(payload.recordingId, { type: 'RecordHashResult', recordingId: payload.recordingId, sha256: payload.sha256, now: new Date(now()).toISOString() }, { actor: { kind: 'system', id: 'media-hashing' } });
    if (result.state.status !== 'saved') return { recordingId: payload.recordingId, integrity: 'ignored' };
    if (result.events.some((e) => e.type === 'RecordingHashMismatch')) {
      logger.error({ recordingId: payload.recordingId, ownerId: result.state.ownerId, expected: result.state.sha256, actual: payload.sha256 }, 'stored recording does not match its hash: marked for the owner');
    }
    return { recordingId: payload.recordingId, integrity: result.state.integrity };
  };
}
