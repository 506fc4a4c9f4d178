import { Buckets, COURT_LINK_SECONDS, IdentityEvents } from '@lv/contracts';
import { loadEvidenceKeyRing } from '@lv/evidence';
import { RevokedSessions, RevokedViewSessions, ViewerTokenVerifier } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { OwnerLinkSigner, ViewerLinks } from '@lv/platform/links';
import { DurableConsumer, ErasureJournal, ErasureJournalKeeper, erasureJournalUrl } from '@lv/platform/event-store';
import { defineService } from '@lv/platform/nest';
import { createObjectStorage } from '@lv/platform/storage';
import { courtJournalConfigSchema } from './config.js';
import { CourtJournalController } from './court-journal.controller.js';
import { CourtJournalService } from './court-journal.service.js';
import { CourtDocumentsRepository } from './documents/court-documents.repository.js';
import { EvidenceChain } from './evidence/evidence-chain.js';
import { previousEvidenceKeys } from './evidence/previous-keys.js';
import { CourtHttpServer } from './http/court-http.server.js';
import { courtJournalMigrations } from './migrations.js';
import { ViewerDocuments } from './viewer/viewer-documents.js';

/** Injection token of the object storage, for specs. */
export const COURT_OBJECT_STORAGE = Symbol('COURT_OBJECT_STORAGE');

/** S3's smallest part: a court file (10 MB at most) never holds more than this in memory while it streams. */
const COURT_PART_SIZE = 5 * 1024 * 1024;

/**
 * court-journal: court documents and the owner's evidence chain. Besides its NATS handlers it runs an
 * HTTP listener for the bytes (uploads in, files and evidence bundles out) and a sweeper (expired
 * tickets, unfinished removals).
 */
export const courtJournalService = defineService({
  name: 'court-journal',
  configSchema: courtJournalConfigSchema,
  migrations: courtJournalMigrations,
  async setup({ config, core, logger, verifier }) {
    const keys = loadEvidenceKeyRing({
      current: await readPem(config.EVIDENCE_SIGNING_KEY),
      previous: await previousEvidenceKeys(config.EVIDENCE_PREVIOUS_KEYS),
    });
    const storage = createObjectStorage(config, { partSize: COURT_PART_SIZE });
    await storage.ensureBucket(Buckets.courtjournals);
    const links = new OwnerLinkSigner({ namespace: 'court', secret: config.COURT_LINK_SECRET, secretName: 'COURT_LINK_SECRET', purposes: ['file', 'bundle', 'view'], ttlSeconds: COURT_LINK_SECONDS });
    const service = new CourtJournalService({
      orm: core.orm,
      storage,
      links,
      evidence: (store) => new EvidenceChain(store, keys),
      revokedSessions: new RevokedSessions(core.redis),
      logger,
      ticketSeconds: config.COURT_UPLOAD_TICKET_SECONDS,
    });
    // A viewer's link is checked with the viewer's token (from the lv_view cookie), verified here, revocations included.
    const viewerTokens = config.VIEWER_JWT_PUBLIC_KEY ? new ViewerTokenVerifier(await readPem(config.VIEWER_JWT_PUBLIC_KEY), new RevokedViewSessions(core.redis)) : undefined;
    const viewerDocuments = new ViewerDocuments({ documents: CourtDocumentsRepository.of(core.orm), storage, links: new ViewerLinks(links, 'view'), tokens: viewerTokens });
    // A request may not outlive its ticket (10 MB needs far less than that, even on a slow line).
    const http = new CourtHttpServer(service, verifier, logger, {
      host: config.COURT_JOURNAL_HTTP_HOST, port: config.COURT_JOURNAL_HTTP_PORT, timeouts: { requestMs: config.COURT_UPLOAD_TICKET_SECONDS * 1000 },
    }, viewerDocuments);
    logger.info({ keyId: keys.keyId }, 'evidence key loaded');
    // Before requests are taken: documents deleted after a restored snapshot are deleted again, objects too.
    const erasures = new ErasureJournalKeeper({
      journal: new ErasureJournal(erasureJournalUrl(config, 'court-journal')), orm: core.orm, service: 'court-journal', sealings: [service.sealing], handlers: service.erasureHandlers, logger,
    });
    // An erased account (identity, after its grace period): every document, upload and the evidence chain
    // of the owner erased, each erasure journaled, the objects removed.
    const accountErasures = new DurableConsumer({
      name: 'court-journal-account-erasures', source: 'identity', events: [IdentityEvents.AccountErased], orm: core.orm, nats: core.nats,
      logger: logger.child({ component: 'account-erasures' }), stackId: process.env.STACK_ID,
      handle: async (_em, { data }) => {
        logger.info({ userId: data.userId, ...await service.eraseOwner(data.userId) }, 'erased the account\'s court documents and evidence chain');
      },
    });
    return {
      controllers: [CourtJournalController],
      providers: [
        { provide: CourtJournalService, useValue: service },
        { provide: CourtHttpServer, useValue: http },
        { provide: ViewerDocuments, useValue: viewerDocuments },
        { provide: COURT_OBJECT_STORAGE, useValue: storage },
        { provide: ErasureJournalKeeper, useValue: erasures },
      ],
      health: {
        court_http: () => {
          if (!http.listening) throw new Error('the byte-stream listener is not listening');
        },
        storage: () => service.pingStorage(1500),
      },
      consumers: [erasures, accountErasures],
      tasks: [{ name: 'court sweeper', everyMs: config.COURT_SWEEP_INTERVAL_SECONDS * 1000, run: () => service.sweep() }],
      listeners: [http],
    };
  },
});
