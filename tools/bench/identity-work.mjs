// What `GET /api/me` does, for the API path's baselines (issue 10): identity-in-process.mjs (a2) and
// identity-hop.mjs (a3) share it, so the work they are compared on is the same code as the services'.
//
//   env JWT_PUBLIC_KEY (PEM or path), REDIS_URL; DATABASE_URL for the profile read
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { root } from '../dev/stack.mjs';

/** A module of the built platform (libs/platform/dist, which run.mjs builds when stale). */
export const load = (path) => import(pathToFileURL(join(root, path)).href);

const { AccessTokenVerifier, REVOCATION_CACHE_MS, RevokedSessions } = await load('libs/platform/dist/auth/index.js');
const { readPem } = await load('libs/platform/dist/config/index.js');
const { DomainError } = await load('libs/platform/dist/errors/index.js');
const { ErrorCodes } = await import('@lv/contracts');

export { DomainError };

const need = (name) => {
  if (!process.env[name]) throw new Error(`${process.argv[1]} needs ${name}`);
  return process.env[name];
};

/**
 * The token check configured as every service's verifier (runService, the gateway's connections):
 * verified tokens remembered, "not revoked" answers reused for REVOCATION_CACHE_MS and dropped on a
 * revocation announcement. A baseline does the same checks as the path it is compared with, no more.
 */
export async function openVerifier() {
  const redis = new Redis(need('REDIS_URL'), { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await new Promise((resolve, reject) => { redis.once('ready', resolve); redis.once('error', reject); });
  const verifier = new AccessTokenVerifier(await readPem(need('JWT_PUBLIC_KEY')), new RevokedSessions(redis, undefined, { cache: { ttlMs: REVOCATION_CACHE_MS } }));
  return { verifier, close: () => Promise.allSettled([verifier.close(), redis.quit()]) };
}

/**
 * Identity's profile read on its database, restated: the statement and row mapping of its
 * findProfileById (apps/identity/src/users/user-profile.projection.ts), since a tool may not load an
 * app's modules (tools/workspace-check/module-boundaries.spec.ts). NOT_FOUND as identity answers it.
 */
export async function openProfiles() {
  const { createOrm } = await load('libs/platform/dist/database/index.js');
  const orm = await createOrm({ databaseUrl: need('DATABASE_URL'), migrations: [] });
  const findProfileById = async (em, userId) => {
    const [row] = await em.execute('select * from user_profiles where id = ?', [userId]);
    return row ? { ...row, created_at: new Date(row.created_at).toISOString() } : null;
  };
  return {
    async read(userId) {
      const profile = await findProfileById(orm.em.fork(), userId);
      if (!profile) throw new DomainError('NOT_FOUND', 'User not found');
      return profile;
    },
    close: () => orm.close(true),
  };
}

/** The token of an `Authorization: Bearer …` header (undefined when there is none). */
export const bearerToken = (header) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

/** An error as the API answers it: the domain error's code and message, its HTTP status. */
export function errorAnswer(error) {
  const code = error instanceof DomainError ? error.code : 'INTERNAL';
  return { status: ErrorCodes[code]?.status ?? 500, body: { code, message: error.message } };
}

/** Prints the one JSON line run.mjs waits for, then closes everything on SIGTERM / SIGINT. */
export function ready(info, closers) {
  process.stdout.write(`${JSON.stringify(info)}\n`);
  const close = () => void Promise.allSettled(closers.map((c) => c())).then(() => process.exit(0));
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

/** A bare Fastify app on 127.0.0.1:`port` (0: any) serving `GET /api/me` with `handle(token)`; resolves to its port. */
export async function serveMe(port, handle) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/api/me', async (request, reply) => {
    try {
      return await handle(bearerToken(request.headers.authorization), request);
    } catch (error) {
      const { status, body } = errorAnswer(error);
      return reply.status(status).send(body);
    }
  });
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => app.close() };
}
