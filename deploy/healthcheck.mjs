#!/usr/bin/env node
// Container health check of the Legacy Vault image (docker-compose healthchecks, k8s exec probes).
//   node deploy/healthcheck.mjs http <url>        exit 0 when GET <url> answers 2xx within 3 s
//   node deploy/healthcheck.mjs rpc <service>     exit 0 when <service> answers rpc.<service>.health
//                                                 over NATS_URL with status "up" (Nest's NATS wire format),
//                                                 as the container's NATS_USER (NATS_PASSWORD, NATS_TLS_CA)
// Services serve request-reply on NATS in a queue group, so the rpc check says "the service answers",
// from whichever replica takes the request. A pod's own readiness is GET /health/ready on its ops
// listener (OPS_HTTP_PORT): `http http://127.0.0.1:<port>/health/ready` checks that from inside it.
import { randomUUID } from 'node:crypto';

const [mode, target] = process.argv.slice(2);
const fail = (why) => {
  console.error(`unhealthy: ${why}`);
  process.exit(1);
};

if (mode === 'http') {
  try {
    const res = await fetch(target, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) fail(`${target} answered ${res.status}`);
    process.exit(0);
  } catch (err) {
    fail(`${target}: ${err.cause?.code ?? err.message}`);
  }
} else if (mode === 'rpc' && target) {
  const { connect } = await import('@nats-io/transport-node');
  const stack = process.env.STACK_ID ? `${process.env.STACK_ID}.` : '';
  const subject = `${stack}rpc.${target}.health`;
  let nc;
  try {
    // The container's own NATS user, TLS and inbox prefix, as natsConnectionOptions (libs/platform) sets them.
    const { NATS_USER: user, NATS_PASSWORD: pass, NATS_TLS_CA: caFile } = process.env;
    nc = await connect({
      servers: (process.env.NATS_URL ?? 'nats://127.0.0.1:4222').split(','),
      timeout: 2000,
      name: `healthcheck-${target}`,
      ...(user && { user, pass, inboxPrefix: `_INBOX_${user}` }),
      ...(caFile && { tls: { caFile } }),
    });
    const id = randomUUID();
    const packet = { pattern: subject, data: { auth: {}, meta: { requestId: `healthcheck-${id}` }, payload: {} }, id };
    const msg = await nc.request(subject, JSON.stringify(packet), { timeout: 3000 });
    const reply = JSON.parse(new TextDecoder().decode(msg.data));
    if (reply.err) fail(`${target}: ${JSON.stringify(reply.err)}`);
    const status = reply.response?.status;
    if (status !== 'up') fail(`${target} reports ${status ?? 'no status'}: ${JSON.stringify(reply.response?.checks ?? {})}`);
    await nc.close();
    process.exit(0);
  } catch (err) {
    fail(`${target} did not answer ${subject}: ${err.message}`);
  }
} else {
  console.error('usage: node deploy/healthcheck.mjs http <url> | rpc <service>');
  process.exit(2);
}
