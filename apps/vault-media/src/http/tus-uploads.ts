import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Server as TusServer } from '@tus/server';
import { DataStore, Upload } from '@tus/utils';
import { ErrorCodes } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { ResumableUploads } from '../uploads/resumable-upload.js';

/** The path the tus server answers under, on vault-media's byte-stream listener (the gateway's is /api/media/tus). */
export const TUS_PATH = '/tus';

/** Who sent the request being handled: the listener verifies the bearer token, then runs tus inside this. */
const requestCaller = new AsyncLocalStorage<{ caller: UserCaller; requestId: string }>();

function current(): { caller: UserCaller; requestId: string } {
  const found = requestCaller.getStore();
  if (!found) throw new DomainError('UNAUTHENTICATED');
  return found;
}

/**
 * The tus protocol's store for recordings: the protocol (offsets, headers, locking a upload to one
 * request at a time) is @tus/server's; every byte goes through vault-media's resumable uploads, which
 * check the owner, the format, the size and the hash as a single PUT would. Uploads are opened by
 * POST /api/media/uploads (the ticket, duplicates refused before any byte) and never by tus's POST.
 */
class RecordingUploadStore extends DataStore {
  constructor(private readonly uploads: ResumableUploads) {
    super();
    this.extensions = ['termination'];
  }

  override create(): Promise<Upload> {
    return Promise.reject(new DomainError('NOT_FOUND', 'Open an upload with POST /api/media/uploads first.'));
  }

  override async getUpload(id: string): Promise<Upload> {
    const status = await this.uploads.status(current().caller, id);
    return new Upload({ id, size: status.size, offset: status.offset });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { caller, requestId } = current();
    return (await this.uploads.append(caller, id, offset, stream, requestId)).offset;
  }

  override async remove(id: string): Promise<void> {
    await this.uploads.cancel(current().caller, id);
  }
}

/**
 * The tus server of recordings. `handle` runs one request (HEAD, PATCH or DELETE on /tus/:id) for a
 * caller the listener has verified. The PATCH that completes an upload answers 200 with the saved
 * Recording (tus allows a body there; tus-js-client hands it to the app).
 */
export function recordingTusServer(uploads: ResumableUploads, logger: Logger) {
  const server = new TusServer({
    path: TUS_PATH,
    datastore: new RecordingUploadStore(uploads),
    relativeLocation: true,
    async onUploadFinish(_request, upload) {
      const { recording } = await uploads.status(current().caller, upload.id);
      return { status_code: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, body: JSON.stringify(recording) };
    },
    onResponseError(_request, error) {
      if (error instanceof DomainError) return { status_code: ErrorCodes[error.code].status, body: JSON.stringify(error.toBody()) };
      // tus's own refusals (a wrong offset, a missing header) carry their status; anything else is ours to log.
      if (!('status_code' in error)) {
        const errorId = randomUUID();
        logger.error({ err: error, errorId }, `resumable upload request failed (errorId ${errorId})`);
        return { status_code: 500, body: JSON.stringify({ code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId }) };
      }
      return undefined;
    },
  });
  return {
    handle<T>(caller: UserCaller, requestId: string, run: (server: TusServer) => Promise<T>): Promise<T> {
      return requestCaller.run({ caller, requestId }, () => run(server));
    },
  };
}
