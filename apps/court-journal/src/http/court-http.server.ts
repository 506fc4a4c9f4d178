import type { FastifyReply, FastifyRequest } from 'fastify';
import { VIEW_TOKEN_HEADER } from '@lv/contracts';
import type { AccessTokenVerifier } from '@lv/platform/auth';
import { announcedLength, bearerUser, ByteStreamListener, streamedBody, type ByteStreamTimeouts } from '@lv/platform/byte-streams';
import type { Logger } from '@lv/platform/logging';
import type { CourtJournalService } from '../court-journal.service.js';
import type { ByteResponse } from '../use-cases/court-answers.js';
import type { ViewerDocuments } from '../viewer/viewer-documents.js';

/** Header the gateway uses to pass the court-journal cookie (the owner binding of file and bundle links). */
export const COURT_BINDING_HEADER = 'x-lv-court-binding';

export interface CourtHttpOptions {
  host: string;
  port: number;
  timeouts?: Partial<ByteStreamTimeouts>;
}

/**
 * court-journal's own HTTP listener (the platform's ByteStreamListener), for byte streams only. The
 * gateway proxies it; this server checks everything again itself: the caller's access token on
 * uploads, the signed link and owner binding on reads.
 *
 *   PUT /uploads/:id                  Authorization: Bearer <token>, raw body -> 201 CourtDocument | ErrorBody (413, 415, 400, 404)
 *   GET /files/:id?d&u&exp&sig        x-lv-court-binding                      -> the file (inline or attachment, nosniff) | 403 | 404
 *   GET /evidence/bundle?u&exp&sig    x-lv-court-binding                      -> application/zip | 403
 *   GET /view/documents/:id?s&exp[&dl]&sig  x-lv-view-token (a viewer's token)   -> the file (inline or attachment) | 403 | 404
 */
export class CourtHttpServer extends ByteStreamListener {
  constructor(private readonly court: CourtJournalService, private readonly verifier: AccessTokenVerifier, logger: Logger, options: CourtHttpOptions, viewers?: ViewerDocuments) {
    super(logger, { name: 'court-journal', ...options });
    if (viewers) {
      this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/view/documents/:id', async (request, reply) => {
        const token = request.headers[VIEW_TOKEN_HEADER];
        await this.send(request, reply, await viewers.open(request.params.id, request.query ?? {}, typeof token === 'string' ? token : undefined));
      });
    }
    this.app.put<{ Params: { id: string } }>('/uploads/:id', (request, reply) => this.upload(request, reply));
    this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/files/:id', async (request, reply) => {
      await this.send(request, reply, await this.court.openFile(request.params.id, request.query ?? {}, this.binding(request)));
    });
    this.app.get<{ Querystring: Record<string, string> }>('/evidence/bundle', async (request, reply) => {
      await this.send(request, reply, await this.court.openBundle(request.query ?? {}, this.binding(request), String(request.id)));
    });
  }

  private binding(request: FastifyRequest): string | undefined {
    const value = request.headers[COURT_BINDING_HEADER];
    return typeof value === 'string' ? value : undefined;
  }

  private async upload(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<void> {
    const caller = await bearerUser(this.verifier, request);
    const document = await this.court.receiveUpload(caller, request.params.id, streamedBody(request), {
      contentLength: announcedLength(request),
      correlationId: String(request.id),
    });
    request.log.info({ documentId: document.id, size: document.size, userId: caller.userId }, 'court document stored');
    await reply.status(201).header('cache-control', 'no-store').send(document);
  }

  private async send(request: FastifyRequest, reply: FastifyReply, response: ByteResponse): Promise<void> {
    response.body.on('error', (err) => request.log.warn({ err }, 'byte stream failed mid-way'));
    await reply.status(200).headers(response.headers).send(response.body);
  }
}
