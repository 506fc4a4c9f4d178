import { randomUUID } from 'node:crypto';
import { Controller, Delete, Get, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  isUuid, LetterMessages, LettersRpc, listLettersQuerySchema, reviseLetterBodySchema, sealLetterBodySchema, writeLetterBodySchema, type Letter, type LetterPage, type ListLettersRequest,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors, RouteQuery } from '../http/route.js';
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
@RouteErrors({
  401: 'No valid access token.',
  503: 'The letters service is unavailable.',
})
@Controller('letters')
export class LettersController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({
    query: listLettersQuerySchema,
    queryDescriptions: {
      limit: 'Page size, 1 to 200 (default 100).',
      cursor: 'nextCursor of the previous page.',
    },
    reply: LettersRpc.list.reply,
    description: 'The caller’s letters, newest first: title, date, word count and the first 100 characters.',
    errors: {
      400: 'A bad limit or cursor.',
    },
  })
  async list(@RouteQuery() query: z.output<typeof listLettersQuerySchema>, @CallCtx() call: CallContext): Promise<LetterPage> {
    const { limit, cursor } = query;
    const payload: ListLettersRequest = {};
    if (limit !== undefined) payload.limit = limit;
    if (cursor !== undefined) payload.cursor = cursor;
    return this.rpc.call(LettersRpc.list, payload, call);
  }

  @Get(':id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: LettersRpc.get.reply,
    errors: {
      404: 'No such letter of the caller’s.',
    },
  })
  async get(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Letter> {
    return this.rpc.call(LettersRpc.get, { id: letterIdParam(id) }, call);
  }

  @Post()
  @Route({
    body: writeLetterBodySchema,
    reply: LettersRpc.write.reply,
    status: 201,
    description: 'Saved (or, for an id already saved with the same words, the letter saved then).',
    errors: {
      400: 'VALIDATION_FAILED: a blank or too long title or body.',
      409: 'CONFLICT: the id is already used by a different letter.',
    },
  })
  async write(@RouteBody() body: z.output<typeof writeLetterBodySchema>, @CallCtx() call: CallContext): Promise<Letter> {
    const { id, title, content } = body;
    return this.rpc.call(LettersRpc.write, { id: id ?? randomUUID(), title, content }, call);
  }

  @Put(':id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    body: reviseLetterBodySchema,
    reply: LettersRpc.revise.reply,
    errors: {
      400: 'VALIDATION_FAILED: a blank or too long title or body.',
      404: 'No such letter of the caller’s (deleted ones included).',
      409: 'CONFLICT: the letter was changed elsewhere since expectedVersion; nothing was saved.',
    },
  })
  async revise(@Param('id') id: string, @RouteBody() body: z.output<typeof reviseLetterBodySchema>, @CallCtx() call: CallContext): Promise<Letter> {
    const letterId = letterIdParam(id);
    const { title, content, expectedVersion } = body;
    return this.rpc.call(LettersRpc.revise, { id: letterId, title, content, expectedVersion }, call);
  }

  @Delete(':id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    status: 204,
    description: 'Deleted: the words are destroyed; the fact that the letter existed stays in its history.',
    errors: {
      404: 'No such letter of the caller’s.',
    },
  })
  async delete(@Param('id') id: string, @CallCtx() call: CallContext): Promise<void> {
    await this.rpc.call(LettersRpc.delete, { id: letterIdParam(id) }, call);
  }

  @Put(':id/seal')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    body: sealLetterBodySchema,
    reply: LettersRpc.seal.reply,
    description: 'Sealed until the day for the recipient (a new day or recipient replaces the seal): no key holder reads it before that day; on it, only the recipient, with a key e-mailed to them.',
    errors: {
      400: 'VALIDATION_FAILED: no day, a day not after today in time_zone, an unknown time zone, no name, a bad e-mail.',
      404: 'No such letter of the caller’s.',
      409: 'CONFLICT: the letter was already released to its recipient.',
    },
  })
  async seal(@Param('id') id: string, @RouteBody() seal: z.output<typeof sealLetterBodySchema>, @CallCtx() call: CallContext): Promise<Letter> {
    const letterId = letterIdParam(id);
    return this.rpc.call(LettersRpc.seal, { id: letterId, ...seal }, call);
  }

  @Delete(':id/seal')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: LettersRpc.unseal.reply,
    description: 'The seal is removed before its day: an ordinary letter again (no key is issued for it).',
    errors: {
      404: 'No such letter of the caller’s.',
      409: 'CONFLICT: the letter was already released to its recipient.',
    },
  })
  async unseal(@Param('id') id: string, @CallCtx() call: CallContext): Promise<Letter> {
    return this.rpc.call(LettersRpc.unseal, { id: letterIdParam(id) }, call);
  }
}
