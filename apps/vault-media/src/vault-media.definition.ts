import { AccessKeysRpc, IdentityEvents, MEDIA_BUCKET, MUSIC_BUCKET, Queues } from '@lv/contracts';
import { RevokedSessions, RevokedViewSessions, ViewerTokenVerifier } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { DurableConsumer, ErasureJournal, ErasureJournalKeeper, erasureJournalUrl } from '@lv/platform/event-store';
import { defineService, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection } from '@lv/platform/queues';
import { createObjectStorage } from '@lv/platform/storage';
import { vaultMediaConfigSchema } from './config.js';
import { createHashEnqueuer } from './hashing/hash-enqueuer.js';
import { MediaHttpServer } from './http/media-http.server.js';
import { MediaService } from './media.service.js';
import { vaultMediaMigrations } from './migrations.js';
import { MusicLibrary } from './music/music-library.js';
import { MusicController } from './music/music.controller.js';
import { MediaLinkSigner } from './playback/media-links.js';
import { ViewerPlayback } from './playback/viewer-playback.js';
import { PgRecordings } from './recordings/recordings.repository.js';
import { createTranscodeEnqueuer } from './transcoding/transcode-enqueuer.js';
import { VaultMediaController } from './vault-media.controller.js';

/** Injection tokens of what specs reach beside the service: the object storage and the hashing and transcoding queues. */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');
export const MEDIA_HASHING_QUEUE = Symbol('MEDIA_HASHING_QUEUE');
export const MEDIA_TRANSCODING_QUEUE = Symbol('MEDIA_TRANSCODING_QUEUE');

/**
 * vault-media: video and audio messages. Besides its NATS handlers it runs an HTTP listener for the
 * bytes (uploads in, Range reads out), consumers (hashing and transcoding jobs from its own saved recordings) and a
 * sweeper for uploads whose process died.
 */
export const vaultMediaService = defineService({
  name: 'vault-media',
  configSchema: vaultMediaConfigSchema,
  migrations: vaultMediaMigrations,
  async setup({ config, core, logger, verifier }) {
    const storage = createObjectStorage(config, { partSize: config.MEDIA_PART_SIZE_MB * 1024 * 1024 });
    await storage.ensureBuckets([MEDIA_BUCKET, MUSIC_BUCKET]);
    const queueConnection = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'vault-media' });
    queueConnection.on('error', (error: Error) => logger.warn({ err: error }, 'queue connection error'));
    const hashingQueue = createQueue(Queues.MediaHashing, queueConnection);
    hashingQueue.on('error', (error: Error) => logger.debug({ err: error }, 'media-hashing queue error'));
    const transcodingQueue = createQueue(Queues.MediaTranscoding, queueConnection);
    transcodingQueue.on('error', (error: Error) => logger.debug({ err: error }, 'media-transcoding queue error'));
    // Viewer links: the byte listener verifies the viewer's token itself (revocations included), and
    // asks access-keys, with that token, whether final messages are open.
    const viewerTokens = config.VIEWER_JWT_PUBLIC_KEY ? new ViewerTokenVerifier(await readPem(config.VIEWER_JWT_PUBLIC_KEY), new RevokedViewSessions(core.redis)) : undefined;
    const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'vault-media');
    const closeClients = async () => {
      await hashingQueue.close().catch(() => undefined);
      await transcodingQueue.close().catch(() => undefined);
      queueConnection.disconnect();
      await rpc.close().catch(() => undefined);
    };

    const signer = new MediaLinkSigner(config.MEDIA_LINK_SECRET);
    const revokedSessions = new RevokedSessions(core.redis);
    const service = new MediaService({
      orm: core.orm,
      storage,
      signer,
      revokedSessions,
      logger,
      maxUploadBytes: config.MEDIA_MAX_UPLOAD_BYTES,
      uploadStaleSeconds: config.MEDIA_UPLOAD_STALE_SECONDS,
      resumableStaleSeconds: config.MEDIA_RESUMABLE_STALE_HOURS * 3600,
    });
    const music = new MusicLibrary({ orm: core.orm, storage, signer, revokedSessions, logger, uploadStaleSeconds: config.MEDIA_UPLOAD_STALE_SECONDS });
    const viewerPlayback = new ViewerPlayback({
      recordings: new PgRecordings(core.orm), storage, links: signer.viewer, posterLinks: signer.viewerPoster, tokens: viewerTokens,
      finalMessagesOpen: async (accessToken, requestId) => (await rpc.call(AccessKeysRpc.finalAccess, {}, { accessToken, meta: { requestId } })).open,
    });
    const http = new MediaHttpServer(service, verifier, logger, { host: config.MEDIA_HTTP_HOST, port: config.MEDIA_HTTP_PORT }, music, viewerPlayback);
    const stackId = process.env.STACK_ID;
    // Before requests are taken: recordings deleted after a restored snapshot are deleted again, objects too.
    const erasures = new ErasureJournalKeeper({
      journal: new ErasureJournal(erasureJournalUrl(config, 'vault-media')), orm: core.orm, service: 'vault-media', sealings: [service.sealing], handlers: service.erasureHandlers, logger,
    });
    // An erased account (identity, after its grace period): every recording of the owner deleted as one
    // by one (journaled), its objects removed. The music library is the operator's, nobody's own: kept.
    const accountErasures = new DurableConsumer({
      name: 'vault-media-account-erasures', source: 'identity', events: [IdentityEvents.AccountErased], orm: core.orm, nats: core.nats,
      logger: logger.child({ component: 'account-erasures' }), stackId,
      handle: async (_em, { data }) => {
        logger.info({ userId: data.userId, recordings: await service.eraseOwner(data.userId) }, 'erased the account\'s recordings');
      },
    });
    return {
      controllers: [VaultMediaController, MusicController],
      providers: [
        { provide: MediaService, useValue: service },
        { provide: MusicLibrary, useValue: music },
        { provide: ViewerPlayback, useValue: viewerPlayback },
        { provide: MediaHttpServer, useValue: http },
        { provide: OBJECT_STORAGE, useValue: storage },
        { provide: MEDIA_HASHING_QUEUE, useValue: hashingQueue },
        { provide: MEDIA_TRANSCODING_QUEUE, useValue: transcodingQueue },
        { provide: ErasureJournalKeeper, useValue: erasures },
      ],
      health: {
        media_http: () => {
          if (!http.listening) throw new Error('the byte-stream listener is not listening');
        },
        // The gateway holds no storage keys: it learns about object storage from this check.
        storage: () => service.pingStorage(1500),
      },
      consumers: [
        erasures,
        accountErasures,
        createHashEnqueuer({ orm: core.orm, nats: core.nats, logger, queue: hashingQueue, reportToken: (id) => service.reportTokenFor(id), stackId }),
        createTranscodeEnqueuer({ orm: core.orm, nats: core.nats, logger, queue: transcodingQueue, reportToken: (id) => signer.transcodeToken(id), stackId }),
      ],
      tasks: [
        { name: 'upload sweeper', everyMs: config.MEDIA_SWEEP_INTERVAL_SECONDS * 1000, run: () => service.sweep() },
        { name: 'music upload sweeper', everyMs: config.MEDIA_SWEEP_INTERVAL_SECONDS * 1000, run: () => music.sweep() },
      ],
      listeners: [http],
      close: closeClients,
    };
  },
});
