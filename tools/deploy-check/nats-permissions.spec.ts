// The NATS permission table against the code and the deploy files: the committed auth.conf copies
// are what the table renders, every process has a user that compose and Kubernetes give it, the
// subject registry's RPC subjects are served by their owner, and no deploy file ships a secret.
// (nats-permissions.int.spec.ts proves on a real server what the rules allow.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import {
  AccessKeysRpc, BillingRpc, CourtJournalRpc, IdentityRpc, LettersRpc, NotificationsRpc, streamNameFor as contractsStreamName, SERVICES, TimelineRpc, VaultMediaRpc,
} from '@lv/contracts';
import { subjectMatches } from '@lv/platform/messaging';
import { healthServiceNames, services } from '../dev/services.mjs';
import { AUTH_CONF_PATHS, NATS_USERS, passwordVariable, permissionsOf, renderAuthConf, streamNameFor } from './nats-permissions.mjs';

type Json = any; // parsed YAML

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const compose: Json = YAML.parse(read('docker-compose.yml'), { merge: true });
const k8s: Json[] = (YAML.parse(read('deploy/k8s/kustomization.yaml')).resources as string[])
  .flatMap((f) => YAML.parseAllDocuments(read(`deploy/k8s/${f}`)).map((d) => d.toJS()).filter(Boolean));
const user = (name: string) => NATS_USERS.find((u) => u.user === name);
const canPublish = (name: string, subject: string) => {
  const u = user(name)!;
  const { publish } = permissionsOf(u);
  return publish.some((p) => subjectMatches(p, subject)) && !u.deny.some((p) => subjectMatches(p, subject));
};
const processes = services.map((s) => s.name);

describe('NATS permissions: the generated file', () => {
  it.each(AUTH_CONF_PATHS)('%s is what the table renders (node tools/deploy-check/nats-permissions.mjs --write)', (path) => {
    expect(read(path)).toBe(renderAuthConf());
  });

  it("names streams as the contracts do", () => {
    for (const service of SERVICES) expect(streamNameFor(service)).toBe(contractsStreamName(service));
  });

  it('has one user per process of tools/dev/services.mjs, and names each once', () => {
    const names = NATS_USERS.map((u) => u.user);
    expect(new Set(names).size).toBe(names.length);
    expect(processes.filter((p) => !names.includes(p))).toEqual([]);
  });

  it('never allows a wildcard over everything, nor another user\'s inbox', () => {
    for (const u of NATS_USERS) {
      const { publish, subscribe } = permissionsOf(u);
      expect({ user: u.user, wide: [...publish, ...subscribe].filter((s) => s === '>' || s.startsWith('*') || s === 'rpc.>' || s.startsWith('_INBOX.')) }).toEqual({ user: u.user, wide: [] });
      expect(subscribe.filter((s) => s.startsWith('_INBOX'))).toEqual([`_INBOX_${u.user}.>`]);
    }
  });
});

describe('NATS permissions: the subject registry', () => {
  const registries = { identity: IdentityRpc, letters: LettersRpc, 'vault-media': VaultMediaRpc, timeline: TimelineRpc, 'court-journal': CourtJournalRpc } as const;
  const subjectsOf = (registry: Record<string, { subject: string }>) => Object.values(registry).map((d) => d.subject);

  it.each(Object.entries(registries))("lets only %s serve its RPC subjects", (owner, registry) => {
    for (const subject of subjectsOf(registry)) {
      const servers = NATS_USERS.filter((u) => permissionsOf(u).subscribe.some((p) => subjectMatches(p, subject))).map((u) => u.user);
      expect({ subject, servers }).toEqual({ subject, servers: [owner] });
    }
  });

  it('names in calls and deny only what some declaration answers (a pattern matches one subject at least)', () => {
    const declared = [IdentityRpc, LettersRpc, VaultMediaRpc, TimelineRpc, CourtJournalRpc, AccessKeysRpc, NotificationsRpc, BillingRpc].flatMap(subjectsOf);
    for (const u of NATS_USERS) {
      for (const pattern of [...u.calls, ...u.deny]) {
        expect({ user: u.user, pattern, declared: declared.some((subject) => subjectMatches(pattern, subject)) }).toEqual({ user: u.user, pattern, declared: true });
      }
    }
  });

  /** Asked by one service of another only (a milestone letter's release and its key, an owner's request notice), never through the gateway. */
  const betweenServices: Record<string, string> = {
    [LettersRpc.milestoneRelease.subject]: 'access-keys', [AccessKeysRpc.issueLetterKey.subject]: 'letters', [IdentityRpc.ownerDisplayName.subject]: 'access-keys',
    [AccessKeysRpc.requestNoticeState.subject]: 'notifications', [IdentityRpc.accessRequestMailTo.subject]: 'notifications', [IdentityRpc.ownerMailTo.subject]: 'notifications',
  };

  it("lets the gateway call every service's requests but no operator command, and ops only those", () => {
    for (const subject of Object.values(registries).flatMap(subjectsOf)) {
      const operator = subject.includes('.op.');
      expect({ subject, gateway: canPublish('gateway', subject), ops: canPublish('ops', subject) })
        .toEqual({ subject, gateway: !operator && !betweenServices[subject], ops: operator || subject.endsWith('.health') });
    }
  });

  it('lets the gateway ask every service /api/health reports on for its health', () => {
    expect(healthServiceNames().filter((service) => !canPublish('gateway', `rpc.${service}.health`))).toEqual([]);
    expect(canPublish('gateway', NotificationsRpc.health.subject)).toBe(true);
  });

  it('lets only the asking service publish the requests between services (letters, access-keys, identity)', () => {
    for (const [subject, caller] of Object.entries(betweenServices)) {
      expect({ subject, callers: NATS_USERS.filter((u) => canPublish(u.user, subject)).map((u) => u.user) }).toEqual({ subject, callers: [caller] });
    }
  });

  it('lets no service publish into another service\'s stream', () => {
    for (const u of NATS_USERS) {
      for (const service of SERVICES) {
        const mayPublish = canPublish(u.user, `${service}.x.y.v1`);
        expect({ user: u.user, stream: service, mayPublish }).toEqual({ user: u.user, stream: service, mayPublish: u.stream === service });
      }
    }
  });

  it('leaves stream creation to the platform: no app code calls ensureServiceStream (openServiceCore makes the own stream)', () => {
    const appsDir = join(root, 'apps');
    const callers: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) { if (!['node_modules', 'dist', 'test'].includes(entry.name)) walk(path); }
        else if (/\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) && readFileSync(path, 'utf8').includes('ensureServiceStream(')) callers.push(path.slice(root.length + 1));
      }
    };
    for (const app of readdirSync(appsDir)) if (existsSync(join(appsDir, app, 'src'))) walk(join(appsDir, app, 'src'));
    expect(callers).toEqual([]);
  });

  it("lets a service create, update or delete no stream but its own (a consumer waits for another's stream)", () => {
    for (const u of NATS_USERS) {
      for (const service of SERVICES) {
        const allowed = ['CREATE', 'UPDATE', 'DELETE', 'PURGE'].filter((op) => canPublish(u.user, `$JS.API.STREAM.${op}.${streamNameFor(service)}`));
        expect({ user: u.user, stream: service, allowed }).toEqual({ user: u.user, stream: service, allowed: u.stream === service ? ['CREATE', 'UPDATE'] : [] });
      }
    }
  });
});

describe('NATS permissions: docker-compose.yml and deploy/k8s', () => {
  it('gives each compose process its own user, password and the TLS CA, and the server every password', () => {
    const problems: string[] = [];
    for (const name of processes) {
      const env = compose.services?.[name]?.environment ?? {};
      if (env.NATS_USER !== name) problems.push(`${name}: NATS_USER is ${env.NATS_USER}, expected ${name}`);
      if (!String(env.NATS_PASSWORD).startsWith(`\${${passwordVariable(name)}:?`)) problems.push(`${name}: NATS_PASSWORD must be \${${passwordVariable(name)}:?...}`);
      if (!env.NATS_TLS_CA) problems.push(`${name}: NATS_TLS_CA is not set`);
    }
    const nats = compose.services?.nats ?? {};
    for (const u of NATS_USERS) if (!String(nats.environment?.[passwordVariable(u.user)] ?? '').startsWith(`\${${passwordVariable(u.user)}:?`)) problems.push(`nats: ${passwordVariable(u.user)} is not passed`);
    if (!(nats.volumes ?? []).some((v: string) => v.startsWith('./deploy/nats/auth.conf:'))) problems.push('nats: deploy/nats/auth.conf is not mounted');
    if (!/tls\s*\{/.test(read('deploy/nats/nats.conf')) || !/include \.\/auth\.conf/.test(read('deploy/nats/nats.conf'))) problems.push('deploy/nats/nats.conf needs a tls block and the auth include');
    expect(problems).toEqual([]);
  });

  it('gives each Deployment its own user from lv-nats-users, and the NATS pods every password', () => {
    const problems: string[] = [];
    const envOf = (c: Json) => new Map<string, Json>((c?.env ?? []).map((e: Json) => [e.name, e]));
    for (const name of processes) {
      const d = k8s.find((m) => m.kind === 'Deployment' && m.metadata.name === name);
      const env = envOf(d?.spec?.template?.spec?.containers?.[0]);
      if (env.get('NATS_USER')?.value !== name) problems.push(`${name}: NATS_USER must be ${name}`);
      const ref = env.get('NATS_PASSWORD')?.valueFrom?.secretKeyRef;
      if (ref?.name !== 'lv-nats-users' || ref?.key !== name) problems.push(`${name}: NATS_PASSWORD must come from Secret lv-nats-users, key ${name}`);
      if (!env.get('NATS_TLS_CA')) problems.push(`${name}: NATS_TLS_CA is not set`);
    }
    const sts = k8s.find((m) => m.kind === 'StatefulSet' && m.metadata.name === 'nats');
    const natsEnv = envOf(sts?.spec?.template?.spec?.containers?.[0]);
    for (const u of NATS_USERS) {
      const ref = natsEnv.get(passwordVariable(u.user))?.valueFrom?.secretKeyRef;
      if (ref?.name !== 'lv-nats-users' || ref?.key !== u.user) problems.push(`nats: ${passwordVariable(u.user)} must come from lv-nats-users key ${u.user}`);
    }
    const conf = k8s.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'nats-config')?.data?.['nats.conf'] ?? '';
    if (!/tls\s*\{/.test(conf) || !/include \.\/auth\/auth\.conf/.test(conf)) problems.push('nats-config needs a tls block and the auth include');
    const kustomization = YAML.parse(read('deploy/k8s/kustomization.yaml'));
    if (!(kustomization.configMapGenerator ?? []).some((g: Json) => g.name === 'nats-auth' && g.files?.includes('auth.conf=nats-auth.conf'))) problems.push('kustomization.yaml must generate ConfigMap nats-auth from nats-auth.conf');
    expect(problems).toEqual([]);
  });

  it('admits only the Legacy Vault processes to NATS 4222 (NetworkPolicy)', () => {
    const policy = k8s.find((m) => m.kind === 'NetworkPolicy' && m.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'nats');
    expect(policy).toBeDefined();
    const clientRule = policy.spec.ingress.find((r: Json) => r.ports?.some((p: Json) => p.port === 4222) && r.from?.[0]?.podSelector?.matchExpressions);
    const admitted: string[] = clientRule.from[0].podSelector.matchExpressions[0].values;
    expect([...admitted].sort()).toEqual(NATS_USERS.map((u) => u.user).sort());
  });

  // The production override's tagged values (!override, !reset) parse as plain values here: only the text matters.
  it.each([
    ['docker-compose.yml', compose, /:\$\{POSTGRES_PASSWORD:\?[^}]*\}@/],
    ['docker-compose.prod.yml', YAML.parse(read('docker-compose.prod.yml'), { merge: true, logLevel: 'error' }), /^postgres:\/\/lv_[a-z_]+:\$\{PG_PASSWORD_[A-Z_]+:\?[^}]*\}@/],
  ])('ships no secret in %s and publishes ports on 127.0.0.1 only', (_file, file: Json, databaseUrl: RegExp) => {
    const problems: string[] = [];
    const secretish = /(PASSWORD|SECRET|_KEY$|ROOT_USER)/;
    for (const [name, svc] of Object.entries<Json>(file.services ?? {})) {
      for (const [key, value] of Object.entries<Json>(svc.environment ?? {})) {
        const v = String(value);
        if (secretish.test(key) && !key.startsWith('JWT_') && !/^\$\{[A-Z0-9_]+:\?/.test(v) && !v.startsWith('/run/')) problems.push(`${name}: ${key} is written in the file`);
        if (key === 'DATABASE_URL' && !databaseUrl.test(v)) problems.push(`${name}: DATABASE_URL must take its password from .env (${String(databaseUrl)})`);
      }
      for (const port of svc.ports ?? []) if (!String(port).startsWith('127.0.0.1:')) problems.push(`${name}: publishes ${String(port)} beyond 127.0.0.1`);
      for (const line of [].concat(svc.command ?? [])) if (/legacy-vault-minio-secret|change-me/i.test(String(line))) problems.push(`${name}: a secret in its command`);
    }
    expect(problems).toEqual([]);
  });
});
