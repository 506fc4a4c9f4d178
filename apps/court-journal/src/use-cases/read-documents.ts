import { CourtMessages, isCourtCategory, isUuid, type CourtDocument, type TitlesReply, type VaultStatsContribution } from '@lv/contracts';
import { ownerOf, readsSection, requireSection, vaultOwnerId, type Caller } from '@lv/platform/auth';
import { validationError } from '@lv/platform/errors';
import { toCourtDocument, toViewerCourtDocument } from '../documents/court-documents.projection.js';
import type { CourtDocumentsReadModel } from '../documents/court-documents.repository.js';

/**
 * Reads of a vault's documents: the owner's, or (court-journal section) his viewer's, who sees each
 * file's name where the owner sees his title, and never the owner's description.
 */
export class ReadDocuments {
  constructor(private readonly documents: CourtDocumentsReadModel) {}

  /** The vault's documents, newest first; a viewer (court-journal scope) sees its owner's. */
  async list(caller: Caller, category?: string): Promise<CourtDocument[]> {
    // The service's own check behind @Readers: a viewer reads documents only with a key that opens the Court Journal.
    requireSection(caller, 'court-journal');
    if (category !== undefined && !isCourtCategory(category)) throw validationError({ category: CourtMessages.categoryRequired }, CourtMessages.categoryRequired);
    const rows = await this.documents.list(vaultOwnerId(caller), category);
    return rows.map(caller.kind === 'viewer' ? toViewerCourtDocument : toCourtDocument);
  }

  /**
   * The timeline's batch lookup: titles of the caller's vault's documents among `ids` (malformed, unknown
   * and others' ids omitted). A viewer whose key does not open the Court Journal gets none: the timeline
   * section alone never shows a document's title.
   */
  async titles(caller: Caller, ids: readonly string[]): Promise<TitlesReply> {
    if (!readsSection(caller, 'court-journal')) return { titles: {} };
    const wanted = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    // A viewer's timeline shows the file's name: the owner's titles for court matters stay his.
    return { titles: await this.documents.titles(vaultOwnerId(caller), wanted, caller.kind === 'viewer' ? 'file_name' : 'title') };
  }

  async stats(caller: Caller): Promise<VaultStatsContribution> {
    return { activeDays: await this.documents.activeDays(ownerOf(caller).userId) };
  }
}
