import type { ConnectionOptions } from '@nats-io/transport-node';

/**
 * How a process reaches NATS: the URL, and in a deployment its own NATS user (deploy/nats/auth.conf,
 * generated from tools/deploy-check/nats-permissions.ts) and the CA that signed the server's
 * certificate. The development stack sets only NATS_URL and talks to a local server without auth.
 */
export interface NatsSettings {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  /** PEM file of the CA that signed the NATS server's certificate; set, the connection requires TLS. */
  NATS_TLS_CA?: string | undefined;
}

/**
 * The inbox prefix of a NATS user. Replies (RPC answers, JetStream acks and pulled messages) arrive
 * under it, and the permission file lets each user subscribe to its own prefix only, so no service
 * can read the answers meant for another (an access token from sign-in, say).
 */
export function inboxPrefixFor(user: string): string {
  return `_INBOX_${user}`;
}

/**
 * The options of every NATS connection a process opens (Nest's transport and client, the event
 * connection, probes): one place for servers, credentials, TLS and the user's inbox prefix. The
 * connection keeps reconnecting forever: a NATS restart must never end a service.
 */
export function natsConnectionOptions(settings: NatsSettings | string, name: string): ConnectionOptions {
  const s: NatsSettings = typeof settings === 'string' ? { NATS_URL: settings } : settings;
  if (Boolean(s.NATS_USER) !== Boolean(s.NATS_PASSWORD)) {
    throw new Error('NATS_USER and NATS_PASSWORD are set together or not at all');
  }
  return {
    servers: s.NATS_URL.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    ...(s.NATS_USER && { user: s.NATS_USER, pass: s.NATS_PASSWORD, inboxPrefix: inboxPrefixFor(s.NATS_USER) }),
    ...(s.NATS_TLS_CA && { tls: { caFile: s.NATS_TLS_CA } }),
  };
}
