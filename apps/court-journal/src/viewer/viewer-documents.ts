import { COURT_FILE_KINDS, CourtMessages, isUuid, VIEW_DOCUMENTS_PATH, ViewerLinkMessages, type ViewerDocumentGrant } from '@lv/contracts';
import { requireSection, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { authoriseViewerLink, type ViewerLinks, type ViewerTokenCheck } from '@lv/platform/links';
import type { ObjectStorage } from '@lv/platform/storage';
import type { CourtDocumentRow } from '../documents/court-documents.projection.js';
import type { CourtDocumentsReadModel } from '../documents/court-documents.repository.js';
import { openDocumentFile } from '../documents/document-file.js';

export interface ViewerDocumentsDeps {
  documents: CourtDocumentsReadModel;
  storage: Pick<ObjectStorage, 'getObject'>;
  links: ViewerLinks;
  /** ViewerTokenVerifier with RevokedViewSessions: undefined when no viewer key is configured (every viewer link is refused). */
  tokens: ViewerTokenCheck | undefined;
}

const notFound = () => new DomainError('NOT_FOUND', CourtMessages.notFound);

/**
 * A family viewer's previews (and, where the key allows it, downloads) of the owner's court documents:
 * the court-journal section only, the viewer's vault only. The checks run when the link is made (NATS,
 * the viewer's token) and again on every read (HTTP, the token from the lv_view cookie), so a revoked
 * or expired key stops at the next request. Another vault's document is "not found".
 */
export class ViewerDocuments {
  constructor(private readonly deps: ViewerDocumentsDeps) {}

  /** GET /api/view/documents/:id/link: an inline link, and a download link when the key allows downloads. */
  async link(caller: Caller, id: string): Promise<ViewerDocumentGrant> {
    // The declaration admits viewers only; an owner previews through fileLink, never a view-session link.
    if (caller.kind !== 'viewer') throw new DomainError('FORBIDDEN');
    requireSection(caller, 'court-journal');
    const row = await this.find(caller.vaultOwnerId, id);
    const path = `${VIEW_DOCUMENTS_PATH}/${row.id}`;
    const inline = this.deps.links.sign(path, caller.viewSessionId, row.id);
    return {
      url: inline.url, expiresAt: inline.expiresAt, contentType: COURT_FILE_KINDS[row.file_kind].contentType, fileName: row.file_name,
      downloadUrl: caller.mayDownload ? this.deps.links.sign(path, caller.viewSessionId, row.id, true).url : null, section: 'court-journal',
    };
  }

  /** GET /view/documents/:id on the byte listener: the token (cookie), the link, then the file (inline, or an attachment for a download link). */
  async open(id: string, query: Record<string, unknown>, viewerToken: string | undefined): ReturnType<typeof openDocumentFile> {
    if (!isUuid(id)) throw new DomainError('FORBIDDEN', ViewerLinkMessages.linkInvalid);
    const { viewer, link } = await authoriseViewerLink(this.deps.tokens, this.deps.links, id, query, viewerToken, ViewerLinkMessages);
    requireSection(viewer, 'court-journal');
    const row = await this.find(viewer.vaultOwnerId, link.itemId);
    return openDocumentFile(this.deps.storage, row, link.download ? 'attachment' : 'inline');
  }

  private async find(ownerId: string, id: string): Promise<CourtDocumentRow> {
    if (!isUuid(id)) throw notFound();
    const row = await this.deps.documents.find(ownerId, id.toLowerCase());
    if (!row) throw notFound();
    return row;
  }
}
