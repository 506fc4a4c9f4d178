import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendErrorResponse } from '../http/error-response.js';
import { isApiPath, prerenderedPageFile, resolveSpaFile } from './spa-files.js';

/** Vite's hashed build output: a file's name changes with its content, so it can be cached for good. */
const HASHED_ASSETS = '/assets/';

function sendIndex(reply: FastifyReply, file = 'index.html'): FastifyReply {
  // Always revalidated: a new deploy's index.html (and so its new asset names) is picked up at once.
  return reply.header('cache-control', 'no-cache').sendFile(file, { cacheControl: false });
}

/**
 * Serves the built SPA: files as they are or precompressed (hashed /assets/* immutable for a year, others revalidated),
 * a public page prerendered at build time for exactly its address (/, /auth, /pricing...: its text
 * paints before any JS has run, then the app hydrates it; no-cache like index.html), and every other GET
 * outside /api falls back to index.html so deep links (/vault, /auth?from=/letters) load the app, whose
 * router takes over. Paths under /api are handed to the API's JSON 404; a missing hashed asset is a 404
 * too (sending HTML for a stale script would only break the page later).
 *
 * Registered in its own encapsulated scope, so `reply.sendFile` stays private to it and other plugins
 * (the queue dashboard) can register @fastify/static themselves.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const root = resolve(webDistDir);
  await app.register(async (scope) => {
    // This scope is created before Nest installs its error handler on the root, so it names its own.
    scope.setErrorHandler((error, request, reply) => sendErrorResponse(reply, request.log, error));
    // The build writes .br and .gz beside each text file (tools/build/compress.mjs): a browser that
    // accepts them gets those bytes, with Content-Encoding and Vary, and nothing is compressed per request.
    await scope.register(fastifyStatic, { root, serve: false, preCompressed: true });
    scope.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?', 1)[0] ?? '/';
      if (isApiPath(path)) return reply.callNotFound();
      const prerendered = prerenderedPageFile(request.url);
      if (prerendered && (await resolveSpaFile(root, `/${prerendered}`))) return sendIndex(reply, prerendered);
      const file = await resolveSpaFile(root, path);
      if (file === 'index.html') return sendIndex(reply);
      if (file) {
        return path.startsWith(HASHED_ASSETS)
          ? // Never revalidated (the name changes with the content), so no validators or ranges either.
            reply.sendFile(file, { maxAge: '365d', immutable: true, etag: false, lastModified: false, acceptRanges: false })
          : reply.sendFile(file, { maxAge: 0 });
      }
      if (path.startsWith(HASHED_ASSETS)) return reply.callNotFound();
      return sendIndex(reply);
    });
  });
}
