// The one manifest of Legacy Vault's backend processes. `npm start`, the e2e stack of `npm test`
// (tools/dev/stack.mjs) and the deploy consistency check (tools/deploy-check/) all read it, so
// adding a process is one entry here (plus its compose service and k8s manifests, which the
// consistency check then demands).
//
// Each entry:
//   name      process name: the compose service, the k8s Deployment and the log prefix
//   kind      'service' (NATS-facing, owns data, reported by the gateway's /api/health),
//             'worker' (BullMQ processors, not reported) or 'gateway' (HTTP: SPA + /api)
//   entry     the compiled entry point, run as `node <entry>`
//   database  suffix of its PostgreSQL database (`<dbPrefix><database>`, e.g. lv_identity) or null;
//             with a database, `node <entry> migrate` must create it if missing, migrate it and exit 0
//   config    where its zod schema lives (the consistency check checks env against it)
//   env(ctx)  its environment in the dev/e2e stack, built from what the stack started (see below)
//
// To add the other services later, copy the identity entry and change the name, e.g.
//   { name: 'vault-media', kind: 'service', entry: 'apps/vault-media/dist/main.js', database: 'vault_media',
//     config: { module: 'apps/vault-media/src/config.ts', schema: 'vaultMediaConfigSchema' },
//     env: (ctx) => ({ ...commonEnv(ctx), ...databaseEnv(ctx, 'vault_media'), ...s3Env(ctx) }) },
// for billing the same (notifications also gets smtpEnv(ctx));
// the BullMQ process is { name: 'worker', kind: 'worker', entry: 'apps/worker/dist/main.js', database: null, ... }.
// Services must come before the gateway (start order; the gateway is stopped first).
//
// ctx (built by tools/dev/stack.mjs):
//   natsUrl, redisUrl, stackId, logLevel, nodeEnv,
//   databaseUrl(suffix)                  postgres://postgres@127.0.0.1:5432/<dbPrefix><suffix>
//   jwt: { publicKey, privateKey }       PEM text (apps accept a PEM or a path: readPem())
//   viewerJwt: { publicKey, privateKey } the viewer tokens' own pair (access-keys signs, every process verifies)
//   evidenceKey: { publicKey, privateKey } court-journal's Ed25519 evidence key (PEM text)
//   s3: { endpoint, region, accessKey, secretKey }
//   smtp: { host, port }
//   http: { host, port }                 where the gateway listens
//   webDistDir                           absolute path of apps/web/dist
//   healthServices                       names of every kind 'service' entry

import { createHash } from 'node:crypto';

/** Variables every backend process gets (commonConfigSchema), plus STACK_ID. */
export function commonEnv(ctx) {
  return {
    NODE_ENV: ctx.nodeEnv,
    LOG_LEVEL: ctx.logLevel,
    NATS_URL: ctx.natsUrl,
    REDIS_URL: ctx.redisUrl,
    JWT_PUBLIC_KEY: ctx.jwt.publicKey,
    ...(ctx.viewerJwt && { VIEWER_JWT_PUBLIC_KEY: ctx.viewerJwt.publicKey }),
    // Not part of any schema: the messaging code prefixes subjects, streams and durable consumers
    // with it, so a test stack never shares JetStream state with the developer's stack.
    STACK_ID: ctx.stackId,
  };
}

export const databaseEnv = (ctx, suffix) => ({ DATABASE_URL: ctx.databaseUrl(suffix) });

export const s3Env = (ctx) => ({
  S3_ENDPOINT: ctx.s3.endpoint,
  S3_REGION: ctx.s3.region,
  S3_ACCESS_KEY: ctx.s3.accessKey,
  S3_SECRET_KEY: ctx.s3.secretKey,
});

/**
 * vault-media's internal listener for byte streams (upload bodies, Range reads), which the gateway
 * proxies to: a free port the stack picked (ctx.internalPorts), else the gateway's port + 1.
 */
export const mediaHttp = (ctx) => ({ host: '127.0.0.1', port: ctx.internalPorts?.['vault-media'] ?? ctx.http.port + 1 });

/** court-journal's internal listener for byte streams (document uploads, files, evidence bundles), the same way. */
export const courtHttp = (ctx) => ({ host: '127.0.0.1', port: ctx.internalPorts?.['court-journal'] ?? ctx.http.port + 2 });

/** A secret of the dev stack derived from its private key (stable across restarts, never committed). */
export const devSecret = (ctx, purpose) => createHash('sha256').update(`legacy-vault-dev/${purpose}/`).update(ctx.jwt.privateKey).digest('hex');

/** Where notifications sends mail: the dev stack's SMTP catcher. */
// The catcher offers no usable TLS (smtp-server's bundled certificate has expired).
export const smtpEnv = (ctx) => ({ SMTP_HOST: ctx.smtp.host, SMTP_PORT: String(ctx.smtp.port), SMTP_IGNORE_TLS: 'true' });

export const services = [
  {
    name: 'identity',
    kind: 'service',
    entry: 'apps/identity/dist/main.js',
    database: 'identity',
    config: { module: 'apps/identity/src/config.ts', schema: 'identityConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'identity'),
      JWT_PRIVATE_KEY: ctx.jwt.privateKey,
      KEY_MAIL_SECRET: devSecret(ctx, 'key-mail'),
      // Passkeys are bound to the host and origin the browser opens; browsers take no IP address as a
      // passkey's site, so a stack on 127.0.0.1 offers them on localhost (same port).
      PUBLIC_URL: `http://${ctx.http.host === '127.0.0.1' ? 'localhost' : ctx.http.host}:${ctx.http.port}`,
      // Test and bench stacks (a STACK_ID of their own) sign up hundreds of users from 127.0.0.1.
      ...(ctx.stackId ? { SIGNUP_MAX_PER_ADDRESS: '100000' } : {}),
    }),
  },
  {
    name: 'letters',
    kind: 'service',
    entry: 'apps/letters/dist/main.js',
    database: 'letters',
    config: { module: 'apps/letters/src/config.ts', schema: 'lettersConfigSchema' },
    env: (ctx) => ({ ...commonEnv(ctx), ...databaseEnv(ctx, 'letters') }),
  },
  {
    name: 'vault-media',
    kind: 'service',
    entry: 'apps/vault-media/dist/main.js',
    database: 'vault_media',
    config: { module: 'apps/vault-media/src/config.ts', schema: 'vaultMediaConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'vault_media'),
      ...s3Env(ctx),
      MEDIA_HTTP_HOST: mediaHttp(ctx).host,
      MEDIA_HTTP_PORT: String(mediaHttp(ctx).port),
      MEDIA_LINK_SECRET: devSecret(ctx, 'media-links'),
    }),
  },
  {
    // Court documents and the Court Journal, with the owner's signed evidence chain.
    name: 'court-journal',
    kind: 'service',
    entry: 'apps/court-journal/dist/main.js',
    database: 'court_journal',
    config: { module: 'apps/court-journal/src/config.ts', schema: 'courtJournalConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'court_journal'),
      ...s3Env(ctx),
      COURT_JOURNAL_HTTP_HOST: courtHttp(ctx).host,
      COURT_JOURNAL_HTTP_PORT: String(courtHttp(ctx).port),
      COURT_LINK_SECRET: devSecret(ctx, 'court-links'),
      EVIDENCE_SIGNING_KEY: ctx.evidenceKey.privateKey,
    }),
  },
  {
    // Family access: requests, keys (hashes only), view sessions and their consent; mints viewer tokens.
    name: 'access-keys',
    kind: 'service',
    entry: 'apps/access-keys/dist/main.js',
    database: 'access_keys',
    config: { module: 'apps/access-keys/src/config.ts', schema: 'accessKeysConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'access_keys'),
      VIEWER_JWT_PRIVATE_KEY: ctx.viewerJwt.privateKey,
      KEY_MAIL_SECRET: devSecret(ctx, 'key-mail'),
    }),
  },
  {
    // Key e-mails: a BullMQ worker on key-emails, sending over SMTP at most once per key.
    name: 'notifications',
    kind: 'service',
    entry: 'apps/notifications/dist/main.js',
    database: 'notifications',
    config: { module: 'apps/notifications/src/config.ts', schema: 'notificationsConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'notifications'),
      ...smtpEnv(ctx),
      KEY_MAIL_SECRET: devSecret(ctx, 'key-mail'),
      PUBLIC_URL: `http://${ctx.http.host}:${ctx.http.port}`,
    }),
  },
  {
    // The vault timeline: a read model of every service's published events (its own process and
    // database; see README, "Why the timeline is its own service").
    name: 'timeline',
    kind: 'service',
    entry: 'apps/timeline/dist/main.js',
    database: 'timeline',
    config: { module: 'apps/timeline/src/config.ts', schema: 'timelineConfigSchema' },
    env: (ctx) => ({ ...commonEnv(ctx), ...databaseEnv(ctx, 'timeline') }),
  },
  {
    // Plans and subscriptions: the local payment provider (no Stripe keys in dev and tests), whose
    // signed webhooks go to the gateway's public webhook route like Stripe's would.
    name: 'billing',
    kind: 'service',
    entry: 'apps/billing/dist/main.js',
    database: 'billing',
    config: { module: 'apps/billing/src/config.ts', schema: 'billingConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      ...databaseEnv(ctx, 'billing'),
      PUBLIC_URL: `http://${ctx.http.host}:${ctx.http.port}`,
      LOCAL_WEBHOOK_SECRET: devSecret(ctx, 'billing-webhooks'),
    }),
  },
  {
    name: 'worker',
    kind: 'worker',
    entry: 'apps/worker/dist/main.js',
    database: null,
    config: { module: 'apps/worker/src/config.ts', schema: 'workerConfigSchema' },
    env: (ctx) => ({ ...commonEnv(ctx), ...s3Env(ctx) }),
  },
  {
    name: 'gateway',
    kind: 'gateway',
    entry: 'apps/gateway/dist/main.js',
    database: null,
    config: { module: 'apps/gateway/src/config.ts', schema: 'gatewayConfigSchema' },
    env: (ctx) => ({
      ...commonEnv(ctx),
      HOST: ctx.http.host,
      PORT: String(ctx.http.port),
      WEB_DIST_DIR: ctx.webDistDir,
      COOKIE_SECURE: 'false',
      HEALTH_SERVICES: ctx.healthServices.join(','),
      VAULT_MEDIA_URL: `http://${mediaHttp(ctx).host}:${mediaHttp(ctx).port}`,
      COURT_JOURNAL_URL: `http://${courtHttp(ctx).host}:${courtHttp(ctx).port}`,
      DEVICE_COOKIE_SECRET: devSecret(ctx, 'device-cookies'),
      // Test stacks send X-Forwarded-For from 127.0.0.1 to stand for many client addresses
      // (per-address limits of redemption and the request form); a developer's stack trusts nobody.
      ...(ctx.stackId ? { TRUST_PROXY: '127.0.0.1' } : {}),
    }),
  },
];

/** Names of the processes /api/health reports on. */
export const healthServiceNames = () => services.filter((s) => s.kind === 'service').map((s) => s.name);

/** `<prefix><suffix>`; PostgreSQL names use underscores (lv_vault_media). */
export const databaseName = (prefix, suffix) => `${prefix}${suffix.replace(/-/g, '_')}`;
