import 'reflect-metadata';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import { z } from 'zod';
import { replyType, rpc, type RpcRequest } from '@lv/contracts';
import { DomainError } from '../errors/index.js';
import { RpcHandler, rpcDeclarationOf, validatedPayload } from './rpc-handler.js';

const save = rpc('rpc.test.save', {
  payload: z.object({ title: z.string({ error: 'A title is required.' }).min(1, 'A title is required.'), count: z.number().int().default(1) }),
  reply: replyType<{ saved: boolean }>(),
});
const message = (payload: unknown): RpcRequest => ({ auth: {}, meta: { requestId: 'spec' }, payload });

function fieldsOf(payload: unknown): Record<string, string> | undefined {
  try {
    validatedPayload(save, message(payload));
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.code).toBe('VALIDATION_FAILED');
    return error.details.fields;
  }
}

describe('RpcHandler and its payload validation', () => {
  it('answers the declared subject, scoped to the stack, and remembers the declaration', () => {
    const previous = process.env.STACK_ID;
    process.env.STACK_ID = 'spec-stack';
    try {
      class Controller {
        @RpcHandler(save)
        handle(): { saved: boolean } {
          return { saved: true };
        }
      }
      const handler = Controller.prototype.handle;
      expect(Reflect.getMetadata(PATTERN_METADATA, handler)).toEqual(['spec-stack.rpc.test.save']);
      expect(rpcDeclarationOf(handler)).toBe(save);
      expect(rpcDeclarationOf(() => undefined)).toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.STACK_ID;
      else process.env.STACK_ID = previous;
    }
  });

  it('hands the handler the parsed payload, defaults applied and unknown fields dropped', () => {
    expect(validatedPayload(save, message({ title: 'Hello', ownerId: 'someone-else' }))).toEqual({ title: 'Hello', count: 1 });
  });

  it('refuses a bad payload with VALIDATION_FAILED and the schema’s message per field', () => {
    expect(fieldsOf({ title: '', count: 1.5 })).toEqual({ title: 'A title is required.', count: expect.any(String) });
    expect(fieldsOf({})).toEqual({ title: 'A title is required.' });
    // A message without a payload is read as an empty one: the caller still learns what is required.
    expect(fieldsOf(undefined)).toEqual({ title: 'A title is required.' });
    expect(fieldsOf('title=x')).toEqual({ payload: expect.any(String) });
  });

  it('parses a message once, however many parameters ask for it', () => {
    const received = message({ title: 'Once' });
    expect(validatedPayload(save, received)).toBe(validatedPayload(save, received));
  });
});
