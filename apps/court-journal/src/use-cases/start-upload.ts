import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { COURT_FILE_MAX_BYTES, type CourtJournalRpc, type CourtUploadTicket, type PayloadOf } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import type { CourtUploads } from '../uploads/court-uploads.repository.js';
import { acceptUploadForm } from '../uploads/upload-rules.js';
import { COURT_PATHS } from './court-answers.js';

/** Checks the form (the spec's words) and opens a ticket for the bytes, bound to the owner, expiring. */
export class StartUpload {
  constructor(private readonly deps: { orm: MikroORM; uploads: CourtUploads; ticketSeconds: number }) {}

  async run(caller: Caller, request: PayloadOf<typeof CourtJournalRpc.startUpload>): Promise<CourtUploadTicket> {
    const owner = ownerOf(caller);
    const form = acceptUploadForm(request);
    const uploadId = randomUUID();
    await this.deps.uploads.open(this.deps.orm.em.fork(), { id: uploadId, ownerId: owner.userId, ...form, ttlSeconds: this.deps.ticketSeconds });
    return { uploadId, uploadUrl: `${COURT_PATHS.uploads}/${uploadId}`, maxBytes: COURT_FILE_MAX_BYTES };
  }
}
