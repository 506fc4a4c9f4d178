import type { FastifyReply, FastifyRequest } from 'fastify';
import { VIEW_TOKEN_HEADER } from '@lv/contracts';
import type { AccessTokenVerifier } from '@lv/platform/auth';
import { announcedLength, bearerCaller, bearerUser, BYTE_STREAM_TIMEOUTS, ByteStreamListener, streamedBody, type ByteStreamTimeouts } from '@lv/platform/byte-streams';
import type { Logger } from '@lv/platform/logging';
import type { MediaService, PlaybackResponse } from '../media.service.js';
import type { MusicLibrary } from '../music/music-library.js';
import type { ViewerPlayback } from '../playback/viewer-playback.js';
import { recordingTusServer, TUS_PATH } from './tus-uploads.js';

/** Header the gateway uses to pass the lv_media cookie (the owner binding of playback links). */
export const MEDIA_BINDING_HEADER = 'x-lv-media-binding';

export type MediaHttpTimeouts = ByteStreamTimeouts;
export const MEDIA_HTTP_TIMEOUTS: MediaHttpTimeouts = BYTE_STREAM_TIMEOUTS;

export interface MediaHttpOptions {
  host: string;
  port: number;
  /** Defaults to MEDIA_HTTP_TIMEOUTS. */
  timeouts?: Partial<MediaHttpTimeouts>;
}

/**
 * vault-media's own HTTP listener (the platform's ByteStreamListener), for byte streams only: the
 * body of an upload comes in, Range reads of a recording go out. The gateway proxies both; this
 * server checks everything again itself: the caller's access token on uploads, the signed link and
 * owner binding on reads.
 *
 *   PUT  /uploads/:id     Authorization: Bearer <token>, raw webm body  -> 201 Recording | ErrorBody
 *   HEAD|PATCH|DELETE /tus/:id   Authorization: Bearer <token>, the tus protocol (resumable; tus-uploads.ts)
 *                        -> 204 Upload-Offset | 200 Recording (the PATCH that completes it) | ErrorBody
 *   GET  /media/:id?u&exp&sig   x-lv-media-binding, Range               -> 200 | 206 | 416 | ErrorBody
 *   PUT  /music-uploads/:id      Authorization: Bearer <operator token>, the audio file -> 201 MusicTrack | ErrorBody
 *   GET  /music/:id?u&exp&sig    x-lv-media-binding, Range               -> 200 | 206 | 416 | ErrorBody
 *   GET  /view/media/:id?s&exp[&dl]&sig  x-lv-view-token (the viewer's token, from the lv_view cookie), Range -> 200 | 206 | 416 | 403 | 404
 */
/** The body reaches the tus server in pieces of this size: each piece costs a turn in four stream stages. */
const TUS_PIECE_BYTES = 1024 * 1024;

/**
 * The request as the tus server takes it (a web Request). The body is handed over in pieces of
 * TUS_PIECE_BYTES (Node reads 64 KiB at a time), up to one part of them buffered: the adapter tus
 * would use otherwise (Readable.toWeb, chunk by chunk) moves a byte stream at half the speed of the PUT.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const raw = request.raw;
  const body = request.method !== 'PATCH' ? null : new ReadableStream<Uint8Array>({
    start(controller) {
      let piece = Buffer.allocUnsafe(TUS_PIECE_BYTES);
      let filled = 0;
      const pass = () => {
        controller.enqueue(new Uint8Array(piece.buffer, piece.byteOffset, filled));
        piece = Buffer.allocUnsafe(TUS_PIECE_BYTES);
        filled = 0;
      };
      raw.on('data', (chunk: Buffer) => {
        for (let from = 0; from < chunk.length; ) {
          const copied = chunk.copy(piece, filled, from, Math.min(chunk.length, from + TUS_PIECE_BYTES - filled));
          filled += copied;
          from += copied;
          if (filled === TUS_PIECE_BYTES) pass();
        }
        if ((controller.desiredSize ?? 0) <= 0) raw.pause();
      });
      raw.once('end', () => {
        if (filled) pass();
        controller.close();
      });
      raw.once('error', (err) => controller.error(err));
      raw.once('close', () => {
        if (!raw.readableEnded) controller.error(new Error('the client went away'));
      });
    },
    pull() {
      raw.resume();
    },
    cancel() {
      raw.destroy();
    },
  }, { highWaterMark: 8 * 1024 * 1024, size: (chunk) => chunk.byteLength });
  return new Request(`http://vault-media${request.url}`, { method: request.method, headers, body, duplex: 'half' } as RequestInit);
}

export class MediaHttpServer extends ByteStreamListener {
  constructor(
    private readonly media: MediaService, private readonly verifier: AccessTokenVerifier, logger: Logger, options: MediaHttpOptions, private readonly music?: MusicLibrary,
    private readonly viewers?: ViewerPlayback,
  ) {
    super(logger, { name: 'media', ...options });
    if (viewers) this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/view/media/:id', (request, reply) => this.playForViewer(viewers, request, reply));
    this.app.put<{ Params: { id: string } }>('/uploads/:id', (request, reply) => this.upload(request, reply));
    const tus = recordingTusServer(media.resumable, logger);
    this.app.route<{ Params: { id: string } }>({
      method: ['HEAD', 'PATCH', 'DELETE'], url: `${TUS_PATH}/:id`,
      handler: async (request, reply) => {
        const caller = await bearerUser(this.verifier, request);
        reply.hijack();
        const answer = await tus.handle(caller, String(request.id), (server) => server.handleWeb(webRequestOf(request)));
        reply.raw.writeHead(answer.status, Object.fromEntries(answer.headers));
        reply.raw.end(request.method === 'HEAD' ? undefined : Buffer.from(await answer.arrayBuffer()));
      },
    });
    this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/media/:id', (request, reply) => this.play(request, reply));
    if (music) {
      this.app.put<{ Params: { id: string } }>('/music-uploads/:id', (request, reply) => this.uploadTrack(music, request, reply));
      this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/music/:id', (request, reply) => this.playTrack(music, request, reply));
    }
  }

  /** music:add's bytes: an operator's token only (the CLI's), the body streamed to the music library. */
  private async uploadTrack(music: MusicLibrary, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<void> {
    const caller = await bearerCaller(this.verifier, request);
    const track = await music.receiveUpload(caller, request.params.id, streamedBody(request), announcedLength(request));
    request.log.info({ trackId: track.id, fileName: track.fileName }, 'music track added');
    await reply.status(201).header('cache-control', 'no-store').send(track);
  }

  private async playTrack(music: MusicLibrary, request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>, reply: FastifyReply): Promise<void> {
    const binding = request.headers[MEDIA_BINDING_HEADER];
    const range = request.headers.range;
    await this.send(request, reply, await music.openPlayback(request.params.id, request.query ?? {}, typeof binding === 'string' ? binding : undefined, typeof range === 'string' ? range : undefined, request.method === 'HEAD'));
  }

  private async playForViewer(viewers: ViewerPlayback, request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>, reply: FastifyReply): Promise<void> {
    const token = request.headers[VIEW_TOKEN_HEADER];
    const range = request.headers.range;
    await this.send(request, reply, await viewers.open(
      request.params.id, request.query ?? {}, typeof token === 'string' ? token : undefined, typeof range === 'string' ? range : undefined, request.method === 'HEAD', String(request.id),
    ));
  }

  private async upload(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<void> {
    const caller = await bearerUser(this.verifier, request);
    const recording = await this.media.receiveUpload(caller, request.params.id, streamedBody(request), {
      contentLength: announcedLength(request),
      correlationId: String(request.id),
    });
    request.log.info({ recordingId: recording.id, size: recording.size, userId: caller.userId }, 'recording saved');
    await reply.status(201).header('cache-control', 'no-store').send(recording);
  }

  private async play(request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>, reply: FastifyReply): Promise<void> {
    const binding = request.headers[MEDIA_BINDING_HEADER];
    const range = request.headers.range;
    await this.send(request, reply, await this.media.openPlayback(request.params.id, request.query ?? {}, typeof binding === 'string' ? binding : undefined, typeof range === 'string' ? range : undefined, request.method === 'HEAD'));
  }

  private async send(request: FastifyRequest, reply: FastifyReply, result: PlaybackResponse): Promise<void> {
    reply.status(result.status).headers(result.headers);
    if (!result.body) {
      await reply.send();
      return;
    }
    result.body.on('error', (err) => request.log.warn({ err }, 'object stream failed mid-way'));
    await reply.send(result.body);
  }
}
