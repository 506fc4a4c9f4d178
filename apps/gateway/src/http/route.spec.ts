import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { z } from 'zod';
import { letterSchema, writeLetterBodySchema } from '@lv/contracts';
import { apiSchemaRef, NAMED_SCHEMAS, openApiSchema } from './api-schemas.js';
import { Route } from './route.js';

describe('the OpenAPI names of the contracts schemas (api-schemas.ts)', () => {
  it('refers to a named schema by its name, per side', () => {
    expect(apiSchemaRef(letterSchema, 'output')).toEqual({ $ref: '#/components/schemas/LetterDto' });
    expect(apiSchemaRef(writeLetterBodySchema, 'input')).toEqual({ $ref: '#/components/schemas/WriteLetterDto' });
  });

  it('documents an RPC reply that is a list of a named shape as a list of references', () => {
    expect(apiSchemaRef(z.array(letterSchema), 'output')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/LetterDto' } });
  });

  it('refuses an object schema without a name (the generated client would have no type name for it), but inlines a plain value', () => {
    expect(() => apiSchemaRef(z.object({ unnamed: z.string() }), 'output')).toThrow(/add it to NAMED_SCHEMAS/);
    expect(() => apiSchemaRef(letterSchema, 'input')).toThrow(/no input name/);
    expect(apiSchemaRef(z.string(), 'output')).toEqual({ type: 'string' });
  });

  it('gives one name only to schemas whose documents agree', () => {
    const byName = new Map<string, string>();
    for (const [name, schema, io] of NAMED_SCHEMAS) {
      const document = JSON.stringify(openApiSchema(schema, io));
      expect([name, byName.get(name) ?? document]).toEqual([name, document]);
      byName.set(name, document);
    }
  });
});

describe('@Route', () => {
  class Handlers {
    created(): void {}
    read(): void {}
  }

  it('answers with the declared status (200 unless said otherwise)', () => {
    const created = Object.getOwnPropertyDescriptor(Handlers.prototype, 'created')!;
    const read = Object.getOwnPropertyDescriptor(Handlers.prototype, 'read')!;
    Route({ body: writeLetterBodySchema, reply: letterSchema, status: 201 })(Handlers.prototype, 'created', created);
    Route({ reply: letterSchema })(Handlers.prototype, 'read', read);
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, created.value)).toBe(201);
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, read.value)).toBe(200);
  });

  it('refuses a body schema the document cannot name, when the controller is loaded', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Handlers.prototype, 'read')!;
    expect(() => Route({ body: z.object({ unnamed: z.string() }) })(Handlers.prototype, 'read', descriptor)).toThrow(/NAMED_SCHEMAS/);
  });
});
