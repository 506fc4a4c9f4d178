// `npm run openapi`: writes the gateway's OpenAPI document to apps/gateway/openapi.json (committed;
// src/openapi.spec.ts fails when the file and the code disagree).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateOpenApiDocument, OPENAPI_FILE, openApiFileText } from './openapi.js';

const target = join(process.cwd(), OPENAPI_FILE);
await writeFile(target, openApiFileText(await generateOpenApiDocument()));
console.log(`wrote ${OPENAPI_FILE}`);
