import type { EntityManager } from '@mikro-orm/postgresql';
import type { ErasureHandler } from '@lv/platform/event-store';
import { courtDocumentStreamId } from '../documents/court-document.decider.js';
import { EVIDENCE_STREAM_TYPE, evidenceStreamId } from '../evidence/evidence-events.repository.js';
import type { ChangeDocument } from './change-document.js';
import type { DocumentWriteDeps } from './document-commands.js';

/**
 * "Delete my account" (issue 32), court-journal's part, when identity's AccountErased arrives:
 * - every document deleted as its owner would delete it (its key destroyed and journaled, its object
 *   removed, the sweeper retrying a removal storage refused);
 * - every open upload ticket ended (its title and file name are in the clear there) and its object queued
 *   for removal;
 * - the owner's evidence chain deleted: its upload entries name titles and file names, and a chain is
 *   never shredded entry by entry. Bundles he exported before keep verifying on their own (each carries
 *   its entries and the signed head). Its deletion is journaled (stream type `evidence`, ids only), so
 *   the replay after a restore deletes it again, the tickets with it.
 * Only what is alive is erased: a second delivery erases nothing.
 */
/** An upload ticket ended with the account: its object, if bytes arrived, is removed. */
interface Ticket { object_key: string | null; multipart_upload_id: string | null }

const ownerIdOfEvidenceStream = (streamId: string) => streamId.slice(`${EVIDENCE_STREAM_TYPE}-`.length);

export class EraseAccount {
  /**
   * The erasure journal's replay: the `evidence-{owner}` record stands for the owner's whole account
   * here, so a restore that brought back his chain or his upload tickets loses them again.
   */
  readonly evidenceHandler: ErasureHandler = {
    streamType: EVIDENCE_STREAM_TYPE,
    eraseAgain: async (streamId) => {
      const { chain, tickets } = await this.deps.orm.em.fork().transactional((em) => this.eraseChainAndTickets(em, ownerIdOfEvidenceStream(streamId)));
      await this.removeObjects(tickets);
      return chain || tickets.length > 0;
    },
  };

  constructor(private readonly deps: Pick<DocumentWriteDeps, 'orm' | 'uploads' | 'removals' | 'logger'> & { changes: ChangeDocument; bucket: string }) {}

  async run(ownerId: string): Promise<{ documents: number; uploads: number; evidence: boolean }> {
    const { orm, changes } = this.deps;
    const rows = await orm.em.fork().execute<{ id: string }[]>('select id::text from court_documents where owner_id = ? order by id', [ownerId]);
    let documents = 0;
    for (const { id } of rows) if (await changes.eraseAgain(courtDocumentStreamId(id), 'account-erasure')) documents++;
    // After the documents: their deletions append to the chain first, then the whole chain goes.
    const { chain, tickets } = await orm.em.fork().transactional(async (em) => {
      const erased = await this.eraseChainAndTickets(em, ownerId);
      if (erased.chain || erased.tickets.length > 0) {
        await em.execute('insert into erasure_journal (stream_type, stream_id, key_id) values (?, ?, ?)', [EVIDENCE_STREAM_TYPE, evidenceStreamId(ownerId), ownerId]);
      }
      return erased;
    });
    await this.removeObjects(tickets);
    return { documents, uploads: tickets.length, evidence: chain };
  }

  /** Deletes the owner's chain and ends his upload tickets, their objects queued for removal (in `em`'s transaction). */
  private async eraseChainAndTickets(em: EntityManager, ownerId: string): Promise<{ chain: boolean; tickets: Ticket[] }> {
    const chain = await em.execute<unknown[]>('delete from events where stream_id = ? returning 1', [evidenceStreamId(ownerId)]);
    const tickets = await em.execute<Ticket[]>('delete from court_uploads where owner_id = ? returning object_key, multipart_upload_id', [ownerId]);
    for (const ticket of tickets) {
      if (ticket.object_key) await this.deps.uploads.queueRemoval(em, { bucket: this.deps.bucket, objectKey: ticket.object_key, multipartUploadId: ticket.multipart_upload_id, reason: 'account erased' });
    }
    return { chain: chain.length > 0, tickets };
  }

  private async removeObjects(tickets: readonly Ticket[]): Promise<void> {
    for (const ticket of tickets) {
      if (!ticket.object_key) continue;
      await this.deps.removals.remove(this.deps.bucket, ticket.object_key, ticket.multipart_upload_id)
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'object removal failed after an account erasure; the sweeper will retry'));
    }
  }
}
