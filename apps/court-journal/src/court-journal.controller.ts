import { Controller } from '@nestjs/common';
import {
  CourtJournalRpc, type CourtDocument, type CourtFileGrant, type CourtUploadTicket, type DeleteCourtDocumentReply, type EvidenceEntrySummary,
  type EvidencePublicKeys, type PayloadOf, type ErasureReplayReply, type RebuildReply, type RequestMeta, type SignedEvidenceHead, type TitlesReply, type VaultStatsContribution, type ViewerDocumentGrant,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { ErasureJournalKeeper } from '@lv/platform/event-store';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { CourtJournalService } from './court-journal.service.js';
import { ViewerDocuments } from './viewer/viewer-documents.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (CourtJournalRpc);
// the words are the service's to judge, with the spec's messages. No payload names an owner: the
// owner is the caller. Bytes (uploads, files, bundles) go over the service's HTTP listener.

/** court-journal's request-reply API on NATS. */
@Controller()
export class CourtJournalController {
  constructor(private readonly court: CourtJournalService, private readonly viewerDocuments: ViewerDocuments, private readonly erasures: ErasureJournalKeeper) {}

  /** A family viewer's link to one document (the court-journal section): viewers only, the service checks section and vault again. */
  @Readers(viewerOf('court-journal'))
  @RpcHandler(CourtJournalRpc.viewerLink)
  viewerLink(@RpcPayload() { id }: PayloadOf<typeof CourtJournalRpc.viewerLink>, @CurrentCaller() caller: Caller): Promise<ViewerDocumentGrant> {
    return this.viewerDocuments.link(caller, id);
  }

  @Readers('owner')
  @RpcHandler(CourtJournalRpc.stats)
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.court.stats(caller);
  }

  @Writers('owner')
  @RpcHandler(CourtJournalRpc.startUpload)
  startUpload(@RpcPayload() upload: PayloadOf<typeof CourtJournalRpc.startUpload>, @CurrentCaller() caller: Caller): Promise<CourtUploadTicket> {
    return this.court.startUpload(caller, upload);
  }

  /** A family member with the court-journal scope reads the owner's documents (the security notice says so). */
  @Readers('owner', viewerOf('court-journal'))
  @RpcHandler(CourtJournalRpc.list)
  list(@RpcPayload() { category }: PayloadOf<typeof CourtJournalRpc.list>, @CurrentCaller() caller: Caller): Promise<CourtDocument[]> {
    return this.court.list(caller, category);
  }

  @Writers('owner')
  @RpcHandler(CourtJournalRpc.setKeyEvidence)
  setKeyEvidence(@RpcPayload() { id, isKeyEvidence }: PayloadOf<typeof CourtJournalRpc.setKeyEvidence>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<CourtDocument> {
    return this.court.setKeyEvidence(caller, id, isKeyEvidence, meta.requestId);
  }

  @Writers('owner')
  @RpcHandler(CourtJournalRpc.delete)
  delete(@RpcPayload() { id }: PayloadOf<typeof CourtJournalRpc.delete>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeleteCourtDocumentReply> {
    return this.court.delete(caller, id, meta.requestId);
  }

  /** Writes a 'viewed' entry to the owner's chain, hence a writer's declaration. */
  @Writers('owner')
  @RpcHandler(CourtJournalRpc.fileLink)
  fileLink(@RpcPayload() { id, disposition }: PayloadOf<typeof CourtJournalRpc.fileLink>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<CourtFileGrant> {
    return this.court.fileLink(caller, id, disposition, meta.requestId);
  }

  @Writers('owner')
  @RpcHandler(CourtJournalRpc.bundleLink)
  bundleLink(@CurrentCaller() caller: Caller): CourtFileGrant {
    return this.court.bundleLink(caller);
  }

  @Readers('owner')
  @RpcHandler(CourtJournalRpc.evidenceHead)
  evidenceHead(@CurrentCaller() caller: Caller): Promise<SignedEvidenceHead> {
    return this.court.evidenceHead(caller);
  }

  @Readers('owner')
  @RpcHandler(CourtJournalRpc.evidenceEntries)
  evidenceEntries(@CurrentCaller() caller: Caller): Promise<EvidenceEntrySummary[]> {
    return this.court.evidenceEntries(caller);
  }

  /** The evidence public keys are published for anyone (a court, a lawyer) to verify a bundle. */
  @PublicRpc()
  @RpcHandler(CourtJournalRpc.publicKeys)
  publicKeys(): EvidencePublicKeys {
    return this.court.publicKeys();
  }

  /** The timeline's batch title lookup, with the reader's own token: only the caller's vault's documents answer. */
  @Readers('owner', viewerOf('timeline'))
  @RpcHandler(CourtJournalRpc.titles)
  titles(@RpcPayload() { ids }: PayloadOf<typeof CourtJournalRpc.titles>, @CurrentCaller() caller: Caller): Promise<TitlesReply> {
    return this.court.titles(caller, ids);
  }

  @OperatorOnly()
  @RpcHandler(CourtJournalRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.court.rebuildProjections() };
  }

  /** The operators' erasures:replay: what the erasure journal holds of this service, erased again (idempotent). */
  @OperatorOnly()
  @RpcHandler(CourtJournalRpc.replayErasures)
  replayErasures(): Promise<ErasureReplayReply> {
    return this.erasures.replayNow();
  }
}
