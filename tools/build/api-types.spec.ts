import { readFileSync } from 'node:fs';
import { API_TYPES_FILE, apiTypesText, OPENAPI_DOCUMENT } from './api-types.mjs';

describe("the SPA's API types (apps/web/src/api/openapi.gen.ts)", () => {
  it('are what apps/gateway/openapi.json generates (when not: run `npm run openapi` and commit both files)', async () => {
    const generated = await apiTypesText(readFileSync(OPENAPI_DOCUMENT, 'utf8'));
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    if (committed !== generated) {
      const line = committed.split('\n').findIndex((text, i) => text !== generated.split('\n')[i]);
      throw new Error(`apps/web/src/api/openapi.gen.ts is out of date (first difference at line ${line + 1}): run \`npm run openapi\` and commit it.`);
    }
  });
});
