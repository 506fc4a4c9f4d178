// Compresses the built SPA once, at build time: next to every text file of apps/web/dist worth it, a
// .br (brotli, quality 11) and a .gz (gzip, level 9). The gateway serves them to browsers that accept
// them (@fastify/static preCompressed), so no CPU is spent compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.webmanifest', '.xml', '.ico']);
/** Smaller files gain less than the header costs: they are served as they are. */
const MIN_BYTES = 1024;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes .br and .gz beside each compressible file of `dir`; returns what was written. */
export function compressDirectory(dir) {
  const written = [];
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path)) || statSync(path).size < MIN_BYTES) continue;
    const body = readFileSync(path);
    const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    const gz = gzipSync(body, { level: 9 });
    // A compressed copy that is not smaller would only cost the browser a decode.
    if (br.length < body.length) writeFileSync(`${path}.br`, br);
    if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
    written.push({ path, bytes: body.length, br: br.length, gz: gz.length });
  }
  return written;
}
