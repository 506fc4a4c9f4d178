#!/usr/bin/env node
// The one table of who may do what on NATS in a deployment, and the permission file generated from
// it: deploy/nats/auth.conf (docker-compose mounts it) and deploy/k8s/nats-auth.conf (the same text:
// kustomize reads files inside its own folder only).
//
//   node tools/deploy-check/nats-permissions.mjs           print the file
//   node tools/deploy-check/nats-permissions.mjs --write   rewrite both copies
//
// The RPC subjects a process calls are read from their declarations in libs/contracts (under Jest
// its sources; run with node its build, which this script makes first), never written out again here.
//
// nats-permissions.spec.ts fails when the committed copies drift from the table, and
// nats-permissions.int.spec.ts runs a private nats-server with the file to prove what it allows.
//
// Every process has its own user. Its password comes from the NATS server's environment
// (NATS_PASSWORD_<USER>, e.g. NATS_PASSWORD_VAULT_MEDIA), and the process itself reads NATS_USER and
// NATS_PASSWORD (libs/platform/src/messaging/connection.ts). Replies travel under the user's own
// inbox prefix (_INBOX_<user>), so no process can subscribe to answers meant for another.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProject } from '../build/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const isMain = Boolean(process.argv[1]) && fileURLToPath(import.meta.url) === process.argv[1];
// Run as a script, the contracts are built afresh (a stale build would render yesterday's subjects);
// imported (compose-secrets.mjs, the specs), only when there is no build yet.
if (isMain || !existsSync(join(root, 'libs', 'contracts', 'dist', 'index.js'))) await buildProject(join(root, 'libs', 'contracts'));
const { AccessKeysRpc, CourtJournalRpc, IdentityRpc, LettersRpc, NotificationsRpc, VaultMediaRpc } = await import('@lv/contracts');

/** The subjects of RPC declarations. */
const subjectsOf = (...declarations) => declarations.map((d) => d.subject);

/**
 * @typedef {object} NatsUser
 * @property {string} user NATS user name, also NATS_USER of the process.
 * @property {string | null} stream The service whose JetStream stream it owns: publishes `<stream>.>`, creates and updates the stream.
 * @property {string[]} serves Services whose RPC subjects (`rpc.<service>.>`) it answers, in a queue group.
 * @property {string[]} calls RPC subjects (or patterns) it requests.
 * @property {string[]} deny Subjects it may never publish to, even inside `calls`.
 * @property {string[]} consumes Services whose streams it reads with durable consumers.
 * @property {boolean} [erasesOwnMessages] Reads its own stream and deletes messages from it (an erased account's published words).
 * @property {string} why One line for the generated file.
 */

/** @type {readonly NatsUser[]} */
export const NATS_USERS = [
  {
    user: 'identity', stream: 'identity', serves: ['identity'], calls: [], deny: [], consumes: ['billing'], erasesOwnMessages: true,
    why: "accounts and sessions; publishes identity.> events; reads billing's subscription events (the profile's tier); deletes an erased account's published address and name from its own stream",
  },
  {
    user: 'letters', stream: 'letters', serves: ['letters'], calls: subjectsOf(AccessKeysRpc.issueLetterKey), deny: [], consumes: ['identity'],
    why: "letters and the reflection; publishes letters.> events; reads identity's erased accounts; asks access-keys for a released milestone letter's key",
  },
  {
    user: 'vault-media', stream: 'vault-media', serves: ['vault-media'], calls: subjectsOf(AccessKeysRpc.finalAccess), deny: [], consumes: ['vault-media', 'identity'],
    why: "recordings; its hashing enqueuer reads its own events; reads identity's erased accounts; asks access-keys whether a viewer may open final messages",
  },
  {
    user: 'court-journal', stream: 'court-journal', serves: ['court-journal'], calls: [], deny: [], consumes: ['identity'],
    why: "court documents and the evidence chain; publishes court-journal.> events; reads identity's erased accounts",
  },
  {
    user: 'access-keys', stream: 'access-keys', serves: ['access-keys'], calls: subjectsOf(LettersRpc.milestoneRelease, IdentityRpc.ownerDisplayName), deny: [], consumes: ['notifications', 'identity'],
    why: "family access: requests, keys, view sessions; reads notifications' key e-mail events and identity's sign-ins, address changes and erased accounts; asks letters who a milestone release is for, identity whose vault a key opens",
  },
  {
    user: 'notifications', stream: 'notifications', serves: ['notifications'],
    calls: subjectsOf(AccessKeysRpc.keyMailState, AccessKeysRpc.trusteeNoticeState, AccessKeysRpc.inactivityWarningState, AccessKeysRpc.requestNoticeState, AccessKeysRpc.trusteeLinkState, AccessKeysRpc.trusteeReportNoticeState, IdentityRpc.accessRequestMailTo, IdentityRpc.ownerMailTo),
    deny: [], consumes: ['identity'],
    why: "key e-mails, trustee notices, inactivity warnings, owners' access-request notices (BullMQ workers, SMTP); reads identity's erased accounts; asks access-keys whether a key is active, a delivery step committed, a warning current, a request pending, and identity where an owner's request e-mails go, before sending",
  },
  {
    // Its own stream exists (every service's platform bootstrap makes one) but carries nothing yet.
    user: 'timeline', stream: 'timeline', serves: ['timeline'],
    calls: subjectsOf(LettersRpc.titles, VaultMediaRpc.titles, CourtJournalRpc.titles), deny: [], consumes: ['letters', 'vault-media', 'court-journal'],
    why: "the timeline read model: letters', vault-media's and court-journal's events, their titles on request",
  },
  {
    user: 'billing', stream: 'billing', serves: ['billing'], calls: [], deny: [], consumes: ['identity'],
    why: "plans and subscriptions (the payment provider is reached over HTTPS); publishes billing.> events; reads identity's erased accounts",
  },
  {
    user: 'worker', stream: null, serves: [], calls: subjectsOf(VaultMediaRpc.reportHash, VaultMediaRpc.reportTranscode), deny: [], consumes: [],
    why: 'BullMQ processors; reports hashing and transcoding results to vault-media',
  },
  {
    user: 'gateway', stream: null, serves: [],
    // Of notifications only its health: /api/health reports every service (HEALTH_SERVICES), and no route calls it otherwise.
    calls: ['rpc.identity.>', 'rpc.letters.>', 'rpc.vault-media.>', 'rpc.timeline.>', 'rpc.court-journal.>', 'rpc.access-keys.>', 'rpc.billing.>', ...subjectsOf(NotificationsRpc.health)],
    // key-mail-state, trustee-notice-state, the warning state, request-notice-state and access-request-mail-to answer for
    // notifications' workers only, never a browser; issue-letter-key and milestone-release are between letters and access-keys
    // only; so is an owner's display name.
    deny: [
      'rpc.*.op.>',
      ...subjectsOf(AccessKeysRpc.keyMailState, AccessKeysRpc.trusteeNoticeState, AccessKeysRpc.inactivityWarningState, AccessKeysRpc.requestNoticeState, AccessKeysRpc.trusteeLinkState, AccessKeysRpc.trusteeReportNoticeState),
      ...subjectsOf(AccessKeysRpc.issueLetterKey, LettersRpc.milestoneRelease, IdentityRpc.ownerDisplayName, IdentityRpc.accessRequestMailTo, IdentityRpc.ownerMailTo),
    ],
    consumes: [],
    why: "the HTTP API: calls every service, never the operators' commands",
  },
  {
    user: 'ops', stream: null, serves: [], calls: ['rpc.*.op.>', 'rpc.*.health'], deny: [], consumes: [],
    why: "the operators' CLI (npm run vault); each command still needs an operator token",
  },
];

/** JetStream stream of a service (libs/contracts streamNameFor). */
export const streamNameFor = (service) => `LV_${service.replace(/-/g, '_').toUpperCase()}`;

/** The server-side environment variable holding a user's password. */
export const passwordVariable = (user) => `NATS_PASSWORD_${user.replace(/-/g, '_').toUpperCase()}`;

/** Inbox prefix of a user (libs/platform/src/messaging/connection.ts inboxPrefixFor). */
export const inboxPrefixFor = (user) => `_INBOX_${user}`;

/**
 * Publish and subscribe allow lists of one user.
 * @param {NatsUser} u
 */
export function permissionsOf(u) {
  const publish = new Set();
  const subscribe = new Set([`${inboxPrefixFor(u.user)}.>`]);
  const usesJetStream = u.stream !== null || u.consumes.length > 0;
  if (usesJetStream) publish.add('$JS.API.INFO');
  if (u.stream) {
    const name = streamNameFor(u.stream);
    publish.add(`${u.stream}.>`);
    for (const op of ['INFO', 'CREATE', 'UPDATE']) publish.add(`$JS.API.STREAM.${op}.${name}`);
    if (u.erasesOwnMessages) {
      // An ordered consumer over its own stream finds the messages; MSG.DELETE overwrites and removes each.
      for (const op of ['CREATE', 'INFO', 'MSG.NEXT', 'DELETE']) publish.add(`$JS.API.CONSUMER.${op}.${name}.>`);
      publish.add(`$JS.API.STREAM.MSG.DELETE.${name}`);
    }
  }
  for (const service of u.serves) {
    subscribe.add(`rpc.${service}.>`);
    // The container's own health probe (deploy/healthcheck.mjs) runs with the service's credentials.
    publish.add(`rpc.${service}.health`);
  }
  for (const subject of u.calls) publish.add(subject);
  for (const source of u.consumes) {
    const name = streamNameFor(source);
    publish.add(`$JS.API.STREAM.INFO.${name}`);
    for (const op of ['CREATE', 'DURABLE.CREATE', 'INFO', 'MSG.NEXT']) publish.add(`$JS.API.CONSUMER.${op}.${name}.>`);
    publish.add(`$JS.ACK.${name}.>`);
  }
  return { publish: [...publish], subscribe: [...subscribe] };
}

const list = (items) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

/** The text of auth.conf. */
export function renderAuthConf(users = NATS_USERS) {
  const lines = [
    '# GENERATED by tools/deploy-check/nats-permissions.mjs from its table: do not edit, run',
    '#   node tools/deploy-check/nats-permissions.mjs --write',
    '# One user per Legacy Vault process, allowed only its own subjects. Passwords come from the',
    "# server's environment (NATS_PASSWORD_<USER>). A responder may publish only to the reply subject of",
    '# a request it received (allow_responses: an answer, and Nest\'s end-of-stream marker).',
    'authorization {',
    '  users: [',
  ];
  for (const u of users) {
    const p = permissionsOf(u);
    lines.push(`    # ${u.user}: ${u.why}`);
    lines.push('    {');
    lines.push(`      user: ${JSON.stringify(u.user)}`);
    lines.push(`      password: $${passwordVariable(u.user)}`);
    lines.push('      permissions: {');
    lines.push(`        publish: { allow: ${list(p.publish)}${u.deny.length ? `, deny: ${list(u.deny)}` : ''} }`);
    lines.push(`        subscribe: { allow: ${list(p.subscribe)} }`);
    if (u.serves.length) lines.push('        allow_responses: { max: 2 }');
    lines.push('      }');
    lines.push('    }');
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/** The committed copies of the generated file. */
export const AUTH_CONF_PATHS = ['deploy/nats/auth.conf', 'deploy/k8s/nats-auth.conf'];

if (isMain) {
  const text = renderAuthConf();
  if (process.argv.includes('--write')) {
    for (const path of AUTH_CONF_PATHS) writeFileSync(join(root, path), text);
    console.log(`wrote ${AUTH_CONF_PATHS.join(' and ')}`);
  } else {
    process.stdout.write(text);
  }
}
