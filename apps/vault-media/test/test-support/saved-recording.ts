import type { Recording, StartUploadRequest } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { receiveUpload } from '../../src/uploads/receive-upload.js';
import { startUpload } from '../../src/uploads/start-upload.js';
import { bodyOf, png, uploadRequest, webm, type MediaWorld } from './in-memory-media.js';

/**
 * An item of the caller's, saved the way the browser saves one (opened, then its body sent): a WebM
 * recording, or a PNG when the fields say so. Bodies differ by `seed`.
 */
export async function savedRecording(world: MediaWorld, caller: UserCaller, seed: string, fields: Partial<StartUploadRequest> = {}): Promise<Recording> {
  const file = fields.contentType === 'image/png' ? png(seed) : webm(seed);
  const ticket = await startUpload(world.ports)(caller, uploadRequest(file, fields));
  return receiveUpload(world.ports)(caller, ticket.uploadId, bodyOf(file.body));
}
