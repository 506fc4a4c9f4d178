// The API path's own baseline (issue 10): what `GET /api/me` costs when it is served in one process.
// The same code as the real path, minus the hop: the platform's AccessTokenVerifier (RS256 check and
// the Redis revocation look-up, with the services' caches) and identity's own profile read
// (findProfileById on its database), behind a bare Fastify route (identity-work.mjs). Started by
// tools/bench/run.mjs against the bench stack's identity database, Redis and public key:
//
//   node identity-in-process.mjs <port>   env DATABASE_URL, REDIS_URL, JWT_PUBLIC_KEY (PEM or path)
//
// Prints one JSON line { "port": N } on stdout when ready; SIGTERM / SIGINT close it.
import { openProfiles, openVerifier, ready, serveMe } from './identity-work.mjs';

const { verifier, close: closeVerifier } = await openVerifier();
const profiles = await openProfiles();
const server = await serveMe(Number(process.argv[2] ?? 0), async (token) => profiles.read((await verifier.verify(token)).userId));
ready({ port: server.port }, [server.close, profiles.close, closeVerifier]);
