import { Controller, Delete, Get, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CourtJournalRpc, CourtMessages, courtFileLinkBodySchema, defaultCourtVariant, isUuid, listCourtDocumentsQuerySchema, setKeyEvidenceBodySchema, startCourtUploadBodySchema, type CourtDocument, type CourtFileGrant, type CourtFileLink, type CourtUploadTicket, type EvidenceEntrySummary, type EvidencePublicKeys, type SignedEvidenceHead, courtDocumentSchema, courtFileLinkSchema,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { parseBody } from '../http/body.js';
import { baseContentType, signedLinkQuery, type ByteStreamProxy } from '../http/byte-stream-proxy.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors, RouteQuery } from '../http/route.js';
import { CallCtx, callContextOf } from '../http/request-context.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { COURT_BINDING_COOKIE, COURT_BODY_TYPES, COURT_COOKIE_PATH, COURT_JOURNAL_HTTP } from './court.tokens.js';

function documentIdParam(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', CourtMessages.notFound);
  return id.toLowerCase();
}

/**
 * The upload form's fields (startCourtUploadBodySchema), checked at the edge. A card of the Court
 * Journal asks for a title and a file only, and says so in its own words ("Please provide a title and select a file").
 */
function parseStartUpload<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  try {
    return parseBody(schema, body);
  } catch (error) {
    const { category, variant } = body !== null && typeof body === 'object' ? (body as { category?: unknown; variant?: unknown }) : {};
    const journal = variant === 'journal' || (variant === undefined && category !== undefined && defaultCourtVariant(category) === 'journal');
    if (!(error instanceof DomainError) || !journal) throw error;
    const fields = Object.fromEntries(
      Object.entries(error.details.fields ?? {}).map(([field, message]) => [field, message === CourtMessages.missingInformation ? CourtMessages.journalMissing : message]),
    );
    throw validationError(fields);
  }
}

/**
 * Court documents and the Court Journal (/api/court). Commands and queries go to court-journal over
 * NATS with the caller's token (the service decides whose documents these are: another user's, or a
 * missing one, is always a 404); the bytes (upload bodies, previews, downloads, evidence bundles) are
 * piped to and from its HTTP listener, never held here.
 */
@ApiTags('court')
@RouteErrors({
  401: 'No valid access token.',
  503: 'court-journal is unavailable.',
})
@Controller('court')
export class CourtController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(COURT_JOURNAL_HTTP) private readonly court: ByteStreamProxy,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('uploads')
  @ApiBearerAuth()
  @Route({
    body: startCourtUploadBodySchema,
    parse: parseStartUpload,
    reply: CourtJournalRpc.startUpload.reply,
    status: 201,
    description: 'PUT the file to uploadUrl next.',
    errors: {
      400: `VALIDATION_FAILED: "${CourtMessages.missingInformation}" (a Court Journal card: "${CourtMessages.journalMissing}"), "${CourtMessages.fileTooLarge}", a file type not accepted.`,
    },
  })
  async startUpload(@RouteBody() body: z.output<typeof startCourtUploadBodySchema>, @CallCtx() call: CallContext): Promise<CourtUploadTicket> {
    const { title, category, variant, description, fileName, size } = body;
    return this.rpc.call(CourtJournalRpc.startUpload, { title, category, fileName, size, ...(variant ? { variant } : {}), ...(description ? { description } : {}) }, call);
  }

  @Put('uploads/:id')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid', description: 'uploadId of the ticket.' })
  @ApiConsumes(...COURT_BODY_TYPES)
  @Route({
    reply: courtDocumentSchema,
    status: 201,
    description: 'Stored: the file is complete in storage, hashed, and entered in the evidence chain.',
    errors: {
      413: `PAYLOAD_TOO_LARGE: "${CourtMessages.fileTooLarge}" (counted while the body streams).`,
      415: 'UNSUPPORTED_MEDIA: the bytes are not a PDF, Word document, JPEG, PNG (or, in the journal, text), or not the kind the name says.',
      400: 'UPLOAD_INCOMPLETE: the body is not the size the upload announced.',
    },
  })
  async upload(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = callContextOf(request).accessToken;
    if (!token) throw new DomainError('UNAUTHENTICATED');
    // Any other type was read by a body parser already (JSON): there is no stream left to pass on.
    if (!COURT_BODY_TYPES.includes(baseContentType(request.headers['content-type']))) throw new DomainError('UNSUPPORTED_MEDIA', CourtMessages.journalUnsupportedType);
    await this.court.forwardUpload(request, reply, `/uploads/${encodeURIComponent(id)}`, token);
  }

  @Get('documents')
  @ApiBearerAuth()
  @Route({
    query: listCourtDocumentsQuerySchema,
    queryDescriptions: {
      category: 'Only this category (a Court Journal card\'s "View All").',
    },
    reply: CourtJournalRpc.list.reply,
    description: 'Your documents, newest first.',
    errors: {
      400: 'An unknown category.',
    },
  })
  async list(@RouteQuery() query: z.output<typeof listCourtDocumentsQuerySchema>, @CallCtx() call: CallContext): Promise<CourtDocument[]> {
    const { category } = query;
    return this.rpc.call(CourtJournalRpc.list, category ? { category } : {}, call);
  }

  @Patch('documents/:id')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    body: setKeyEvidenceBodySchema,
    reply: CourtJournalRpc.setKeyEvidence.reply,
    description: 'Marked or unmarked as key evidence (an entry of the evidence chain).',
    errors: {
      400: 'VALIDATION_FAILED: is_key_evidence is not true or false.',
      404: `"${CourtMessages.notFound}": no such document of yours.`,
    },
  })
  async setKeyEvidence(@Param('id') id: string, @RouteBody() body: z.output<typeof setKeyEvidenceBodySchema>, @CallCtx() call: CallContext): Promise<CourtDocument> {
    const documentId = documentIdParam(id);
    const { is_key_evidence } = body;
    return this.rpc.call(CourtJournalRpc.setKeyEvidence, { id: documentId, isKeyEvidence: is_key_evidence }, call);
  }

  @Delete('documents/:id')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    status: 204,
    description: 'Deleted: the file is gone; the evidence chain keeps that it existed, with its hash.',
    errors: {
      404: `"${CourtMessages.notFound}": no such document of yours.`,
    },
  })
  async remove(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    await this.rpc.call(CourtJournalRpc.delete, { id: documentIdParam(id) }, call);
  }

  @Post('documents/:id/link')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    body: courtFileLinkBodySchema,
    reply: courtFileLinkSchema,
    description: `A short-lived link to preview (inline) or download (attachment) the file; also sets the httpOnly ${COURT_BINDING_COOKIE} cookie that binds it to you. Recorded as a view in the evidence chain.`,
    errors: {
      404: `"${CourtMessages.notFound}": no such document of yours.`,
    },
  })
  async fileLink(@Param('id') id: string, @RouteBody() body: z.output<typeof courtFileLinkBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<CourtFileLink> {
    const documentId = documentIdParam(id);
    const { disposition } = body;
    return this.bind(reply, await this.rpc.call(CourtJournalRpc.fileLink, { id: documentId, disposition }, call));
  }

  /** Public for the Bearer guard (an <img>, an <iframe> or a new tab sends no Authorization): court-journal checks the signed link and the binding cookie. */
  @Public()
  @Get('files/:id')
  @ApiProduces('application/pdf', 'image/jpeg', 'image/png', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/plain')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiQuery({ name: 'd', required: true, enum: ['inline', 'attachment'], description: 'Part of the signed link: preview or download.' })
  @ApiQuery({ name: 'u', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @Route({
    description: 'The file, with X-Content-Type-Options: nosniff (a download as an attachment).',
    errors: {
      403: `"${CourtMessages.linkInvalid}"`,
      404: `"${CourtMessages.notFound}"`,
    },
  })
  async file(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const search = signedLinkQuery(request.url);
    if (!isUuid(id) || search === null) throw new DomainError('FORBIDDEN', CourtMessages.linkInvalid);
    await this.court.forwardRead(request, reply, `/files/${encodeURIComponent(id)}${search}`, request.cookies?.[COURT_BINDING_COOKIE]);
  }

  @Get('evidence/head')
  @ApiBearerAuth()
  @Route({ reply: CourtJournalRpc.evidenceHead.reply, description: 'The signed head of your evidence chain.' })
  async evidenceHead(@CallCtx() call: CallContext): Promise<SignedEvidenceHead> {
    return this.rpc.call(CourtJournalRpc.evidenceHead, {}, call);
  }

  @Get('evidence/entries')
  @ApiBearerAuth()
  @Route({ reply: CourtJournalRpc.evidenceEntries.reply, description: 'The entries of your evidence chain, oldest first.' })
  async evidenceEntries(@CallCtx() call: CallContext): Promise<EvidenceEntrySummary[]> {
    return this.rpc.call(CourtJournalRpc.evidenceEntries, {}, call);
  }

  @Post('evidence/bundle-link')
  @ApiBearerAuth()
  @Route({
    reply: courtFileLinkSchema,
    description: `A short-lived link to your evidence bundle (ZIP); also sets the ${COURT_BINDING_COOKIE} cookie. Recorded as an export in the evidence chain.`,
  })
  async bundleLink(@CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<CourtFileLink> {
    return this.bind(reply, await this.rpc.call(CourtJournalRpc.bundleLink, {}, call));
  }

  /** Public for the Bearer guard (a download in a new tab): court-journal checks the signed link and the binding cookie. */
  @Public()
  @Get('evidence/bundle')
  @ApiProduces('application/zip')
  @ApiQuery({ name: 'u', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'exp', required: true, description: 'Part of the signed link.' })
  @ApiQuery({ name: 'sig', required: true, description: 'Part of the signed link.' })
  @Route({
    description: 'The evidence bundle: the original files, the manifest, the chain, the signed head and a README on how to verify it.',
    errors: {
      403: `"${CourtMessages.linkInvalid}"`,
    },
  })
  async bundle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const search = signedLinkQuery(request.url);
    if (search === null) throw new DomainError('FORBIDDEN', CourtMessages.linkInvalid);
    await this.court.forwardRead(request, reply, `/evidence/bundle${search}`, request.cookies?.[COURT_BINDING_COOKIE]);
  }

  /** Public on purpose: anyone (a court) checks a bundle's signature with these keys. */
  @Public()
  @Get('evidence/keys')
  @Route({ reply: CourtJournalRpc.publicKeys.reply, description: 'The evidence public keys (Ed25519): the current one and those still honoured.' })
  async evidenceKeys(@CallCtx() call: CallContext): Promise<EvidencePublicKeys> {
    return this.rpc.call(CourtJournalRpc.publicKeys, {}, call);
  }

  private bind(reply: FastifyReply, grant: CourtFileGrant): CourtFileLink {
    reply.setCookie(COURT_BINDING_COOKIE, grant.binding.value, {
      httpOnly: true, sameSite: 'strict', secure: this.config.COOKIE_SECURE, path: COURT_COOKIE_PATH, maxAge: grant.binding.maxAgeSeconds,
    });
    return { url: grant.url, expiresAt: grant.expiresAt };
  }
}
