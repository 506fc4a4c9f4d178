import { isUuid, type ReportTranscodePayload, type ReportTranscodeReply } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { MediaPorts } from '../media.ports.js';

/**
 * Records the media-transcoding job's result: the playback copy (rendition, poster, duration), or the
 * failure the owner is told about in words (the original still plays where the browser can). A result
 * for a recording already converted, or gone, changes nothing ('ignored' when gone: the worker then
 * removes what it stored).
 */
export function reportTranscode({ streams, signer, logger, now }: Pick<MediaPorts, 'streams' | 'signer' | 'logger' | 'now'>) {
  return async (payload: ReportTranscodePayload): Promise<ReportTranscodeReply> => {
    if (!isUuid(payload.recordingId) || !signer.verifyTranscodeToken(payload.recordingId, payload.reportToken)) throw new DomainError('FORBIDDEN');
    const result = await streams.execute(
      payload.recordingId,
      { type: 'RecordTranscodeResult', recordingId: payload.recordingId, result: payload.result, now: new Date(now()).toISOString() },
      { actor: { kind: 'system', id: 'media-transcoding' } },
    );
    if (result.state.status !== 'saved' || (result.state.type !== 'video' && result.state.type !== 'audio')) return { recordingId: payload.recordingId, transcode: 'ignored' };
    if (result.events.some((e) => e.type === 'RecordingTranscodeFailed') && payload.result.status === 'failed') {
      logger.warn({ recordingId: payload.recordingId, ownerId: result.state.ownerId, reason: payload.result.reason }, 'recording could not be converted for playback: marked for the owner');
    }
    return { recordingId: payload.recordingId, transcode: result.state.transcode };
  };
}
