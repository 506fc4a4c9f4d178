import type { MikroORM } from '@mikro-orm/postgresql';
import {
  Buckets, type CourtDocument, type CourtFileGrant, type CourtJournalRpc, type CourtUploadTicket, type DeleteCourtDocumentReply, type EvidenceEntrySummary,
  type EvidencePublicKeys, type PayloadOf, type SignedEvidenceHead, type TitlesReply, type VaultStatsContribution,
} from '@lv/contracts';
import { ownerOf, type Caller, type RevokedSessions, type UserCaller } from '@lv/platform/auth';
import { EventStore, PerStreamSealing, rebuildProjections, type ErasureHandler, type RebuildReport } from '@lv/platform/event-store';
import type { OwnerLinkSigner } from '@lv/platform/links';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import { CourtDocumentKeys, courtDocumentSealing } from './documents/court-document-sealing.js';
import { COURT_DOCUMENT_STREAM_TYPE } from './documents/court-document.decider.js';
import { courtDocumentsProjection } from './documents/court-documents.projection.js';
import { CourtDocumentsRepository } from './documents/court-documents.repository.js';
import { courtJournalPublishPolicy } from './documents/publish-policy.js';
import type { EvidenceChain } from './evidence/evidence-chain.js';
import { chainRecorder } from './evidence/evidence-recorder.js';
import { CourtUploads } from './uploads/court-uploads.repository.js';
import { ChangeDocument } from './use-cases/change-document.js';
import type { ByteResponse } from './use-cases/court-answers.js';
import { EraseAccount } from './use-cases/erase-account.js';
import { EvidenceBundle } from './use-cases/evidence-bundle.js';
import { FileLinks } from './use-cases/file-links.js';
import { ObjectRemovals } from './use-cases/object-removals.js';
import { ReadDocuments } from './use-cases/read-documents.js';
import { ReceiveUpload } from './use-cases/receive-upload.js';
import { StartUpload } from './use-cases/start-upload.js';

export interface CourtJournalServiceDeps {
  orm: MikroORM;
  storage: ObjectStorage;
  links: OwnerLinkSigner;
  /** Built on this service's `store` (courtJournalService wires it). */
  evidence: (store: EventStore) => EvidenceChain;
  revokedSessions?: RevokedSessions;
  logger: Logger;
  ticketSeconds: number;
  bucket?: string;
  now?: () => number;
}

/**
 * court-journal's use cases (one file each under use-cases/), wired to Postgres, the object storage
 * and the evidence chain. Transport-free: the NATS controller, the HTTP listener for bytes and the
 * tests call these directly. Every read and write is scoped to the verified caller; someone else's
 * document is "not found", never "forbidden", so ids reveal nothing.
 */
export class CourtJournalService {
  readonly sealing = new PerStreamSealing([courtDocumentSealing(new CourtDocumentKeys())]);

  /** Document streams (their words sealed per document) and evidence chains. */
  readonly store = new EventStore({
    publish: courtJournalPublishPolicy,
    inlineProjections: [courtDocumentsProjection],
    sealing: this.sealing,
  });

  /** How the erasure journal's replay deletes a document (an erased account's evidence chain) again that a restore brought back. */
  readonly erasureHandlers: ErasureHandler[];
  readonly bucket: string;
  readonly evidence: EvidenceChain;
  private readonly removals: ObjectRemovals;
  private readonly uploading: { start: StartUpload; receive: ReceiveUpload };
  private readonly reads: ReadDocuments;
  private readonly changes: ChangeDocument;
  private readonly accountErasure: EraseAccount;
  private readonly files: FileLinks;
  private readonly bundles: EvidenceBundle;

  constructor(private readonly deps: CourtJournalServiceDeps) {
    const { orm, storage, logger, ticketSeconds } = deps;
    const now = deps.now ?? Date.now;
    const bucket = (this.bucket = deps.bucket ?? Buckets.courtjournals);
    const evidence = (this.evidence = deps.evidence(this.store));
    const store = this.store;
    const uploads = new CourtUploads();
    const documents = CourtDocumentsRepository.of(orm);
    const links = { signer: deps.links, revokedSessions: deps.revokedSessions };
    this.removals = new ObjectRemovals({ orm, storage, uploads, bucket, ticketSeconds, logger });
    const writes = { orm, store, evidence, documents, uploads, removals: this.removals, logger, now };
    this.uploading = { start: new StartUpload({ orm, uploads, ticketSeconds }), receive: new ReceiveUpload({ ...writes, storage, bucket }) };
    this.reads = new ReadDocuments(documents);
    this.changes = new ChangeDocument(writes);
    this.accountErasure = new EraseAccount({ ...writes, changes: this.changes, bucket });
    this.erasureHandlers = [{ streamType: COURT_DOCUMENT_STREAM_TYPE, eraseAgain: (streamId) => this.changes.eraseAgain(streamId) }, this.accountErasure.evidenceHandler];
    this.files = new FileLinks({ documents, evidence: chainRecorder(orm, evidence), links, storage, now });
    this.bundles = new EvidenceBundle({ orm, storage, evidence, links, now });
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  pingStorage(timeoutMs: number): Promise<void> {
    return this.deps.storage.ping(timeoutMs);
  }

  startUpload(caller: Caller, request: PayloadOf<typeof CourtJournalRpc.startUpload>): Promise<CourtUploadTicket> {
    return this.uploading.start.run(caller, request);
  }

  receiveUpload(caller: UserCaller, rawId: string, body: AsyncIterable<Uint8Array | string>, options: { contentLength?: number; correlationId?: string } = {}): Promise<CourtDocument> {
    return this.uploading.receive.run(caller, rawId, body, options);
  }

  /** Expired tickets go; removals nobody finished are retried. */
  sweep(): Promise<{ expired: number; removed: number }> {
    return this.removals.sweep();
  }

  list(caller: Caller, category?: string): Promise<CourtDocument[]> {
    return this.reads.list(caller, category);
  }

  titles(caller: Caller, ids: readonly string[]): Promise<TitlesReply> {
    return this.reads.titles(caller, ids);
  }

  stats(caller: Caller): Promise<VaultStatsContribution> {
    return this.reads.stats(caller);
  }

  setKeyEvidence(caller: Caller, rawId: string, isKeyEvidence: boolean, correlationId?: string): Promise<CourtDocument> {
    return this.changes.setKeyEvidence(caller, rawId, isKeyEvidence, correlationId);
  }

  delete(caller: Caller, rawId: string, correlationId?: string): Promise<DeleteCourtDocumentReply> {
    return this.changes.delete(caller, rawId, correlationId);
  }

  /** identity's AccountErased: every document, upload ticket and the evidence chain of the owner erased (use-cases/erase-account.ts). */
  eraseOwner(ownerId: string): Promise<{ documents: number; uploads: number; evidence: boolean }> {
    return this.accountErasure.run(ownerId);
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  fileLink(caller: Caller, rawId: string, disposition: 'inline' | 'attachment', correlationId?: string): Promise<CourtFileGrant> {
    return this.files.fileLink(caller, rawId, disposition, correlationId);
  }

  openFile(rawId: string, query: Record<string, unknown>, binding: string | undefined): Promise<ByteResponse> {
    return this.files.openFile(rawId, query, binding);
  }

  bundleLink(caller: Caller): CourtFileGrant {
    return this.bundles.link(caller);
  }

  openBundle(query: Record<string, unknown>, binding: string | undefined, correlationId?: string): Promise<ByteResponse> {
    return this.bundles.open(query, binding, correlationId);
  }

  evidenceHead(caller: Caller): Promise<SignedEvidenceHead> {
    return this.evidence.head(this.deps.orm.em.fork(), ownerOf(caller).userId);
  }

  evidenceEntries(caller: Caller): Promise<EvidenceEntrySummary[]> {
    return this.evidence.summaries(this.deps.orm.em.fork(), ownerOf(caller).userId);
  }

  publicKeys(): EvidencePublicKeys {
    return this.evidence.publicKeys;
  }
}
