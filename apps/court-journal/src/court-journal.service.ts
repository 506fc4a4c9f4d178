import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  Buckets, COURT_FILE_KINDS, CourtJournalRpc, COURT_FILE_MAX_BYTES, courtKindForName, courtVariantOf, CourtMessages, isCourtCategory, isUuid, validateCourtUpload,
  type CourtCategory, type CourtDocument, type CourtFileGrant, type CourtUploadTicket, type DeleteCourtDocumentReply, type EvidenceEntrySummary,
  type EvidencePublicKeys, type PayloadOf, type SignedEvidenceHead, type TitlesReply, type VaultStatsContribution,
} from '@lv/contracts';
import { safeFileName, writeEvidenceBundle, type EvidenceFacts } from '@lv/evidence';
import { ownerOf, readsSection, requireSection, vaultOwnerId, type Caller, type RevokedSessions, type UserCaller } from '@lv/platform/auth';
import { StreamInspector } from '@lv/platform/byte-streams';
import { DomainError, validationError } from '@lv/platform/errors';
import { EventStore, handleCommand, PerStreamSealing, rebuildProjections, type EventMetadata, type RebuildReport, type StoredEvent } from '@lv/platform/event-store';
import { OwnerLinkSigner } from '@lv/platform/links';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import { CourtDocumentKeys, courtDocumentSealing } from './documents/court-document-sealing.js';
import { COURT_DOCUMENT_STREAM_TYPE, courtDocumentDecider, courtDocumentStreamId, type CourtDocumentCommand } from './documents/court-document.decider.js';
import {
  courtActiveDays, courtDocumentsProjection, findCourtDocument, findCourtDocumentTitles, listCourtDocuments, toCourtDocument, toViewerCourtDocument, type CourtDocumentRow,
} from './documents/court-documents.projection.js';
import { openDocumentFile } from './documents/document-file.js';
import { courtJournalPublishPolicy } from './documents/publish-policy.js';
import type { EvidenceChain } from './evidence/evidence-chain.js';
import { CourtUploads } from './uploads/court-uploads.repository.js';
import { checkCourtHead, TextStreamCheck } from './uploads/kind-sniffer.js';

/** Where the gateway serves what this service's HTTP listener answers (same-origin paths for the SPA). */
export const COURT_PATHS = { uploads: '/api/court/uploads', files: '/api/court/files', bundle: '/api/court/evidence/bundle' } as const;
/** The signed link purposes (one sub-key each: a file link never opens a bundle). */
const FILE_LINK = 'file';
const BUNDLE_LINK = 'bundle';
/** A removal the request itself is doing is left to it for this long before the sweeper retries it. */
const REMOVAL_GRACE_SECONDS = 30;

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

/** What a file or bundle read answers: headers and the bytes. */
export interface ByteResponse {
  headers: Record<string, string>;
  body: Readable;
}

const notFound = () => new DomainError('NOT_FOUND', CourtMessages.notFound);
const linkInvalid = () => new DomainError('FORBIDDEN', CourtMessages.linkInvalid);

/** A malformed id names no document: not found, like any id that is not the caller's. */
function documentId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/**
 * court-journal's use cases. Transport-free: the NATS controller, the HTTP listener for bytes and the
 * tests call these directly. Every read and write is scoped to the verified caller; someone else's
 * document is "not found", never "forbidden", so ids reveal nothing.
 */
export class CourtJournalService {
  /** Document streams (their words sealed per document) and evidence chains. */
  readonly store = new EventStore({
    publish: courtJournalPublishPolicy,
    inlineProjections: [courtDocumentsProjection],
    sealing: new PerStreamSealing([courtDocumentSealing(new CourtDocumentKeys())]),
  });
  readonly bucket: string;
  readonly evidence: EvidenceChain;
  private readonly uploads = new CourtUploads();
  private readonly now: () => number;

  constructor(private readonly deps: CourtJournalServiceDeps) {
    this.bucket = deps.bucket ?? Buckets.courtjournals;
    this.now = deps.now ?? Date.now;
    this.evidence = deps.evidence(this.store);
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  private get em(): EntityManager {
    return this.deps.orm.em.fork();
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  pingStorage(timeoutMs: number): Promise<void> {
    return this.deps.storage.ping(timeoutMs);
  }

  // --- Uploads ---------------------------------------------------------------------------------

  /** Checks the form (the spec's words) and opens a ticket for the bytes, bound to the owner, expiring. */
  async startUpload(caller: Caller, request: PayloadOf<typeof CourtJournalRpc.startUpload>): Promise<CourtUploadTicket> {
    const owner = ownerOf(caller);
    const { title, description, errors } = validateCourtUpload(request);
    if (errors) throw validationError(errors, Object.values(errors)[0]);
    if (!Number.isSafeInteger(request.size)) throw validationError({ file: CourtMessages.missingInformation }, CourtMessages.missingInformation);
    const category = request.category as CourtCategory;
    const uploadId = randomUUID();
    await this.uploads.open(this.em, {
      id: uploadId, ownerId: owner.userId, title, description: description || null, category, fileName: request.fileName.trim(), declaredSize: request.size, ttlSeconds: this.deps.ticketSeconds,
    });
    return { uploadId, uploadUrl: `${COURT_PATHS.uploads}/${uploadId}`, maxBytes: COURT_FILE_MAX_BYTES };
  }

  /**
   * Streams an upload's body into object storage: the kind judged from the first bytes before storage
   * is touched, the 10 MB limit counted as bytes arrive, a text file checked to its last byte, SHA-256
   * computed on the way, memory flat (parts of the storage's part size). Only when the object is
   * complete are CourtDocumentUploaded and the chain's 'uploaded' entry appended (one transaction).
   * Whatever goes wrong, the ticket is used up and the object (or its parts) removed: no object, no event.
   */
  async receiveUpload(caller: UserCaller, rawId: string, body: AsyncIterable<Uint8Array | string>, options: { contentLength?: number; correlationId?: string } = {}): Promise<CourtDocument> {
    const id = documentId(rawId);
    const owner = caller.userId;
    const ticket = await this.em.transactional((em) => this.uploads.claim(em, id, owner, (row) => `${owner}/${id}/${safeFileName(row.file_name)}`));
    if (!ticket) throw notFound();
    const objectKey = ticket.object_key!;
    let multipartUploadId: string | null = null;
    const metadata: EventMetadata = { actor: { kind: 'user', id: owner }, correlationId: options.correlationId };
    try {
      if (options.contentLength !== undefined && options.contentLength > COURT_FILE_MAX_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE', CourtMessages.fileTooLarge);
      const category = ticket.category;
      const variant = courtVariantOf(category);
      const kind = courtKindForName(ticket.file_name, variant);
      if (!kind) throw new DomainError('UNSUPPORTED_MEDIA', CourtMessages.unsupportedType);
      const declaredSize = Number(ticket.declared_size);
      const incomplete = () => new DomainError('UPLOAD_INCOMPLETE', CourtMessages.uploadIncomplete);
      const text = kind === 'txt' ? new TextStreamCheck() : null;
      const inspector = new StreamInspector(
        { maxBytes: COURT_FILE_MAX_BYTES, declaredSize, tooLarge: () => new DomainError('PAYLOAD_TOO_LARGE', CourtMessages.fileTooLarge), overDeclared: incomplete },
        {
          head: (head, ended) => checkCourtHead(head, ended, kind, variant),
          chunk: text ? (chunk) => text.chunk(chunk) : undefined,
          end: (bytes) => {
            text?.end();
            if (bytes < declaredSize) throw incomplete();
          },
        },
      );
      await this.deps.storage.upload(this.bucket, objectKey, inspector.pipe(body), {
        contentType: COURT_FILE_KINDS[kind].contentType,
        metadata: { owner, document: id },
        onMultipartStarted: async (multipartId) => {
          multipartUploadId = multipartId;
          await this.uploads.recordMultipartUpload(this.em, id, multipartId);
        },
      });
      const sha256 = inspector.digest();
      const uploadedAt = this.iso();
      await this.execute(id, {
        type: 'RecordUpload', documentId: id, ownerId: owner, title: ticket.title, description: ticket.description, category, variant, fileName: ticket.file_name,
        fileKind: kind, contentType: COURT_FILE_KINDS[kind].contentType, bucket: this.bucket, objectKey, size: inspector.bytes, sha256, uploadedAt,
      }, metadata, async (em) => {
        // A ticket the sweeper took for dead (its object is queued for removal) must not become a document.
        if (!(await this.uploads.close(em, id))) throw incomplete();
        await this.evidence.appendIn(em, owner, this.facts('uploaded', uploadedAt, owner, {
          documentId: id, title: ticket.title, category, fileName: ticket.file_name, sha256, size: inspector.bytes,
        }), metadata);
      });
    } catch (err) {
      await this.discard(id, objectKey, multipartUploadId, err).catch((e: unknown) => this.deps.logger.error({ err: e, documentId: id }, 'could not clean up a failed upload; the sweeper will'));
      throw err;
    }
    const row = await findCourtDocument(this.em, owner, id);
    if (!row) throw new Error(`court document ${id} stored but not in the read model`);
    return toCourtDocument(row);
  }

  /** A failed upload: its ticket is used up and its object (or parts) queued for removal, then removed. */
  private async discard(id: string, objectKey: string, multipartUploadId: string | null, reason: unknown): Promise<void> {
    const why = reason instanceof DomainError ? `${reason.code}: ${reason.message}` : `upload failed: ${(reason as Error)?.message ?? String(reason)}`;
    await this.em.transactional(async (em) => {
      await this.uploads.close(em, id);
      await this.uploads.queueRemoval(em, { bucket: this.bucket, objectKey, multipartUploadId, reason: why });
    });
    await this.removeObject(this.bucket, objectKey, multipartUploadId);
  }

  private async removeObject(bucket: string, objectKey: string, multipartUploadId: string | null): Promise<void> {
    if (multipartUploadId) await this.deps.storage.abortMultipartUpload(bucket, objectKey, multipartUploadId);
    await this.deps.storage.removeObject(bucket, objectKey);
    await this.uploads.removalDone(this.em, objectKey);
  }

  /** Expired tickets go; removals nobody finished are retried. */
  async sweep(): Promise<{ expired: number; removed: number }> {
    const expired = await this.uploads.expire(this.em, this.bucket, this.deps.ticketSeconds);
    let removed = 0;
    for (const row of await this.uploads.pendingRemovals(this.em, REMOVAL_GRACE_SECONDS)) {
      try {
        await this.removeObject(row.bucket, row.object_key, row.multipart_upload_id);
        removed++;
      } catch (err) {
        this.deps.logger.warn({ err, key: row.object_key }, 'sweeper: could not remove an object; will retry');
      }
    }
    return { expired, removed };
  }

  // --- Documents -------------------------------------------------------------------------------

  /** The vault's documents, newest first; a viewer (court-journal scope) sees its owner's. */
  async list(caller: Caller, category?: string): Promise<CourtDocument[]> {
    // The service's own check behind @Readers: a viewer reads documents only with a key that opens the Court Journal.
    requireSection(caller, 'court-journal');
    if (category !== undefined && !isCourtCategory(category)) throw validationError({ category: CourtMessages.categoryRequired }, CourtMessages.categoryRequired);
    const rows = await listCourtDocuments(this.em, vaultOwnerId(caller), category);
    return rows.map(caller.kind === 'viewer' ? toViewerCourtDocument : toCourtDocument);
  }

  private async ownDocument(caller: Caller, rawId: string): Promise<CourtDocumentRow> {
    const row = await findCourtDocument(this.em, ownerOf(caller).userId, documentId(rawId));
    if (!row) throw notFound();
    return row;
  }

  async setKeyEvidence(caller: Caller, rawId: string, isKeyEvidence: boolean, correlationId?: string): Promise<CourtDocument> {
    const row = await this.ownDocument(caller, rawId);
    const owner = ownerOf(caller).userId;
    const at = this.iso();
    const metadata: EventMetadata = { actor: { kind: 'user', id: owner }, correlationId };
    await this.execute(row.id, { type: 'SetKeyEvidence', documentId: row.id, ownerId: owner, isKeyEvidence, now: at }, metadata, async (em) => {
      await this.evidence.appendIn(em, owner, this.facts(isKeyEvidence ? 'key-evidence-marked' : 'key-evidence-unmarked', at, owner, { documentId: row.id, sha256: row.sha256 }), metadata);
    });
    return toCourtDocument((await findCourtDocument(this.em, owner, row.id))!);
  }

  /**
   * Deletes a document: the document goes from the list, its words are shredded (its key destroyed),
   * its object is removed (queued in the same transaction, so a failed removal is retried), and the
   * chain keeps a 'deleted' entry with its hash.
   */
  async delete(caller: Caller, rawId: string, correlationId?: string): Promise<DeleteCourtDocumentReply> {
    const row = await this.ownDocument(caller, rawId);
    const owner = ownerOf(caller).userId;
    const at = this.iso();
    const metadata: EventMetadata = { actor: { kind: 'user', id: owner }, correlationId };
    await this.execute(row.id, { type: 'DeleteDocument', documentId: row.id, ownerId: owner, now: at }, metadata, async (em) => {
      await this.uploads.queueRemoval(em, { bucket: row.bucket, objectKey: row.object_key, reason: 'document deleted' });
      await this.evidence.appendIn(em, owner, this.facts('deleted', at, owner, { documentId: row.id, sha256: row.sha256, size: Number(row.size) }), metadata);
    });
    await this.removeObject(row.bucket, row.object_key, null).catch((err: unknown) => this.deps.logger.warn({ err, documentId: row.id }, 'object removal failed after delete; the sweeper will retry'));
    return { id: row.id, deleted: true };
  }

  async stats(caller: Caller): Promise<VaultStatsContribution> {
    return { activeDays: await courtActiveDays(this.em, ownerOf(caller).userId) };
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
    return { titles: await findCourtDocumentTitles(this.em, vaultOwnerId(caller), wanted, caller.kind === 'viewer' ? 'file_name' : 'title') };
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  // --- Links and bytes out -----------------------------------------------------------------------

  /**
   * A short-lived link to one of the owner's files (inline for a preview, attachment for a download)
   * and the binding that ties it to them. Asking for it is a view: the chain records it now (the
   * owner asked to see the file; a link is useless to anyone else).
   */
  async fileLink(caller: Caller, rawId: string, disposition: 'inline' | 'attachment', correlationId?: string): Promise<CourtFileGrant> {
    const row = await this.ownDocument(caller, rawId);
    const owner = ownerOf(caller);
    await this.evidence.append(this.deps.orm, owner.userId, this.facts('viewed', this.iso(), owner.userId, { documentId: row.id, sha256: row.sha256 }), { actor: { kind: 'user', id: owner.userId }, correlationId }, async (em) => {
      if (!(await findCourtDocument(em, owner.userId, row.id))) throw notFound();
    });
    const link = this.deps.links.signLink(FILE_LINK, `${COURT_PATHS.files}/${row.id}`, owner.userId, row.id, { d: disposition });
    return { ...link, binding: this.deps.links.signBinding(owner.userId, owner.sessionId) };
  }

  /**
   * A link to the owner's evidence bundle. Issuing it records nothing: the 'exported' entry is
   * appended when the bundle is actually streamed, before it is built, so each bundle carries (and
   * its signed head covers) the entry of its own export, and a link never used exports nothing.
   */
  bundleLink(caller: Caller): CourtFileGrant {
    const owner = ownerOf(caller);
    const link = this.deps.links.signLink(BUNDLE_LINK, COURT_PATHS.bundle, owner.userId, owner.userId);
    return { ...link, binding: this.deps.links.signBinding(owner.userId, owner.sessionId) };
  }

  private async authorise(purpose: string, resourceId: string, query: Record<string, unknown>, binding: string | undefined, extra: string[] = []) {
    const grant = this.deps.links.authorise(purpose, resourceId, query, binding, extra);
    if (typeof grant === 'string') throw linkInvalid();
    if (this.deps.revokedSessions && (await this.deps.revokedSessions.isRevoked(grant.sessionId))) throw linkInvalid();
    return grant;
  }

  /** Serves a signed file link: 403 for an expired, altered or foreign link, 404 when the document is gone. */
  async openFile(rawId: string, query: Record<string, unknown>, binding: string | undefined): Promise<ByteResponse> {
    if (!isUuid(rawId)) throw linkInvalid();
    const grant = await this.authorise(FILE_LINK, rawId, query, binding, ['d']);
    const disposition = grant.extra.d;
    if (disposition !== 'inline' && disposition !== 'attachment') throw linkInvalid();
    const row = await findCourtDocument(this.em, grant.userId, rawId.toLowerCase());
    if (!row) throw notFound();
    return openDocumentFile(this.deps.storage, row, disposition);
  }

  /**
   * Streams the owner's evidence bundle (a ZIP by @lv/evidence: originals, manifest, chain, signed
   * head, README). The 'exported' entry is appended first; then the chain and the documents are read
   * in one REPEATABLE READ snapshot, so the files are exactly the chain's live documents.
   */
  async openBundle(query: Record<string, unknown>, binding: string | undefined, correlationId?: string): Promise<ByteResponse> {
    const ownerId = isUuid(query.u) ? query.u.toLowerCase() : null;
    if (!ownerId) throw linkInvalid();
    await this.authorise(BUNDLE_LINK, ownerId, query, binding);
    const generatedAt = this.iso();
    await this.evidence.append(this.deps.orm, ownerId, this.facts('exported', generatedAt, ownerId, {}), { actor: { kind: 'user', id: ownerId }, correlationId });
    const { chain, rows } = await this.deps.orm.em.fork().transactional(async (em) => {
      const read = await this.evidence.read(em, ownerId);
      return { chain: read, rows: await listCourtDocuments(em, ownerId) };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ });
    const body = writeEvidenceBundle({
      ownerId,
      chain: chain.entries,
      signedHead: chain.head,
      publicKeys: this.publicKeys(),
      documents: rows.map((row) => ({ documentId: row.id, content: () => this.deps.storage.getObject(row.bucket, row.object_key) })),
      generatedAt,
    });
    return {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="legacy-vault-evidence-${generatedAt.slice(0, 10)}.zip"`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      },
      body,
    };
  }

  // --- Evidence --------------------------------------------------------------------------------

  evidenceHead(caller: Caller): Promise<SignedEvidenceHead> {
    return this.evidence.head(this.em, ownerOf(caller).userId);
  }

  evidenceEntries(caller: Caller): Promise<EvidenceEntrySummary[]> {
    return this.evidence.summaries(this.em, ownerOf(caller).userId);
  }

  publicKeys(): EvidencePublicKeys {
    return this.evidence.publicKeys;
  }

  /** An entry's facts: nulls for what the action does not name (only an upload names the words). */
  private facts(action: EvidenceFacts['action'], at: string, ownerId: string, named: Partial<Omit<EvidenceFacts, 'action' | 'at' | 'actor'>>): EvidenceFacts {
    return { action, documentId: null, title: null, category: null, fileName: null, sha256: null, size: null, ...named, at, actor: { role: 'owner', id: ownerId } };
  }

  private execute(id: string, command: CourtDocumentCommand, metadata: EventMetadata, alsoInTransaction?: (em: EntityManager, events: StoredEvent[]) => Promise<void>) {
    return handleCommand(this.deps.orm.em, this.store, courtDocumentDecider, command, { streamId: courtDocumentStreamId(id), streamType: COURT_DOCUMENT_STREAM_TYPE, metadata, alsoInTransaction });
  }
}
