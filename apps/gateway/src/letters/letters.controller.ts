import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  isUuid, LetterMessages, LettersRpc, listLettersQuerySchema, reviseLetterBodySchema, sealLetterBodySchema, writeLetterBodySchema, type Letter, type LetterPage, type ListLettersRequest,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { ErrorBodyDto, LetterDto, LetterPageDto, ReviseLetterDto, SealLetterDto, WriteLetterDto } from '../http/api-models.js';
import { parseBody } from '../http/body.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/** A path id that cannot name a letter is simply not found (never a 400 that tells ids apart). */
function letterIdParam(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
  return id.toLowerCase();
}

/**
 * Letters Unsent (/api/letters). The letters service decides whose letters these are from the
 * verified access token that travels with each call; nothing in a request names an owner, so another
 * user's letter (or a missing one) is always a 404, never the letter.
 */
@ApiTags('letters')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorBodyDto, description: 'No valid access token.' })
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'The letters service is unavailable.' })
@Controller('letters')
export class LettersController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, 1 to 200 (default 100).' })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page.' })
  @ApiOkResponse({ type: LetterPageDto, description: 'The caller’s letters, newest first: title, date, word count and the first 100 characters.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'A bad limit or cursor.' })
  async list(@Query() query: unknown, @CallCtx() call: CallContext): Promise<LetterPage> {
    const { limit, cursor } = parseBody(listLettersQuerySchema, query);
    const payload: ListLettersRequest = {};
    if (limit !== undefined) payload.limit = limit;
    if (cursor !== undefined) payload.cursor = cursor;
    return this.rpc.call(LettersRpc.list, payload, call);
  }

  @Get(':id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: LetterDto })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such letter of the caller’s.' })
  async get(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Letter> {
    return this.rpc.call(LettersRpc.get, { id: letterIdParam(id) }, call);
  }

  @Post()
  @HttpCode(201)
  @ApiBody({ type: WriteLetterDto })
  @ApiCreatedResponse({ type: LetterDto, description: 'Saved (or, for an id already saved with the same words, the letter saved then).' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED: a blank or too long title or body.' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the id is already used by a different letter.' })
  async write(@Body() body: unknown, @CallCtx() call: CallContext): Promise<Letter> {
    const { id, title, content } = parseBody(writeLetterBodySchema, body);
    return this.rpc.call(LettersRpc.write, { id: id ?? randomUUID(), title, content }, call);
  }

  @Put(':id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiBody({ type: ReviseLetterDto })
  @ApiOkResponse({ type: LetterDto })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED: a blank or too long title or body.' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such letter of the caller’s (deleted ones included).' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the letter was changed elsewhere since expectedVersion; nothing was saved.' })
  async revise(@Param('id') id: string, @Body() body: unknown, @CallCtx() call: CallContext): Promise<Letter> {
    const letterId = letterIdParam(id);
    const { title, content, expectedVersion } = parseBody(reviseLetterBodySchema, body);
    return this.rpc.call(LettersRpc.revise, { id: letterId, title, content, expectedVersion }, call);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiNoContentResponse({ description: 'Deleted: the words are destroyed; the fact that the letter existed stays in its history.' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such letter of the caller’s.' })
  async delete(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    await this.rpc.call(LettersRpc.delete, { id: letterIdParam(id) }, call);
  }

  @Put(':id/seal')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiBody({ type: SealLetterDto })
  @ApiOkResponse({ type: LetterDto, description: 'Sealed until the day for the recipient (a new day or recipient replaces the seal): no key holder reads it before that day; on it, only the recipient, with a key e-mailed to them.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED: no day, a day not after today in time_zone, an unknown time zone, no name, a bad e-mail.' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such letter of the caller’s.' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the letter was already released to its recipient.' })
  async seal(@Param('id') id: string, @Body() body: unknown, @CallCtx() call: CallContext): Promise<Letter> {
    const letterId = letterIdParam(id);
    const seal = parseBody(sealLetterBodySchema, body);
    return this.rpc.call(LettersRpc.seal, { id: letterId, ...seal }, call);
  }

  @Delete(':id/seal')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: LetterDto, description: 'The seal is removed before its day: an ordinary letter again (no key is issued for it).' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such letter of the caller’s.' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'CONFLICT: the letter was already released to its recipient.' })
  async unseal(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Letter> {
    return this.rpc.call(LettersRpc.unseal, { id: letterIdParam(id) }, call);
  }
}
