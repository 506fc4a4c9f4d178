import type { CourtDocument, DeleteCourtDocumentReply } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { aggregateStream } from '@lv/platform/event-store';
import { courtDocumentDecider, documentIdOfStream } from '../documents/court-document.decider.js';
import { toCourtDocument, type CourtDocumentRow } from '../documents/court-documents.projection.js';
import { evidenceFacts } from '../evidence/evidence-facts.js';
import { documentId, notFound, ownerAction } from './court-answers.js';
import { executeDocumentCommand, type DocumentWriteDeps } from './document-commands.js';

/** The owner's changes to a stored document: key evidence or not, and deletion; each adds its chain entry. */
export class ChangeDocument {
  constructor(private readonly deps: DocumentWriteDeps) {}

  async setKeyEvidence(caller: Caller, rawId: string, isKeyEvidence: boolean, correlationId?: string): Promise<CourtDocument> {
    const { owner, row } = await this.ownDocument(caller, rawId);
    const at = this.iso();
    const metadata = ownerAction(owner, correlationId);
    await executeDocumentCommand(this.deps.orm, this.deps.store, { type: 'SetKeyEvidence', documentId: row.id, ownerId: owner, isKeyEvidence, now: at }, metadata, async (em) => {
      await this.deps.evidence.appendIn(em, owner, evidenceFacts.keyEvidence(row, isKeyEvidence, at, owner), metadata);
    });
    return toCourtDocument((await this.deps.documents.find(owner, row.id))!);
  }

  /**
   * Deletes a document: the document goes from the list, its words are shredded (its key destroyed),
   * its object is removed (queued in the same transaction, so a failed removal is retried), and the
   * chain keeps a 'deleted' entry with its hash.
   */
  async delete(caller: Caller, rawId: string, correlationId?: string): Promise<DeleteCourtDocumentReply> {
    const { owner, row } = await this.ownDocument(caller, rawId);
    await this.deleteDocument(owner, row, correlationId);
    return { id: row.id, deleted: true };
  }

  /**
   * Deletes a document for the system, as its owner would: the erasure journal's replay (issue 33: a
   * document deleted after the snapshot a restore came from is alive again, its object back in the
   * bucket), or an erased account. True when there was something to erase.
   */
  async eraseAgain(streamId: string, why: 'erasure-journal' | 'account-erasure' = 'erasure-journal'): Promise<boolean> {
    const { state } = await aggregateStream(this.deps.orm.em.fork(), this.deps.store, courtDocumentDecider, streamId);
    if (state.status !== 'active' || !state.ownerId) return false;
    const row = await this.deps.documents.find(state.ownerId, documentIdOfStream(streamId));
    if (!row) return false;
    await this.deleteDocument(state.ownerId, row, why);
    return true;
  }

  private async deleteDocument(owner: string, row: CourtDocumentRow, correlationId?: string): Promise<void> {
    const at = this.iso();
    const metadata = ownerAction(owner, correlationId);
    await executeDocumentCommand(this.deps.orm, this.deps.store, { type: 'DeleteDocument', documentId: row.id, ownerId: owner, now: at }, metadata, async (em) => {
      await this.deps.uploads.queueRemoval(em, { bucket: row.bucket, objectKey: row.object_key, reason: 'document deleted' });
      await this.deps.evidence.appendIn(em, owner, evidenceFacts.deleted(row, at, owner), metadata);
    });
    await this.deps.removals.remove(row.bucket, row.object_key, null)
      .catch((err: unknown) => this.deps.logger.warn({ err, documentId: row.id }, 'object removal failed after delete; the sweeper will retry'));
  }

  private async ownDocument(caller: Caller, rawId: string): Promise<{ owner: string; row: CourtDocumentRow }> {
    const owner = ownerOf(caller).userId;
    const row = await this.deps.documents.find(owner, documentId(rawId));
    if (!row) throw notFound();
    return { owner, row };
  }

  private iso(): string {
    return new Date(this.deps.now()).toISOString();
  }
}
