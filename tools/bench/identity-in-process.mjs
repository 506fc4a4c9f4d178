// The API path's own baseline (issue 10): what `GET /api/me` costs when it is served in one process.
// The same code as the real path, minus the hop: the platform's AccessTokenVerifier (RS256 check and
// the Redis revocation look-up, with the services' caches) and identity's own profile read
// (findProfileById on its database), behind a bare Fastify route. Started by tools/bench/run.mjs against the bench stack's identity
// database, Redis and public key:
//
//   node identity-in-process.mjs <port>   env DATABASE_URL, REDIS_URL, JWT_PUBLIC_KEY (PEM or path)
//
// Prints one JSON line { "port": N } on stdout when ready; SIGTERM / SIGINT close it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { root } from '../dev/stack.mjs';

const load = (path) => import(pathToFileURL(join(root, path)).href);
const { AccessTokenVerifier, REVOCATION_CACHE_MS, RevokedSessions } = await load('libs/platform/dist/auth/index.js');
const { readPem } = await load('libs/platform/dist/config/index.js');
const { createOrm } = await load('libs/platform/dist/database/index.js');
const { DomainError } = await load('libs/platform/dist/errors/index.js');
const { findProfileById } = await load('apps/identity/dist/users/user-profile.projection.js');
const { ErrorCodes } = await import('@lv/contracts');

for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_PUBLIC_KEY']) if (!process.env[name]) throw new Error(`identity-in-process needs ${name}`);
const orm = await createOrm({ databaseUrl: process.env.DATABASE_URL, migrations: [] });
const redis = new Redis(process.env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
await new Promise((resolve, reject) => { redis.once('ready', resolve); redis.once('error', reject); });
// Configured as every service's verifier (runService): verified tokens remembered, "not revoked"
// answers reused for REVOCATION_CACHE_MS and dropped on a revocation announcement. The baseline does
// the same checks as the path it is compared with, no more.
const verifier = new AccessTokenVerifier(await readPem(process.env.JWT_PUBLIC_KEY), new RevokedSessions(redis, undefined, { cache: { ttlMs: REVOCATION_CACHE_MS } }));

const app = Fastify({ logger: false });
app.get('/api/me', async (request, reply) => {
  try {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const caller = await verifier.verify(token);
    const profile = await findProfileById(orm.em.fork(), caller.userId);
    if (!profile) throw new DomainError('NOT_FOUND', 'User not found');
    return profile;
  } catch (error) {
    const code = error instanceof DomainError ? error.code : 'INTERNAL';
    return reply.status(ErrorCodes[code]?.status ?? 500).send({ code, message: error.message });
  }
});

await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);

const close = () => void Promise.allSettled([app.close(), orm.close(true), verifier.close(), redis.quit()]).then(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
