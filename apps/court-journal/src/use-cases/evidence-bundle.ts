import { IsolationLevel } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid, type CourtFileGrant } from '@lv/contracts';
import { writeEvidenceBundle } from '@lv/evidence';
import { ownerOf, type Caller } from '@lv/platform/auth';
import type { ObjectStorage } from '@lv/platform/storage';
import { CourtDocumentsRepository } from '../documents/court-documents.repository.js';
import type { EvidenceChain } from '../evidence/evidence-chain.js';
import { evidenceFacts } from '../evidence/evidence-facts.js';
import { COURT_PATHS, linkInvalid, ownerAction, type ByteResponse } from './court-answers.js';
import { authoriseLink, BUNDLE_LINK, grantLink, type OwnerLinks } from './owner-links.js';

export interface EvidenceBundleDeps {
  orm: MikroORM;
  storage: Pick<ObjectStorage, 'getObject'>;
  evidence: EvidenceChain;
  links: OwnerLinks;
  now: () => number;
}

/** The owner's evidence bundle: a link to it, and the bundle itself streamed for that link. */
export class EvidenceBundle {
  constructor(private readonly deps: EvidenceBundleDeps) {}

  /**
   * A link to the owner's evidence bundle. Issuing it records nothing: the 'exported' entry is
   * appended when the bundle is actually streamed, before it is built, so each bundle carries (and
   * its signed head covers) the entry of its own export, and a link never used exports nothing.
   */
  link(caller: Caller): CourtFileGrant {
    const owner = ownerOf(caller);
    return grantLink(this.deps.links, owner, BUNDLE_LINK, COURT_PATHS.bundle, owner.userId);
  }

  /**
   * Streams the owner's evidence bundle (a ZIP by @lv/evidence: originals, manifest, chain, signed
   * head, README). The 'exported' entry is appended first; then the chain and the documents are read
   * in one REPEATABLE READ snapshot, so the files are exactly the chain's live documents.
   */
  async open(query: Record<string, unknown>, binding: string | undefined, correlationId?: string): Promise<ByteResponse> {
    const ownerId = isUuid(query.u) ? query.u.toLowerCase() : null;
    if (!ownerId) throw linkInvalid();
    await authoriseLink(this.deps.links, BUNDLE_LINK, ownerId, query, binding);
    const { orm, evidence, storage } = this.deps;
    const generatedAt = new Date(this.deps.now()).toISOString();
    await evidence.append(orm, ownerId, evidenceFacts.exported(generatedAt, ownerId), ownerAction(ownerId, correlationId));
    const { chain, rows } = await orm.em.fork().transactional(async (em) => {
      const read = await evidence.read(em, ownerId);
      return { chain: read, rows: await CourtDocumentsRepository.in(em).list(ownerId) };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ });
    const body = writeEvidenceBundle({
      ownerId,
      chain: chain.entries,
      signedHead: chain.head,
      publicKeys: evidence.publicKeys,
      documents: rows.map((row) => ({ documentId: row.id, content: () => storage.getObject(row.bucket, row.object_key) })),
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
}
