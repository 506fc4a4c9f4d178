import { isUuid, type CourtFileGrant } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import type { ObjectStorage } from '@lv/platform/storage';
import type { CourtDocumentsReadModel } from '../documents/court-documents.repository.js';
import { openDocumentFile } from '../documents/document-file.js';
import { evidenceFacts } from '../evidence/evidence-facts.js';
import type { EvidenceRecorder } from '../evidence/evidence-recorder.js';
import { COURT_PATHS, documentId, linkInvalid, notFound, ownerAction, type ByteResponse } from './court-answers.js';
import { authoriseLink, FILE_LINK, grantLink, type OwnerLinks } from './owner-links.js';

export interface FileLinksDeps {
  documents: CourtDocumentsReadModel;
  evidence: EvidenceRecorder;
  links: OwnerLinks;
  storage: Pick<ObjectStorage, 'getObject'>;
  now: () => number;
}

/** The owner's own files: a signed link to one, and its bytes for whoever presents that link with his binding. */
export class FileLinks {
  constructor(private readonly deps: FileLinksDeps) {}

  /**
   * A short-lived link to one of the owner's files (inline for a preview, attachment for a download)
   * and the binding that ties it to them. Asking for it is a view: the chain records it now (the
   * owner asked to see the file; a link is useless to anyone else).
   */
  async fileLink(caller: Caller, rawId: string, disposition: 'inline' | 'attachment', correlationId?: string): Promise<CourtFileGrant> {
    const owner = ownerOf(caller);
    const row = await this.deps.documents.find(owner.userId, documentId(rawId));
    if (!row) throw notFound();
    const viewedAt = new Date(this.deps.now()).toISOString();
    await this.deps.evidence.record(owner.userId, evidenceFacts.viewed(row, viewedAt, owner.userId), ownerAction(owner.userId, correlationId), async (documents) => {
      if (!(await documents.find(owner.userId, row.id))) throw notFound();
    });
    return grantLink(this.deps.links, owner, FILE_LINK, `${COURT_PATHS.files}/${row.id}`, row.id, { d: disposition });
  }

  /** Serves a signed file link: 403 for an expired, altered or foreign link, 404 when the document is gone. */
  async openFile(rawId: string, query: Record<string, unknown>, binding: string | undefined): Promise<ByteResponse> {
    if (!isUuid(rawId)) throw linkInvalid();
    const grant = await authoriseLink(this.deps.links, FILE_LINK, rawId, query, binding, ['d']);
    const disposition = grant.extra.d;
    if (disposition !== 'inline' && disposition !== 'attachment') throw linkInvalid();
    const row = await this.deps.documents.find(grant.userId, rawId.toLowerCase());
    if (!row) throw notFound();
    return openDocumentFile(this.deps.storage, row, disposition);
  }
}
