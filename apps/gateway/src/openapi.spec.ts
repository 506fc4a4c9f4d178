import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bridgeEsmOnlyDependencies } from '../test/support/esm-bridge.js';

const committedPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi.json');

/** The first JSON path where two documents differ, so the failure says what changed. */
function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) === !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return path;
}

describe('the committed OpenAPI document (apps/gateway/openapi.json)', () => {
  let generated: Record<string, any>;
  let generatedText: string;

  beforeAll(async () => {
    await bridgeEsmOnlyDependencies();
    const { generateOpenApiDocument, openApiFileText } = await import('./openapi.js');
    const document = await generateOpenApiDocument();
    generatedText = openApiFileText(document);
    generated = JSON.parse(generatedText) as Record<string, any>;
  });

  it('is what the code generates (when not: run `npm run openapi` and commit the file)', () => {
    const committedText = readFileSync(committedPath, 'utf8');
    if (committedText !== generatedText) {
      const where = firstDifference(JSON.parse(committedText), generated) ?? 'formatting';
      throw new Error(`apps/gateway/openapi.json is out of date (first difference at ${where}): run \`npm run openapi\` and commit the file.`);
    }
  });

  it('takes bodies and replies from the contracts schemas, with their rules and the spec texts’ limits', () => {
    const schemas = generated.components.schemas;
    expect(schemas.LetterDto.required).toEqual(expect.arrayContaining(['id', 'title', 'content', 'version']));
    expect(schemas.LetterDto.properties.title.maxLength).toBe(200);
    expect(schemas.LetterPageDto.properties.letters.items.required).not.toContain('content');
    expect(schemas.CredentialsDto.properties.password.minLength).toBe(6);
    expect(schemas.StartUploadDto.properties.type.enum).toEqual(['video', 'audio', 'image']);
    expect(schemas.ErrorBodyDto.properties.code.enum).toContain('VALIDATION_FAILED');
    // No name stands for an empty shape: every component has its fields, or is a choice of shapes that have theirs (sign-in: a session or a two-step challenge).
    const hasFields = (schema: Record<string, any>): boolean =>
      Object.keys(schema.properties ?? {}).length > 0 || (Array.isArray(schema.anyOf) && schema.anyOf.length > 0 && schema.anyOf.every(hasFields));
    for (const [name, schema] of Object.entries<Record<string, any>>(schemas)) {
      expect([name, hasFields(schema)]).toEqual([name, true]);
    }
  });

  it('says which routes need no token: an empty security list on public ones, even inside a bearer controller', () => {
    const security = (method: string, path: string): unknown => generated.paths[path][method].security;
    expect(security('post', '/api/if-im-not-there/check-in')).toEqual([]);
    expect(security('post', '/api/access/requests')).toEqual([]);
    expect(security('get', '/api/health')).toEqual([]);
    expect(security('get', '/api/letters')).toEqual([{ bearer: [] }]);
    // Past the guard but checking a credential of their own: their requirement stays documented.
    expect(security('post', '/api/auth/refresh')).toEqual([{ 'refresh-cookie': [] }]);
    expect(security('post', '/api/auth/session')).toEqual([{ 'refresh-cookie': [] }]);
    expect(security('get', '/api/me/export')).toEqual([{ bearer: [] }]);
    expect(generatedText).not.toContain('x-lv-public');
  });

  it('documents every route the gateway answers', () => {
    const routes = Object.entries<Record<string, unknown>>(generated.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(routes).toEqual(expect.arrayContaining(['POST /api/auth/sign-in', 'GET /api/letters', 'PUT /api/letters/{id}', 'POST /api/media/uploads', 'GET /api/timeline', 'PUT /api/vault/reflection',
      'POST /api/access/requests', 'POST /api/access/keys', 'POST /api/view/redeem', 'POST /api/view/key-status', 'GET /api/view/entries/{section}']));
  });
});
