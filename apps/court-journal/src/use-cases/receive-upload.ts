import { COURT_FILE_MAX_BYTES, courtCategoryOf, type CourtDocument } from '@lv/contracts';
import { safeFileName } from '@lv/evidence';
import type { UserCaller } from '@lv/platform/auth';
import { StreamInspector } from '@lv/platform/byte-streams';
import type { ObjectStorage } from '@lv/platform/storage';
import type { CourtDocumentUploadedData } from '../documents/court-document.decider.js';
import { toCourtDocument } from '../documents/court-documents.projection.js';
import { evidenceFacts } from '../evidence/evidence-facts.js';
import { checkCourtHead, TextStreamCheck } from '../uploads/kind-sniffer.js';
import { expectUpload, fileTooLarge, uploadIncomplete } from '../uploads/upload-rules.js';
import { documentId, notFound, ownerAction } from './court-answers.js';
import { executeDocumentCommand, type DocumentWriteDeps } from './document-commands.js';

export interface ReceiveUploadDeps extends DocumentWriteDeps {
  storage: ObjectStorage;
  bucket: string;
}

/**
 * Streams an upload's body into object storage: the kind judged from the first bytes before storage
 * is touched, the 10 MB limit counted as bytes arrive, a text file checked to its last byte, SHA-256
 * computed on the way, memory flat (parts of the storage's part size). Only when the object is
 * complete are CourtDocumentUploaded and the chain's 'uploaded' entry appended (one transaction).
 * Whatever goes wrong, the ticket is used up and the object (or its parts) removed: no object, no event.
 */
export class ReceiveUpload {
  constructor(private readonly deps: ReceiveUploadDeps) {}

  async run(caller: UserCaller, rawId: string, body: AsyncIterable<Uint8Array | string>, options: { contentLength?: number; correlationId?: string } = {}): Promise<CourtDocument> {
    const { orm, uploads, bucket } = this.deps;
    const id = documentId(rawId);
    const owner = caller.userId;
    const ticket = await orm.em.fork().transactional((em) => uploads.claim(em, id, owner, (row) => `${owner}/${id}/${safeFileName(row.file_name)}`));
    if (!ticket) throw notFound();
    const objectKey = ticket.object_key!;
    let multipartUploadId: string | null = null;
    const metadata = ownerAction(owner, options.correlationId);
    try {
      const expected = expectUpload(ticket, options.contentLength);
      const { kind, variant, declaredSize } = expected;
      const text = kind === 'txt' ? new TextStreamCheck() : null;
      const inspector = new StreamInspector(
        { maxBytes: COURT_FILE_MAX_BYTES, declaredSize, tooLarge: fileTooLarge, overDeclared: uploadIncomplete },
        {
          head: (head, ended) => checkCourtHead(head, ended, kind, variant),
          chunk: text ? (chunk) => text.chunk(chunk) : undefined,
          end: (bytes) => {
            text?.end();
            if (bytes < declaredSize) throw uploadIncomplete();
          },
        },
      );
      await this.deps.storage.upload(bucket, objectKey, inspector.pipe(body), {
        contentType: expected.contentType,
        metadata: { owner, document: id },
        onMultipartStarted: async (multipartId) => {
          multipartUploadId = multipartId;
          await uploads.recordMultipartUpload(orm.em.fork(), id, multipartId);
        },
      });
      // A ticket opened before the one category model (an old category) is filed under its card.
      const category = courtCategoryOf(ticket.category, kind);
      if (!category) throw new Error(`court upload ${id} has an unknown category`);
      const uploaded: CourtDocumentUploadedData = {
        documentId: id, ownerId: owner, title: ticket.title, description: ticket.description, category, variant, fileName: ticket.file_name,
        fileKind: kind, contentType: expected.contentType, bucket, objectKey, size: inspector.bytes, sha256: inspector.digest(), uploadedAt: new Date(this.deps.now()).toISOString(),
      };
      await executeDocumentCommand(orm, this.deps.store, { type: 'RecordUpload', ...uploaded }, metadata, async (em) => {
        // A ticket the sweeper took for dead (its object is queued for removal) must not become a document.
        if (!(await uploads.close(em, id))) throw uploadIncomplete();
        await this.deps.evidence.appendIn(em, owner, evidenceFacts.uploaded(uploaded), metadata);
      });
    } catch (err) {
      await this.deps.removals.discard(id, objectKey, multipartUploadId, err)
        .catch((e: unknown) => this.deps.logger.error({ err: e, documentId: id }, 'could not clean up a failed upload; the sweeper will'));
      throw err;
    }
    const row = await this.deps.documents.find(owner, id);
    if (!row) throw new Error(`court document ${id} stored but not in the read model`);
    return toCourtDocument(row);
  }
}
