// The machine's floor for a hop (issue 10, phase (a3) of run.mjs): `GET /api/me` split over two
// processes as the real path is (gateway -> NATS -> identity), doing the same work on each side, with
// no framework. Two roles, each a process of its own:
//
//   front  a bare Fastify route that checks the token with the services' AccessTokenVerifier (as the
//          gateway's guard does), then sends the request over NATS with the platform's RpcClient (the
//          gateway's own client: nats.js, the services' packet `{ pattern, data: { auth, meta, payload },
//          id }`, one shared reply subscription; a plain nats.js `request` would cost more, two errors
//          with stack traces per call, and make the floor too easy to reach)
//   back   a plain nats.js subscription in a queue group that checks the token again with its own
//          verifier (RS256 remembered, revocation look-up, as identity's guard), reads the profile with
//          identity's findProfileById and answers `{ response, id }` (or `{ err, id }`, as Nest's transport)
//
//   node identity-hop.mjs front <port>   env REDIS_URL, JWT_PUBLIC_KEY, NATS_URL, STACK_ID
//   node identity-hop.mjs back           env REDIS_URL, JWT_PUBLIC_KEY, NATS_URL, STACK_ID, DATABASE_URL
//
// The subject is the bench's own (`<STACK_ID>.bench.hop.get-me`), not identity's, so the stack's identity
// never answers it. Each prints one JSON line on stdout when ready ({ "port": N } for the front);
// SIGTERM / SIGINT close it.
import { connect } from '@nats-io/transport-node';
import { errorAnswer, load, openProfiles, openVerifier, ready, serveMe } from './identity-work.mjs';

const { RpcClient } = await load('libs/platform/dist/nest/rpc-client.js');
const { scopedSubject } = await load('libs/platform/dist/messaging/subjects.js');

const getMe = { subject: 'bench.hop.get-me' };
const role = process.argv[2];
if (!process.env.NATS_URL) throw new Error('identity-hop needs NATS_URL');
const { verifier, close: closeVerifier } = await openVerifier();

if (role === 'front') {
  const rpc = new RpcClient(process.env.NATS_URL, 5000, 'bench-hop-front');
  await rpc.connect();
  const server = await serveMe(Number(process.argv[3] ?? 0), async (token, request) => {
    await verifier.verify(token);
    return rpc.call(getMe, {}, { accessToken: token, meta: { requestId: request.id } });
  });
  ready({ port: server.port }, [server.close, () => rpc.close(), closeVerifier]);
} else if (role === 'back') {
  const profiles = await openProfiles();
  const nc = await connect({ servers: process.env.NATS_URL.split(','), name: 'bench-hop-back' });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const answer = async (msg) => {
    let id;
    try {
      const packet = JSON.parse(decoder.decode(msg.data));
      id = packet.id;
      const caller = await verifier.verify(packet.data?.auth?.accessToken);
      msg.respond(encoder.encode(JSON.stringify({ response: await profiles.read(caller.userId), id })));
    } catch (error) {
      msg.respond(encoder.encode(JSON.stringify({ err: errorAnswer(error).body, id })));
    }
  };
  // A queue group, as the services' transport subscribes, so the server does the same routing work.
  nc.subscribe(scopedSubject(getMe), { queue: 'bench-hop', callback: (error, msg) => { if (!error) void answer(msg); } });
  await nc.flush();
  ready({ subject: scopedSubject(getMe) }, [() => nc.drain(), profiles.close, closeVerifier]);
} else {
  throw new Error('usage: identity-hop.mjs front <port> | back');
}
