// Keeps docker-compose.yml and deploy/k8s in line with the code, since no container runtime runs
// here to try them: the processes of tools/dev/services.mjs, the variables their zod schemas
// require, images, ports, health checks, migrations and the Secrets they reference.
// Every check collects its findings and expects none, so a failure lists exactly what drifted.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { ZodObject, ZodType } from 'zod';
import { services, type ServiceEntry, type StackContext } from '../dev/services.mjs';
import { SERVICE_HEAP_FLAGS } from '../dev/stack.mjs';

/** A serving process's command: with the V8 flags npm start gives it (a migration runs without them). */
const serving = (svc: ServiceEntry) => ['node', ...SERVICE_HEAP_FLAGS, svc.entry].join(' ');

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Variables a deployment may set although no schema reads them: runtime knobs of Node itself.
 * (STACK_ID is for stacks sharing one NATS on a developer machine; deployments never set it.)
 */
const DEPLOY_ENV_ALLOW_LIST = ['NODE_OPTIONS', 'TZ'];
/** The dev stack (services.mjs) may also pass STACK_ID. */
const DEV_ENV_ALLOW_LIST = ['STACK_ID'];
const APP_IMAGE = 'legacy-vault';
const DOCKERFILE = 'deploy/Dockerfile';

type Json = any; // parsed YAML

// ---------------------------------------------------------------------------------------------
// Loading

/** A mapping tagged `!override` replaces what it overrides; a value tagged `!reset` removes it (Compose 2.24.4). */
const OVERRIDE = '\u0000override';
const RESET = '\u0000reset';

function loadComposeFile(file: string): Json {
  const document = YAML.parseDocument(readFileSync(join(root, file), 'utf8'), { merge: true });
  YAML.visit(document, {
    Map(_key, node) { if (node.tag === '!override') node.set(OVERRIDE, true); },
    Seq(_key, node) { if (node.tag === '!reset') return new YAML.Scalar(RESET); },
    Scalar(_key, node) { if (node.tag === '!reset') node.value = RESET; },
  });
  return document.toJS();
}

/** Sequences Compose merges (by value) instead of replacing; the others (command, entrypoint, test) are replaced. */
const MERGED_SEQUENCES = new Set(['volumes', 'ports', 'secrets', 'configs']);

/** `docker compose -f base -f override`'s merge, for what these files use (compose-spec's merge rules). */
function mergeCompose(base: Json, override: Json, key = ''): Json {
  if (override === RESET) return undefined;
  if (Array.isArray(override)) return MERGED_SEQUENCES.has(key) && Array.isArray(base) ? [...new Set([...base, ...override])] : override;
  if (override && typeof override === 'object') {
    const { [OVERRIDE]: replace, ...rest } = override;
    const merged: Json = replace || !base || typeof base !== 'object' || Array.isArray(base) ? {} : { ...base };
    for (const [k, v] of Object.entries(rest)) {
      const value = mergeCompose(replace ? undefined : merged[k], v, k);
      if (value === undefined) delete merged[k];
      else merged[k] = value;
    }
    return merged;
  }
  return override;
}

const compose: Json = loadComposeFile('docker-compose.yml');
const PROD_COMPOSE_FILE = 'docker-compose.prod.yml';
const prodOverride: Json = loadComposeFile(PROD_COMPOSE_FILE);
/** What `docker compose -f docker-compose.yml -f docker-compose.prod.yml` runs. */
const prodCompose: Json = mergeCompose(compose, prodOverride);
const k8sDir = join(root, 'deploy', 'k8s');
const kustomization: Json = YAML.parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8'));
const k8sFiles: string[] = kustomization.resources ?? [];
const manifests: Json[] = k8sFiles.flatMap((file) =>
  YAML.parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'))
    .map((doc) => doc.toJS())
    .filter(Boolean)
    .map((m: Json) => ({ ...m, __file: file })),
);
const exampleSecrets: Json[] = YAML.parseAllDocuments(readFileSync(join(k8sDir, 'secrets.example.yaml'), 'utf8')).map((d) => d.toJS()).filter(Boolean);

const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata?.name === name);

interface SchemaInfo {
  shape: Record<string, ZodType>;
  keys: string[];
  /** No default: the process does not start without it. */
  required: string[];
  /** Defaults that only make sense on a developer machine (127.0.0.1 / localhost): a deployment must override them. */
  localDefaults: string[];
}

const schemas = new Map<string, SchemaInfo>();

async function loadSchema(svc: ServiceEntry): Promise<SchemaInfo> {
  const mod = await import(join(root, svc.config.module));
  const schema = mod[svc.config.schema] as ZodObject | undefined;
  if (!schema?.shape) throw new Error(`${svc.config.module} does not export a zod object ${svc.config.schema}`);
  const shape = schema.shape as Record<string, ZodType>;
  const keys = Object.keys(shape);
  const required = keys.filter((k) => !shape[k]!.safeParse(undefined).success);
  const localDefaults = keys.filter((k) => {
    const parsed = shape[k]!.safeParse(undefined);
    return parsed.success && /127\.0\.0\.1|localhost/.test(JSON.stringify(parsed.data ?? ''));
  });
  return { shape, keys, required, localDefaults };
}

beforeAll(async () => {
  for (const svc of services) schemas.set(svc.name, await loadSchema(svc));
});

// ---------------------------------------------------------------------------------------------
// Environment extraction

const SECRET = Symbol('secret');
type EnvValue = string | typeof SECRET;

function composeEnv(service: Json): Record<string, EnvValue> {
  const env = service?.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry: string) => {
      const i = entry.indexOf('=');
      return i < 0 ? [entry, SECRET] : [entry.slice(0, i), entry.slice(i + 1)];
    }));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? SECRET : interpolated(String(v))]));
}

/**
 * Values an operator writes into .env for docker-compose.prod.yml (compose-secrets.mjs cannot make them),
 * as examples of the right shape, so the schemas check everything around them.
 */
const OPERATOR_VALUES: Record<string, string> = {
  LEGACY_VAULT_IMAGE: 'registry.example.com/legacy-vault:0.1.0',
  PUBLIC_URL: 'https://vault.example.org',
  STRIPE_SECRET_KEY: 'sk_live_example',
  STRIPE_WEBHOOK_SECRET: 'whsec_example',
  SMTP_HOST: 'smtp.example.org',
  SMTP_PORT: '587',
  SMTP_USER: 'legacy-vault',
  SMTP_PASS: 'a-password-from-the-provider',
  MAIL_FROM: 'Legacy Vault <no-reply@vault.example.org>',
};

/**
 * Compose fills `${NAME:?...}` from .env (tools/dev/compose-secrets.mjs: letters and hex, 32+
 * characters; or an operator's value) and `${NAME:-default}` with the default when unset; the schema
 * checks such a value, so the rest of the string (a URL around it) is still checked.
 */
const interpolated = (value: string) =>
  value.replace(/\$\{([A-Z0-9_]+)(?::?([?-])([^}]*))?\}/g, (_m, name: string, kind?: string, rest?: string) =>
    OPERATOR_VALUES[name] ?? (kind === '-' ? rest ?? '' : `lv${'0'.repeat(40)}`));

function k8sEnv(container: Json, problems: string[], where: string): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = find('ConfigMap', from.configMapRef.name);
      if (!cm) problems.push(`${where}: envFrom ConfigMap ${from.configMapRef.name} is not in deploy/k8s`);
      for (const [k, v] of Object.entries(cm?.data ?? {})) env[k] = String(v);
    } else if (from.secretRef) {
      problems.push(`${where}: envFrom secretRef ${from.secretRef.name} hides which variables it sets: list them under env with secretKeyRef`);
    }
  }
  for (const e of container.env ?? []) {
    env[e.name] = e.value !== undefined ? String(e.value) : SECRET;
  }
  return env;
}

/** The problems of one process's environment against its schema. */
function checkEnv(where: string, env: Record<string, EnvValue>, info: SchemaInfo, allowList: string[]): string[] {
  const problems: string[] = [];
  for (const key of info.required) if (!(key in env)) problems.push(`${where}: ${key} is required by the schema (no default) but not set`);
  for (const key of info.localDefaults) if (!(key in env)) problems.push(`${where}: ${key} must be set: its default points at this machine (127.0.0.1/localhost)`);
  for (const [key, value] of Object.entries(env)) {
    if (!info.keys.includes(key)) {
      if (!allowList.includes(key)) problems.push(`${where}: ${key} is set but unknown to the schema (typo, or a variable the app no longer reads?)`);
      continue;
    }
    if (value !== SECRET) {
      const parsed = info.shape[key]!.safeParse(value);
      if (!parsed.success) problems.push(`${where}: ${key}=${JSON.stringify(value)} is rejected by the schema: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    }
  }
  return problems;
}

/** Key files etc. given as paths under /run must be on something mounted there. */
function checkMountedPaths(where: string, env: Record<string, EnvValue>, mounts: string[]): string[] {
  return Object.entries(env)
    .filter(([, v]) => typeof v === 'string' && v.startsWith('/run/'))
    .filter(([, v]) => !mounts.some((m) => (v as string).startsWith(m.endsWith('/') ? m : `${m}/`)))
    .map(([k, v]) => `${where}: ${k}=${String(v)} is not under any mounted volume (${mounts.join(', ') || 'none'})`);
}

const composeMounts = (service: Json): string[] =>
  (service?.volumes ?? []).map((v: Json) => (typeof v === 'string' ? v.split(':')[1] : v.target)).filter(Boolean);

function podOf(workload: Json): Json {
  return workload?.spec?.template?.spec ?? workload?.spec?.jobTemplate?.spec?.template?.spec;
}

function k8sMounts(pod: Json, container: Json, problems: string[], where: string): string[] {
  const volumes = new Map<string, Json>((pod.volumes ?? []).map((v: Json) => [v.name, v]));
  return (container.volumeMounts ?? []).map((m: Json) => {
    if (!volumes.has(m.name)) problems.push(`${where}: volumeMount ${m.name} has no volume`);
    return m.mountPath;
  });
}

const imageName = (image: string) => image.split('@')[0]!.replace(/:[^/:]+$/, '');
/** The app image under any registry (registry.example.com/legacy-vault:0.1.0 in production). */
const isAppImage = (image: string) => imageName(interpolated(image)).split('/').pop() === APP_IMAGE;
const appContainers = (pod: Json): Json[] => (pod?.containers ?? []).filter((c: Json) => imageName(c.image ?? '') === APP_IMAGE);
const composeAppServices = (compose: Json): [string, Json][] =>
  Object.entries(compose.services ?? {}).filter(([, s]: [string, Json]) => isAppImage(s.image ?? '') || s.build?.dockerfile === DOCKERFILE) as [string, Json][];

const commandOf = (s: Json): string[] => (Array.isArray(s?.command) ? s.command.map(String) : typeof s?.command === 'string' ? s.command.split(/\s+/) : []);
const containerCommand = (c: Json): string[] => [...(c.command ?? []), ...(c.args ?? [])].map(String);

function resolvePort(container: Json, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  if (port === undefined) return undefined;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p: Json) => p.name === port)?.containerPort;
}

const healthServices = services.filter((s) => s.kind === 'service').map((s) => s.name).sort();

// ---------------------------------------------------------------------------------------------

describe('deploy consistency: manifest of processes (tools/dev/services.mjs)', () => {
  it('names each process once, with an entry under apps/ and a schema module that exists', () => {
    const problems: string[] = [];
    const names = services.map((s) => s.name);
    if (new Set(names).size !== names.length) problems.push(`duplicate names: ${names.join(', ')}`);
    for (const s of services) {
      if (!/^apps\/[a-z-]+\/dist\/main\.js$/.test(s.entry)) problems.push(`${s.name}: entry ${s.entry} is not apps/<name>/dist/main.js`);
      if (!existsSync(join(root, s.config.module))) problems.push(`${s.name}: ${s.config.module} does not exist`);
      if (s.database !== null && !/^[a-z_]+$/.test(s.database)) problems.push(`${s.name}: database suffix ${s.database} must be lower_snake_case`);
    }
    if (services.filter((s) => s.kind === 'gateway').length !== 1) problems.push('exactly one process must be the gateway');
    expect(problems).toEqual([]);
  });

  it("builds a dev environment each app's schema accepts", () => {
    const ctx: StackContext = {
      natsUrl: 'nats://127.0.0.1:4222',
      redisUrl: 'redis://127.0.0.1:6379/1',
      stackId: 'e2e',
      logLevel: 'info',
      nodeEnv: 'development',
      databaseUrl: (suffix) => `postgres://postgres@127.0.0.1:5432/lv_e2e_${suffix}`,
      jwt: { publicKey: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----\n', privateKey: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n' },
      evidenceKey: { publicKey: '-----BEGIN PUBLIC KEY-----\ne\n-----END PUBLIC KEY-----\n', privateKey: '-----BEGIN PRIVATE KEY-----\ne\n-----END PRIVATE KEY-----\n' },
      viewerJwt: { publicKey: '-----BEGIN PUBLIC KEY-----\nv\n-----END PUBLIC KEY-----\n', privateKey: '-----BEGIN PRIVATE KEY-----\nv\n-----END PRIVATE KEY-----\n' },
      s3: { endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', accessKey: 'k', secretKey: 's' },
      smtp: { host: '127.0.0.1', port: 1025 },
      http: { host: '127.0.0.1', port: 3100 },
      webDistDir: '/repo/apps/web/dist',
      healthServices,
    };
    const problems: string[] = [];
    for (const s of services) {
      const info = schemas.get(s.name)!;
      const env = s.env(ctx);
      // Local defaults are fine on the dev stack: only required variables and unknown ones count.
      problems.push(...checkEnv(`services.mjs ${s.name}`, env, { ...info, localDefaults: [] }, DEV_ENV_ALLOW_LIST));
    }
    expect(problems).toEqual([]);
  });
});

describe.each([
  ['docker-compose.yml', compose],
  [`docker-compose.yml + ${PROD_COMPOSE_FILE}`, prodCompose],
])('deploy consistency: %s', (_file, compose: Json) => {
  it('runs every process of the manifest from the one app image, and nothing else from it', () => {
    const problems: string[] = [];
    const app = composeAppServices(compose);
    const images = new Set(app.map(([, s]) => s.image));
    if (images.size !== 1) problems.push(`app services use ${images.size} images (${[...images].join(', ')}): use one`);
    for (const [name, s] of app) {
      if (s.build && s.build.dockerfile !== DOCKERFILE) problems.push(`${name}: builds ${s.build.dockerfile}, not ${DOCKERFILE}`);
      if (s.build && (s.build.context ?? '.') !== '.') problems.push(`${name}: build context must be the repository root`);
    }
    if (!existsSync(join(root, DOCKERFILE))) problems.push(`${DOCKERFILE} is missing`);

    for (const svc of services) {
      const s = compose.services?.[svc.name];
      if (!s) { problems.push(`${svc.name}: no compose service`); continue; }
      if (!app.some(([n]) => n === svc.name)) problems.push(`${svc.name}: does not use the app image`);
      const cmd = commandOf(s);
      if (cmd.join(' ') !== serving(svc)) problems.push(`${svc.name}: command is "${cmd.join(' ')}", expected "${serving(svc)}"`);
      if (svc.database) {
        const m = compose.services?.[`${svc.name}-migrate`];
        if (!m) problems.push(`${svc.name}: no ${svc.name}-migrate service`);
        else {
          if (commandOf(m).join(' ') !== `node ${svc.entry} migrate`) problems.push(`${svc.name}-migrate: command is "${commandOf(m).join(' ')}", expected "node ${svc.entry} migrate"`);
          if (m.restart !== 'no') problems.push(`${svc.name}-migrate: a one-shot must have restart: "no"`);
          if (s.depends_on?.[`${svc.name}-migrate`]?.condition !== 'service_completed_successfully') problems.push(`${svc.name}: must depend on ${svc.name}-migrate with condition service_completed_successfully`);
          if (composeEnv(m).DATABASE_URL !== composeEnv(s).DATABASE_URL) problems.push(`${svc.name}-migrate: DATABASE_URL differs from ${svc.name}'s`);
          if (m.depends_on?.postgres?.condition !== 'service_healthy') problems.push(`${svc.name}-migrate: must wait for postgres to be healthy`);
        }
      }
    }
    const known = new Set(services.flatMap((s) => [s.name, `${s.name}-migrate`]));
    const helpers = new Set(['jwt-keys']);
    for (const [name] of app) if (!known.has(name) && !helpers.has(name)) problems.push(`${name}: runs the app image but is not in tools/dev/services.mjs`);
    expect(problems).toEqual([]);
  });

  it("sets every variable each app's schema requires, and none it does not know", () => {
    const problems: string[] = [];
    for (const svc of services) {
      const s = compose.services?.[svc.name];
      if (!s) continue; // reported above
      const info = schemas.get(svc.name)!;
      const env = composeEnv(s);
      problems.push(...checkEnv(`compose ${svc.name}`, env, info, DEPLOY_ENV_ALLOW_LIST));
      problems.push(...checkMountedPaths(`compose ${svc.name}`, env, composeMounts(s)));
      const m = compose.services?.[`${svc.name}-migrate`];
      if (m) {
        const menv = composeEnv(m);
        problems.push(...checkEnv(`compose ${svc.name}-migrate`, menv, { ...info, required: ['DATABASE_URL'], localDefaults: [] }, DEPLOY_ENV_ALLOW_LIST));
        problems.push(...checkMountedPaths(`compose ${svc.name}-migrate`, menv, composeMounts(m)));
      }
    }
    expect(problems).toEqual([]);
  });

  it('has health checks that match the ports, and the backing services the apps need', () => {
    const problems: string[] = [];
    for (const svc of services) {
      const s = compose.services?.[svc.name];
      if (!s) continue;
      const test = (Array.isArray(s.healthcheck?.test) ? s.healthcheck.test : [s.healthcheck?.test]).filter(Boolean).map(String);
      if (!test.length) { problems.push(`${svc.name}: no healthcheck`); continue; }
      if (svc.kind === 'gateway') {
        const env = composeEnv(s);
        const port = Number(env.PORT);
        const url = test.find((t: string) => /^https?:\/\//.test(t));
        if (!url || new URL(url).pathname !== '/api/health' || Number(new URL(url).port || 80) !== port) problems.push(`${svc.name}: healthcheck ${test.join(' ')} must GET /api/health on PORT ${port}`);
        const published = (s.ports ?? []).map((p: Json) => (typeof p === 'string' ? Number(p.split(':').pop()) : Number(p.target)));
        if (!published.includes(port)) problems.push(`${svc.name}: PORT ${port} is not a published container port (${published.join(', ') || 'none'})`);
        if (env.HOST !== '0.0.0.0') problems.push(`${svc.name}: HOST must be 0.0.0.0 in a container (is ${String(env.HOST)})`);
        const listed = String(env.HEALTH_SERVICES ?? '').split(',').map((x) => x.trim()).filter(Boolean).sort();
        if (listed.join(',') !== healthServices.join(',')) problems.push(`${svc.name}: HEALTH_SERVICES=${listed.join(',')} but the manifest's services are ${healthServices.join(',')}`);
      } else if (svc.kind === 'service') {
        if (!(test.includes('rpc') && test.includes(svc.name))) problems.push(`${svc.name}: healthcheck should be "node deploy/healthcheck.mjs rpc ${svc.name}" (is ${test.join(' ')})`);
      }
    }
    const infra = compose.services ?? {};
    if (!String(infra.postgres?.image).startsWith('postgres:15')) problems.push('postgres:15 is missing');
    if (!String(infra.redis?.image).startsWith('redis:7')) problems.push('redis:7 is missing');
    const nats = commandOf(infra.nats);
    if (!String(infra.nats?.image).startsWith('nats:2.10') || !nats.includes('-js') || !nats.includes('-sd')) problems.push('nats:2.10 with -js -sd <volume> is missing');
    if (!/^chrislusf\/seaweedfs:\d+\.\d+/.test(String(infra.seaweedfs?.image))) problems.push('seaweedfs (chrislusf/seaweedfs:<version>) is missing');
    if (!String(infra.mailpit?.image).startsWith('axllent/mailpit')) problems.push('mailpit is missing');
    for (const name of ['postgres', 'redis', 'nats', 'seaweedfs', 'mailpit']) if (infra[name] && !infra[name].healthcheck) problems.push(`${name}: no healthcheck`);
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// docker-compose.prod.yml: the properties a machine people use must keep (issue 36), on the merged file

/** Every `${NAME...}` a compose value reads from .env. */
const variablesOf = (value: unknown): string[] => [...JSON.stringify(value ?? null).matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
/** The bucket names a shell loop creates (`for b in a b c; do ... s3.bucket.create ...`). */
const bucketLoop = (command: string): string[] => (/for b in ([^;]+);[^]*s3\.bucket\.create/.exec(command)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
const rolesScript = readFileSync(join(root, 'deploy', 'compose', 'postgres-roles.sh'), 'utf8');

describe(`deploy consistency: ${PROD_COMPOSE_FILE} (production)`, () => {
  const app = () => composeAppServices(prodCompose);
  const envOf = (name: string) => composeEnv(prodCompose.services?.[name]);
  const rawEnv = (name: string): Record<string, string> => prodCompose.services?.[name]?.environment ?? {};

  it('takes payments through Stripe: no local payment provider, its allowance or its webhook loop', async () => {
    const { paymentProviderOf } = await import(join(root, 'apps', 'billing', 'src', 'config.ts'));
    const problems: string[] = [];
    for (const name of ['billing', 'billing-migrate']) {
      const env = rawEnv(name);
      for (const key of ['PAYMENT_PROVIDER', 'ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION', 'LOCAL_WEBHOOK_SECRET', 'BILLING_WEBHOOK_URL']) if (key in env) problems.push(`${name}: ${key} is set (the local provider gives every plan away)`);
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']) if (!variablesOf(env[key]).includes(key)) problems.push(`${name}: ${key} must come from .env (\${${key}:?...})`);
      // What billing decides from this environment, as its own schema and paymentProviderOf read it.
      const parsed = schemas.get('billing')!.shape;
      const values = envOf(name);
      if (values.NODE_ENV !== 'production') problems.push(`${name}: NODE_ENV must be production (is ${String(values.NODE_ENV)})`);
      const config = Object.fromEntries(['NODE_ENV', 'PAYMENT_PROVIDER', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'].map((key) => [key, parsed[key]!.safeParse(values[key]).data]));
      if (paymentProviderOf(config) !== 'stripe') problems.push(`${name}: the provider in use would be ${paymentProviderOf(config)}`);
    }
    expect(problems).toEqual([]);
  });

  it('sends Secure cookies and trusts the proxy in front of the gateway', () => {
    const env = envOf('gateway');
    const info = schemas.get('gateway')!;
    expect({ COOKIE_SECURE: env.COOKIE_SECURE, secure: info.shape.COOKIE_SECURE!.safeParse(env.COOKIE_SECURE).data }).toEqual({ COOKIE_SECURE: 'true', secure: true });
    const trust = info.shape.TRUST_PROXY!.safeParse(env.TRUST_PROXY);
    expect({ TRUST_PROXY: env.TRUST_PROXY, parsed: trust.success && trust.data !== false && trust.data !== true }).toEqual({ TRUST_PROXY: env.TRUST_PROXY, parsed: true });
  });

  it('connects every service and its migration as its own PostgreSQL role, never the superuser', () => {
    const problems: string[] = [];
    const databases = services.filter((s) => s.database).map((s) => s.database!);
    for (const svc of services.filter((s) => s.database)) {
      for (const name of [svc.name, `${svc.name}-migrate`]) {
        const raw = String(rawEnv(name).DATABASE_URL ?? '');
        const url = new URL(interpolated(raw));
        const role = `lv_${svc.database}`;
        if (url.username !== role) problems.push(`${name}: DATABASE_URL connects as ${url.username || '(none)'}, not ${role}`);
        if (url.pathname !== `/${role}`) problems.push(`${name}: DATABASE_URL names ${url.pathname}, not /${role}`);
        const password = `PG_PASSWORD_${svc.database!.toUpperCase()}`;
        if (variablesOf(raw).join() !== password) problems.push(`${name}: DATABASE_URL's password must be \${${password}} (is ${variablesOf(raw).join() || 'none'})`);
      }
    }
    for (const [name, s] of Object.entries(prodCompose.services ?? {}) as [string, Json][]) {
      if (name !== 'postgres' && variablesOf(s.environment).includes('POSTGRES_PASSWORD')) problems.push(`${name}: holds the superuser's POSTGRES_PASSWORD`);
    }
    const postgres = prodCompose.services?.postgres ?? {};
    if (!(postgres.volumes ?? []).includes('./deploy/compose/postgres-roles.sh:/docker-entrypoint-initdb.d/10-service-roles.sh:ro')) problems.push('postgres: must mount deploy/compose/postgres-roles.sh into /docker-entrypoint-initdb.d');
    for (const db of databases) if (!variablesOf(postgres.environment).includes(`PG_PASSWORD_${db.toUpperCase()}`)) problems.push(`postgres: PG_PASSWORD_${db.toUpperCase()} is not passed to the roles script`);
    const scripted = (/for database in ([^;]+);/.exec(rolesScript)?.[1] ?? '').trim().split(/\s+/).sort();
    if (scripted.join() !== [...databases].sort().join()) problems.push(`deploy/compose/postgres-roles.sh makes roles for ${scripted.join(', ')}, the services' databases are ${[...databases].sort().join(', ')}`);
    for (const grant of ['NOSUPERUSER NOCREATEDB NOCREATEROLE', 'CREATE DATABASE %I OWNER %I', 'REVOKE ALL ON DATABASE %I FROM PUBLIC']) if (!rolesScript.includes(grant)) problems.push(`deploy/compose/postgres-roles.sh: "${grant}" is missing`);
    expect(problems).toEqual([]);
  });

  it('runs Redis with a password, which every REDIS_URL carries and no command line shows', () => {
    const problems: string[] = [];
    const redis = prodCompose.services?.redis ?? {};
    const command = commandOf(redis).join(' ');
    if (!/requirepass/.test(command) || !command.includes('$$REDIS_PASSWORD')) problems.push(`redis: must set requirepass from $REDIS_PASSWORD (command: ${command})`);
    if (!variablesOf(redis.environment?.REDIS_PASSWORD).includes('REDIS_PASSWORD')) problems.push('redis: REDIS_PASSWORD must come from .env');
    if (!JSON.stringify(redis.healthcheck?.test ?? '').includes('REDISCLI_AUTH')) problems.push('redis: the healthcheck must authenticate (REDISCLI_AUTH)');
    for (const [name] of app()) {
      const url = rawEnv(name).REDIS_URL;
      if (url === undefined) continue;
      if (!variablesOf(url).includes('REDIS_PASSWORD') || !new URL(interpolated(String(url))).password) problems.push(`${name}: REDIS_URL has no password (${String(url)})`);
    }
    // Every process of the manifest reads REDIS_URL (commonConfigSchema), so each was looked at above.
    for (const svc of services) if (rawEnv(svc.name).REDIS_URL === undefined) problems.push(`${svc.name}: no REDIS_URL`);
    expect(problems).toEqual([]);
  });

  it('runs released images by version tag, builds nothing, and sends mail to a provider instead of Mailpit', () => {
    const problems: string[] = [];
    for (const [name, s] of Object.entries(prodCompose.services ?? {}) as [string, Json][]) {
      if (s.profiles?.length) continue; // not started unless asked for
      const image = String(s.image ?? '');
      if (s.build) problems.push(`${name}: builds an image on the production machine`);
      if (isAppImage(image)) {
        if (variablesOf(image).join() !== 'LEGACY_VAULT_IMAGE') problems.push(`${name}: the app image must be \${LEGACY_VAULT_IMAGE} (is ${image})`);
      } else if (!/:v?\d+\.\d+[\w.-]*$/.test(image.split('@')[0]!)) problems.push(`${name}: image ${image} has no version tag`);
    }
    if (!(prodCompose.services?.mailpit?.profiles ?? []).length) problems.push('mailpit: must not start in production (give it a profile)');
    const notifications = envOf('notifications');
    if (notifications.SMTP_HOST === 'mailpit' || !variablesOf(rawEnv('notifications').SMTP_HOST).includes('SMTP_HOST')) problems.push('notifications: SMTP_HOST must come from .env');
    if (prodCompose.services?.notifications?.depends_on?.mailpit) problems.push('notifications: depends on mailpit, which does not start');
    expect(problems).toEqual([]);
  });

  it('gives the apps the bucket-scoped S3 key, never an administrator\'s, on the buckets the code names', async () => {
    const { ALL_BUCKETS } = await import('@lv/contracts');
    const { APP_BUCKETS, s3Identities } = await import('../dev/compose-secrets.mjs');
    const problems: string[] = [];
    const buckets = [...ALL_BUCKETS].sort().join();
    if ([...APP_BUCKETS].sort().join() !== buckets) problems.push(`compose-secrets.mjs APP_BUCKETS (${APP_BUCKETS.join(', ')}) differ from ALL_BUCKETS (${buckets})`);
    const example = exampleSecrets.find((x: Json) => x.metadata?.name === 'lv-seaweedfs-s3')?.stringData?.['s3.json'];
    const identitySets: [string, Json][] = [['compose-secrets.mjs s3Identities', s3Identities({ S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' })], ['secrets.example.yaml lv-seaweedfs-s3', example ? JSON.parse(example) : { identities: [] }]];
    for (const [where, config] of identitySets) {
      const identities: Json[] = config.identities ?? [];
      if (identities.length !== 1) problems.push(`${where}: one identity (the apps'), not ${identities.length}`);
      for (const identity of identities) {
        const actions: string[] = identity.actions ?? [];
        for (const action of actions) {
          const [verb, bucket] = action.split(':');
          if (!['Read', 'Write', 'List'].includes(verb!)) problems.push(`${where}: ${identity.name} may ${action}`);
          if (!bucket || !(ALL_BUCKETS as readonly string[]).includes(bucket)) problems.push(`${where}: ${identity.name}'s ${action} is not scoped to one of the code's buckets`);
        }
      }
    }
    for (const [where, command] of [
      ['compose s3-buckets', commandOf(compose.services?.['s3-buckets']).join(' ')],
      ['k8s Job s3-buckets', containerCommand(podOf(find('Job', 's3-buckets'))?.containers?.[0] ?? {}).join(' ')],
    ] as const) if (bucketLoop(command).sort().join() !== buckets) problems.push(`${where} creates ${bucketLoop(command).join(', ') || 'nothing'}, the code's buckets are ${buckets}`);
    for (const [name] of app()) {
      const env = rawEnv(name);
      if (env.S3_ACCESS_KEY !== undefined && variablesOf(env.S3_ACCESS_KEY).join() !== 'S3_ACCESS_KEY') problems.push(`${name}: S3_ACCESS_KEY must be the apps' key \${S3_ACCESS_KEY}`);
    }
    for (const d of byKind('Deployment')) for (const c of appContainers(podOf(d))) if (JSON.stringify(c).includes('lv-seaweedfs')) problems.push(`Deployment ${d.metadata.name} reads SeaweedFS's own Secrets`);
    expect(problems).toEqual([]);
  });

  it('reads from .env only what compose-secrets.mjs generates or the README tells the operator to write', async () => {
    const { secretGenerators } = await import('../dev/compose-secrets.mjs');
    const generated = Object.keys(secretGenerators());
    const readme = readFileSync(join(root, 'deploy', 'README.md'), 'utf8');
    const problems: string[] = [];
    for (const [file, content] of [['docker-compose.yml', compose], [PROD_COMPOSE_FILE, prodOverride]] as const) {
      for (const name of new Set(variablesOf(content))) {
        if (generated.includes(name)) continue;
        if (!(name in OPERATOR_VALUES) && !/^SMTP_SECURE$/.test(name)) problems.push(`${file}: \${${name}} is neither generated by compose-secrets.mjs nor an operator's value`);
        else if (!readme.includes(`\`${name}\``)) problems.push(`${file}: deploy/README.md does not tell the operator to set \`${name}\``);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('deploy consistency: deploy/k8s', () => {
  it('applies every manifest file and knows the app image', () => {
    const problems: string[] = [];
    const files = readdirSync(k8sDir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml' && f !== 'secrets.example.yaml');
    for (const f of files) if (!k8sFiles.includes(f)) problems.push(`${f} is not listed in kustomization.yaml resources`);
    for (const f of k8sFiles) if (!existsSync(join(k8sDir, f))) problems.push(`kustomization.yaml lists ${f}, which does not exist`);
    if (!(kustomization.images ?? []).some((i: Json) => i.name === APP_IMAGE && i.newTag)) problems.push(`kustomization.yaml must pin the ${APP_IMAGE} image (images: name ${APP_IMAGE}, newTag)`);
    expect(problems).toEqual([]);
  });

  it('runs every process of the manifest as a Deployment of the app image, and nothing else from it', () => {
    const problems: string[] = [];
    for (const svc of services) {
      const d = find('Deployment', svc.name);
      if (!d) { problems.push(`${svc.name}: no Deployment`); continue; }
      const [c, ...more] = appContainers(podOf(d));
      if (!c || more.length) { problems.push(`${svc.name}: needs exactly one container with image ${APP_IMAGE}`); continue; }
      if (containerCommand(c).join(' ') !== serving(svc)) problems.push(`${svc.name}: runs "${containerCommand(c).join(' ')}", expected "${serving(svc)}"`);
      const labels = d.spec?.template?.metadata?.labels ?? {};
      const selector = d.spec?.selector?.matchLabels ?? {};
      if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) problems.push(`${svc.name}: selector does not match the pod labels`);
      const replicas = d.spec?.replicas;
      const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === svc.name);
      if (hpa && replicas !== undefined) problems.push(`${svc.name}: has an HPA, so the Deployment must not set replicas`);
      if (!hpa && !(replicas >= 2)) problems.push(`${svc.name}: needs at least 2 replicas (or an HPA) to scale past one machine`);
      if (hpa && !(hpa.spec.minReplicas >= 2)) problems.push(`${svc.name}: HPA minReplicas must be at least 2`);
      const pdb = byKind('PodDisruptionBudget').find((p) => Object.entries(p.spec?.selector?.matchLabels ?? { none: 'none' }).every(([k, v]) => labels[k] === v));
      if (!pdb) problems.push(`${svc.name}: no PodDisruptionBudget selects its pods`);
      if (svc.database) {
        const job = find('Job', `${svc.name}-migrate`);
        const jc = job && appContainers(podOf(job))[0];
        if (!jc) problems.push(`${svc.name}: no Job ${svc.name}-migrate running the app image`);
        else if (containerCommand(jc).join(' ') !== `node ${svc.entry} migrate`) problems.push(`${svc.name}-migrate: runs "${containerCommand(jc).join(' ')}", expected "node ${svc.entry} migrate"`);
        else {
          const ref = (container: Json) => JSON.stringify((container.env ?? []).find((e: Json) => e.name === 'DATABASE_URL')?.valueFrom ?? null);
          if (ref(jc) !== ref(c)) problems.push(`${svc.name}-migrate: DATABASE_URL comes from ${ref(jc)}, the Deployment's from ${ref(c)}`);
        }
      }
    }
    if (!byKind('HorizontalPodAutoscaler').some((h) => h.spec?.scaleTargetRef?.name === services.find((s) => s.kind === 'gateway')!.name)) problems.push('the gateway has no HorizontalPodAutoscaler');
    const known = new Set(services.map((s) => s.name));
    for (const d of byKind('Deployment')) if (appContainers(podOf(d)).length && !known.has(d.metadata.name)) problems.push(`Deployment ${d.metadata.name} runs the app image but is not in tools/dev/services.mjs`);
    for (const j of byKind('Job')) {
      if (!appContainers(podOf(j)).length) continue;
      const svc = services.find((s) => `${s.name}-migrate` === j.metadata.name);
      if (!svc?.database) problems.push(`Job ${j.metadata.name} runs the app image but is not the migration of a service with a database`);
    }
    expect(problems).toEqual([]);
  });

  it("sets every variable each app's schema requires, and none it does not know", () => {
    const problems: string[] = [];
    for (const svc of services) {
      const info = schemas.get(svc.name)!;
      const d = find('Deployment', svc.name);
      const c = d && appContainers(podOf(d))[0];
      if (c) {
        const where = `k8s Deployment ${svc.name}`;
        const env = k8sEnv(c, problems, where);
        problems.push(...checkEnv(where, env, info, DEPLOY_ENV_ALLOW_LIST));
        problems.push(...checkMountedPaths(where, env, k8sMounts(podOf(d), c, problems, where)));
      }
      const job = svc.database ? find('Job', `${svc.name}-migrate`) : undefined;
      const jc = job && appContainers(podOf(job))[0];
      if (jc) {
        const where = `k8s Job ${svc.name}-migrate`;
        const env = k8sEnv(jc, problems, where);
        problems.push(...checkEnv(where, env, { ...info, required: ['DATABASE_URL'], localDefaults: [] }, DEPLOY_ENV_ALLOW_LIST));
        problems.push(...checkMountedPaths(where, env, k8sMounts(podOf(job), jc, problems, where)));
      }
    }
    expect(problems).toEqual([]);
  });

  it('lines up ports and probes: gateway PORT = containerPort = Service targetPort = liveness port; readiness on the ops port', () => {
    const problems: string[] = [];
    for (const svc of services) {
      const d = find('Deployment', svc.name);
      const c = d && appContainers(podOf(d))[0];
      if (!c) continue;
      if (!c.readinessProbe) problems.push(`${svc.name}: no readinessProbe`);
      if (svc.kind !== 'gateway') {
        // This pod's own readiness on its ops listener (a NATS health request may be answered by
        // another replica of the queue group); the rpc exec probe is still accepted for a service.
        const opsPort = Number(k8sEnv(c, [], '').OPS_HTTP_PORT);
        const ready = c.readinessProbe?.httpGet;
        const cmd = (c.readinessProbe?.exec?.command ?? []).join(' ');
        const viaOps = ready && ready.path === '/health/ready' && resolvePort(c, ready.port) === opsPort;
        const viaRpc = svc.kind === 'service' && cmd.includes(`rpc ${svc.name}`);
        if (!viaOps && !viaRpc) problems.push(`${svc.name}: readinessProbe must GET /health/ready on OPS_HTTP_PORT ${opsPort} (is ${JSON.stringify(c.readinessProbe ?? null)})`);
        const live = c.livenessProbe?.httpGet;
        if (viaOps && !(live && live.path === '/health/live' && resolvePort(c, live.port) === opsPort)) problems.push(`${svc.name}: livenessProbe must GET /health/live on OPS_HTTP_PORT ${opsPort}`);
      }
      if (svc.kind !== 'gateway') continue;
      const env = k8sEnv(c, [], '');
      const port = Number(env.PORT);
      if (!Number.isInteger(port) || port <= 0) { problems.push(`${svc.name}: PORT must be set to a number (is ${String(env.PORT)})`); continue; }
      if (env.HOST !== '0.0.0.0') problems.push(`${svc.name}: HOST must be 0.0.0.0 in a pod (is ${String(env.HOST)})`);
      const listed = String(env.HEALTH_SERVICES ?? '').split(',').map((x) => x.trim()).filter(Boolean).sort();
      if (listed.join(',') !== healthServices.join(',')) problems.push(`${svc.name}: HEALTH_SERVICES=${listed.join(',')} but the manifest's services are ${healthServices.join(',')}`);
      const containerPorts = (c.ports ?? []).map((p: Json) => p.containerPort);
      if (!containerPorts.includes(port)) problems.push(`${svc.name}: PORT ${port} is not a containerPort (${containerPorts.join(', ') || 'none'})`);
      // Its own readiness (NATS, Redis) on the ops listener: /api/health fans out to every service, and
      // one service down must not take the whole site out of the Service.
      const opsPort = Number(env.OPS_HTTP_PORT);
      const probe = c.readinessProbe?.httpGet;
      if (!probe || probe.path !== '/health/ready' || resolvePort(c, probe.port) !== opsPort) problems.push(`${svc.name}: readinessProbe must GET /health/ready on OPS_HTTP_PORT ${opsPort}, not the fan-out /api/health (is ${JSON.stringify(probe ?? null)})`);
      if (!containerPorts.includes(opsPort)) problems.push(`${svc.name}: OPS_HTTP_PORT ${opsPort} is not a containerPort (${containerPorts.join(', ') || 'none'})`);
      for (const kind of ['livenessProbe', 'startupProbe']) {
        const p = c[kind];
        const target = p?.httpGet?.port ?? p?.tcpSocket?.port;
        if (p && target !== undefined && resolvePort(c, target) !== port) problems.push(`${svc.name}: ${kind} targets ${target}, not PORT ${port}`);
      }
      const labels = d.spec?.template?.metadata?.labels ?? {};
      const svcs = byKind('Service').filter((s) => Object.entries(s.spec?.selector ?? { none: 'none' }).every(([k, v]) => labels[k] === v));
      if (!svcs.length) problems.push(`${svc.name}: no Service selects its pods`);
      for (const s of svcs) {
        for (const p of s.spec.ports ?? []) {
          const target = resolvePort(c, p.targetPort ?? p.port);
          if (target !== port) problems.push(`Service ${s.metadata.name}: port ${p.name ?? p.port} targets ${String(p.targetPort)} (= ${String(target)}), but the gateway listens on PORT ${port}`);
        }
      }
      for (const ing of byKind('Ingress')) {
        for (const rule of ing.spec?.rules ?? []) {
          for (const path of rule.http?.paths ?? []) {
            const backend = path.backend?.service;
            const s = svcs.find((x) => x.metadata.name === backend?.name);
            if (!s) { problems.push(`Ingress ${ing.metadata.name}: backend ${backend?.name} is not the gateway's Service`); continue; }
            const ok = (s.spec.ports ?? []).some((p: Json) => (backend.port?.name ? p.name === backend.port.name : p.port === backend.port?.number));
            if (!ok) problems.push(`Ingress ${ing.metadata.name}: Service ${s.metadata.name} has no port ${JSON.stringify(backend.port)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps every process's ops listener (metrics, health) off the public path: no Service or Ingress routes to OPS_HTTP_PORT", () => {
    const problems: string[] = [];
    for (const svc of services) {
      const d = find('Deployment', svc.name);
      const c = d && appContainers(podOf(d))[0];
      if (!c) continue;
      const opsPort = Number(k8sEnv(c, [], '').OPS_HTTP_PORT);
      if (!Number.isInteger(opsPort) || opsPort <= 0) { problems.push(`${svc.name}: OPS_HTTP_PORT is not set (lv-config)`); continue; }
      const labels = d.spec?.template?.metadata?.labels ?? {};
      for (const service of byKind('Service').filter((x) => Object.entries(x.spec?.selector ?? { none: 'none' }).every(([k, v]) => labels[k] === v))) {
        for (const p of service.spec.ports ?? []) {
          if (resolvePort(c, p.targetPort ?? p.port) === opsPort) problems.push(`Service ${service.metadata.name} exposes ${svc.name}'s ops port ${opsPort}`);
        }
      }
      const scrapePort = d.spec?.template?.metadata?.annotations?.['prometheus.io/port'];
      if (scrapePort !== undefined && scrapePort !== String(opsPort)) problems.push(`${svc.name}: the pod's prometheus.io/port annotation (${scrapePort}) must name OPS_HTTP_PORT ${opsPort}`);
    }
    expect(problems).toEqual([]);
  });

  it('runs NATS (3 nodes, JetStream) and SeaweedFS (3 masters, 3 volume servers, 2 filers) with disruption budgets, and documents every Secret it references', () => {
    const problems: string[] = [];
    const nats = find('StatefulSet', 'nats');
    if (nats?.spec?.replicas !== 3) problems.push('StatefulSet nats must have 3 replicas');
    const natsConf = byKind('ConfigMap').map((cm) => Object.values(cm.data ?? {}).join('\n')).find((t) => t.includes('jetstream')) ?? '';
    if (!/cluster\s*\{/.test(natsConf) || !/store_dir/.test(natsConf)) problems.push('the NATS config needs a cluster block and JetStream file storage');
    if (find('StatefulSet', 'seaweedfs-master')?.spec?.replicas !== 3) problems.push('StatefulSet seaweedfs-master must have 3 replicas (a RAFT majority survives one lost node)');
    if (find('StatefulSet', 'seaweedfs-volume')?.spec?.replicas !== 3) problems.push('StatefulSet seaweedfs-volume must have 3 replicas (every file on two of them)');
    if (!(find('Deployment', 'seaweedfs-filer')?.spec?.replicas >= 2)) problems.push('Deployment seaweedfs-filer needs at least 2 replicas');
    for (const sts of byKind('StatefulSet')) {
      const labels = sts.spec?.template?.metadata?.labels ?? {};
      if (!byKind('PodDisruptionBudget').some((p) => Object.entries(p.spec?.selector?.matchLabels ?? { none: 'none' }).every(([k, v]) => labels[k] === v))) problems.push(`StatefulSet ${sts.metadata.name}: no PodDisruptionBudget`);
      if (!byKind('Service').some((s) => s.metadata.name === sts.spec.serviceName && s.spec.clusterIP === 'None')) problems.push(`StatefulSet ${sts.metadata.name}: headless Service ${sts.spec.serviceName} is missing`);
    }
    for (const name of ['postgres', 'redis']) {
      if (manifests.some((m) => ['StatefulSet', 'Deployment'].includes(m.kind) && m.metadata.name.includes(name))) problems.push(`${name} must be a managed service referenced by a Secret, not run in the cluster`);
    }
    // Every Secret referenced must be described in secrets.example.yaml, with the key used.
    const documented = new Map<string, Set<string>>(exampleSecrets.map((s) => [s.metadata.name, new Set(Object.keys({ ...s.stringData, ...s.data }))]));
    const need = (name: string, key: string | undefined, where: string) => {
      if (!documented.has(name)) problems.push(`${where}: Secret ${name} is not described in secrets.example.yaml`);
      else if (key && !documented.get(name)!.has(key)) problems.push(`${where}: Secret ${name} has no key ${key} in secrets.example.yaml`);
    };
    const visit = (node: Json, where: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.secretKeyRef) need(node.secretKeyRef.name, node.secretKeyRef.key, where);
      if (node.secret?.secretName) need(node.secret.secretName, undefined, where);
      if (node.secretRef?.name) need(node.secretRef.name, undefined, where);
      for (const v of Array.isArray(node) ? node : Object.values(node)) visit(v, where);
    };
    for (const m of manifests) visit(m, `${m.kind} ${m.metadata?.name}`);
    for (const ing of byKind('Ingress')) for (const tls of ing.spec?.tls ?? []) need(tls.secretName, undefined, `Ingress ${ing.metadata.name}`);
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// A service is an app with a `*.definition.ts` run by the platform's runService. Everything above
// starts from the manifest, so a service missing from it would go unchecked: this starts from the
// code instead, and names every place outside the service's folder that still lacks it (README,
// "Adding a service").

interface DefinedService {
  dir: string;
  file: string;
  definition: { name: string; configSchema: unknown; migrations: unknown[]; setup: unknown };
}

const definedServices: DefinedService[] = [];

beforeAll(async () => {
  for (const dir of readdirSync(join(root, 'apps'))) {
    const src = join(root, 'apps', dir, 'src');
    if (!existsSync(src)) continue;
    for (const file of readdirSync(src).filter((f) => f.endsWith('.definition.ts'))) {
      const mod = await import(join(src, file));
      const exported = Object.values(mod).filter((v: Json) => v && typeof v === 'object' && typeof v.name === 'string' && typeof v.setup === 'function');
      if (exported.length !== 1) throw new Error(`apps/${dir}/src/${file} must export exactly one service definition (found ${exported.length})`);
      definedServices.push({ dir, file, definition: exported[0] as DefinedService['definition'] });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Pods: which selectors reach them, and how they run

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];
const workloads = () => manifests.filter((m) => WORKLOAD_KINDS.includes(m.kind));
const podLabels = (workload: Json): Record<string, string> =>
  (workload.spec?.template ?? workload.spec?.jobTemplate?.spec?.template)?.metadata?.labels ?? {};
const isJobPod = (workload: Json) => workload.kind === 'Job' || workload.kind === 'CronJob';

/** Whether a label selector (matchLabels and matchExpressions, or a Service's plain map) selects these labels. */
function selects(selector: Json, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const plain = !('matchLabels' in selector) && !('matchExpressions' in selector);
  const matchLabels: Record<string, string> = plain ? selector : selector.matchLabels ?? {};
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return (plain ? [] : selector.matchExpressions ?? []).every((e: Json) => {
    const has = e.key in labels;
    switch (e.operator) {
      case 'In': return has && e.values.includes(labels[e.key]);
      case 'NotIn': return !has || !e.values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: throw new Error(`unknown selector operator ${String(e.operator)}`);
    }
  });
}

/** Mode 0440: the owner and the pod's group (fsGroup) read a mounted Secret, nobody else. */
const SECRET_MODE = 0o440;

describe('deploy consistency: deploy/k8s pods', () => {
  it('lets PodDisruptionBudgets, Services and Deployments select only long-running pods, never a Job\'s', () => {
    const problems: string[] = [];
    const jobs = workloads().filter(isJobPod);
    const longRunning = workloads().filter((w) => !isJobPod(w));
    expect(jobs.length).toBeGreaterThanOrEqual(9); // the eight migrations and the bucket set-up
    for (const pdb of byKind('PodDisruptionBudget')) {
      for (const job of jobs) if (selects(pdb.spec?.selector, podLabels(job))) problems.push(`PodDisruptionBudget ${pdb.metadata.name} selects the pods of Job ${job.metadata.name}: a finished Job's pod blocks node drains`);
      const covered = longRunning.filter((w) => selects(pdb.spec?.selector, podLabels(w)));
      if (covered.length !== 1) problems.push(`PodDisruptionBudget ${pdb.metadata.name} must select the pods of exactly one workload (selects ${covered.map((w) => `${w.kind} ${w.metadata.name}`).join(', ') || 'none'})`);
    }
    for (const w of longRunning) if (!byKind('PodDisruptionBudget').some((pdb) => selects(pdb.spec?.selector, podLabels(w)))) problems.push(`${w.kind} ${w.metadata.name} has no PodDisruptionBudget`);
    for (const s of byKind('Service')) for (const job of jobs) if (s.spec?.selector && selects(s.spec.selector, podLabels(job))) problems.push(`Service ${s.metadata.name} selects the pods of Job ${job.metadata.name}`);
    for (const w of longRunning) for (const job of jobs) if (selects(w.spec?.selector, podLabels(job))) problems.push(`${w.kind} ${w.metadata.name}'s selector matches the pods of Job ${job.metadata.name}`);
    expect(problems).toEqual([]);
  });

  it("has deploy/README.md's release steps delete and wait for every migration Job", () => {
    const readme = readFileSync(join(root, 'deploy', 'README.md'), 'utf8');
    const migrations = byKind('Job').filter((j) => j.metadata.name.endsWith('-migrate'));
    expect(migrations.map((j) => j.metadata.name).sort()).toEqual(services.filter((s) => s.database).map((s) => `${s.name}-migrate`).sort());
    /** The Jobs one `kubectl ... job` command names, by name or by `-l key=value`. */
    const jobsOf = (command: string) => {
      const selector = /\s-l\s+([\w./-]+)=([\w.-]+)/.exec(command);
      if (selector) return migrations.filter((j) => j.spec.template.metadata.labels?.[selector[1]!] === selector[2] && j.metadata.labels?.[selector[1]!] === selector[2]);
      const named = [...command.matchAll(/(?:job\/|\s)([a-z-]+-migrate)\b/g)].map((m) => m[1]);
      return migrations.filter((j) => named.includes(j.metadata.name));
    };
    const commands = readme.split('\n').filter((line) => /^kubectl\b.*\bjob\b/.test(line));
    for (const verb of ['delete job', 'wait --for=condition=complete job']) {
      const line = commands.find((c) => c.includes(verb));
      expect({ verb, found: Boolean(line) }).toEqual({ verb, found: true });
      expect({ verb, jobs: jobsOf(line!).map((j) => j.metadata.name).sort() }).toEqual({ verb, jobs: migrations.map((j) => j.metadata.name).sort() });
    }
  });

  it('runs every pod with seccomp RuntimeDefault, no service-account token, and Secrets mounted 0440 for its group', () => {
    const problems: string[] = [];
    expect(workloads().length).toBeGreaterThanOrEqual(20);
    for (const w of workloads()) {
      const where = `${w.kind} ${w.metadata.name}`;
      const pod = podOf(w);
      const context = pod.securityContext ?? {};
      if (pod.automountServiceAccountToken !== false) problems.push(`${where}: automountServiceAccountToken must be false (no process calls the Kubernetes API)`);
      if (context.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${where}: securityContext.seccompProfile must be { type: RuntimeDefault } (is ${JSON.stringify(context.seccompProfile ?? null)})`);
      const secretVolumes = (pod.volumes ?? []).filter((v: Json) => v.secret || v.projected?.sources?.some((src: Json) => src.secret));
      for (const v of secretVolumes) {
        const mode = v.secret ? v.secret.defaultMode : v.projected.defaultMode;
        if (mode !== SECRET_MODE) problems.push(`${where}: Secret volume ${v.name} must have defaultMode 0440 (is ${mode === undefined ? 'unset, 0644' : `0${Number(mode).toString(8)}`})`);
        for (const item of [...(v.secret?.items ?? []), ...(v.projected?.sources ?? []).flatMap((src: Json) => src.secret?.items ?? [])]) {
          if (item.mode !== undefined && item.mode !== SECRET_MODE) problems.push(`${where}: Secret volume ${v.name} item ${item.key} must not override the mode (is 0${Number(item.mode).toString(8)})`);
        }
      }
      if (secretVolumes.length) {
        if (typeof context.fsGroup !== 'number') problems.push(`${where}: mounts Secrets but sets no fsGroup: mode 0440 files stay root's and the process cannot read them`);
        else if (context.runAsGroup !== undefined && context.runAsGroup !== context.fsGroup) problems.push(`${where}: fsGroup ${context.fsGroup} is not the process's group ${context.runAsGroup}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Network: every flow denied by default; each process may send exactly what its environment needs

/** A flow as "target:port": a workload's name, or "outside" (a managed service or provider beyond the cluster). */
type Flow = string;

/**
 * Traffic of clustered servers that no address in their environment names: NATS routes, and SeaweedFS's
 * roles once the masters have told them where the others are (the masters and filers dial the volume
 * servers, volume servers copy replicas to each other, the masters' maintenance and the bucket shell reach
 * a filer's gRPC port, filers follow each other's metadata).
 */
const CLUSTER_PEERS: Record<string, Flow[]> = {
  nats: ['nats:4222', 'nats:6222'],
  'seaweedfs-master': ['seaweedfs-volume:8080', 'seaweedfs-volume:18080', 'seaweedfs-filer:18888'],
  'seaweedfs-volume': ['seaweedfs-volume:8080', 'seaweedfs-volume:18080'],
  'seaweedfs-filer': ['seaweedfs-volume:8080', 'seaweedfs-volume:18080', 'seaweedfs-filer:18888'],
  's3-buckets': ['seaweedfs-filer:18888'],
};

/** SeaweedFS flags naming masters (host:port lists); each port's gRPC twin is 10000 above it. */
const SEAWEEDFS_MASTER_FLAGS = /^-(?:master|mserver|peers)=(.+)$/;

/** The workload whose pods a Service (by name) selects, and the container port its port number leads to. */
function serviceTarget(host: string, port: number): Flow {
  const service = find('Service', host);
  if (!service) throw new Error(`no Service ${host}`);
  const target = workloads().find((w) => !isJobPod(w) && selects(service.spec.selector, podLabels(w)));
  if (!target) throw new Error(`Service ${host} selects no workload`);
  const servicePort = (service.spec.ports ?? []).find((p: Json) => p.port === port);
  if (!servicePort) throw new Error(`Service ${host} has no port ${port}`);
  const container = podOf(target).containers.find((c: Json) => resolvePort(c, servicePort.targetPort ?? port) !== undefined);
  return `${target.metadata.name}:${resolvePort(container, servicePort.targetPort ?? port)}`;
}

const urlFlow = (url: string): Flow => { const u = new URL(url); return serviceTarget(u.hostname, Number(u.port)); };
/** A pod of a StatefulSet by its stable name (`seaweedfs-master-0.seaweedfs-master-headless`) leads to that Service. */
const serviceOfHost = (host: string) => (host.includes('.') ? host.split('.')[1]! : host);

/** What a workload's containers need to reach, read from what they are given: variables, and URLs in commands. */
function neededFlows(workload: Json): Flow[] {
  const flows = new Set<Flow>(CLUSTER_PEERS[workload.metadata.name] ?? []);
  for (const c of podOf(workload).containers ?? []) {
    const env = new Map<string, string | undefined>((c.env ?? []).map((e: Json) => [e.name, e.value]));
    const has = (name: string) => env.has(name);
    if (has('DATABASE_URL') || has('POSTGRES_URL') || has('WEED_POSTGRES2_HOSTNAME')) flows.add('outside:5432');
    if (has('REDIS_URL')) flows.add('outside:6379');
    if (has('NATS_USER')) flows.add(urlFlow(lvConfig.NATS_URL ?? 'nats://lv-config-has-no-NATS_URL:0'));
    if (has('SMTP_HOST')) ['outside:465', 'outside:587'].forEach((f) => flows.add(f)); // SMTPS or STARTTLS, the provider's choice
    if (has('STRIPE_SECRET_KEY')) flows.add('outside:443');
    if (has('BACKUP_REPOSITORY')) ['outside:443', 'outside:22'].forEach((f) => flows.add(f)); // restic over S3 (HTTPS) or SFTP
    for (const name of ['S3_ENDPOINT', 'VAULT_MEDIA_URL', 'COURT_JOURNAL_URL']) if (env.get(name)) flows.add(urlFlow(env.get(name)!));
    for (const url of containerCommand(c).join(' ').match(/https?:\/\/[a-z-]+:\d+/g) ?? []) flows.add(urlFlow(url));
    for (const arg of containerCommand(c).join(' ').split(/\s+/)) {
      for (const address of SEAWEEDFS_MASTER_FLAGS.exec(arg)?.[1]?.split(',') ?? []) {
        const [host, port] = address.split(':');
        flows.add(serviceTarget(serviceOfHost(host!), Number(port)));
        flows.add(serviceTarget(serviceOfHost(host!), Number(port) + 10000));
      }
    }
  }
  return [...flows].sort();
}

const networkPolicies = () => byKind('NetworkPolicy');
const ruleFlows = (peers: Json[] | undefined, ports: Json[] | undefined, peerFlows: (peer: Json, port: number) => Flow[]): Flow[] =>
  (ports ?? []).flatMap((p: Json) => (peers ?? []).flatMap((peer: Json) => peerFlows(peer, p.port)));
/** The workloads a policy peer (a podSelector of this namespace) selects; namespace peers are checked apart. */
const peerWorkloads = (peer: Json): string[] =>
  peer.podSelector && !peer.namespaceSelector ? workloads().filter((w) => selects(peer.podSelector, podLabels(w))).map((w) => w.metadata.name) : [];
const isDns = (peer: Json) => peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns';

/** What the policies let a workload send, as flows (DNS apart: every pod may ask kube-dns). */
function allowedEgress(workload: Json): Flow[] {
  const flows = networkPolicies()
    .filter((np) => np.spec.policyTypes?.includes('Egress') && selects(np.spec.podSelector, podLabels(workload)))
    .flatMap((np) => (np.spec.egress ?? []).flatMap((rule: Json) => ruleFlows(rule.to?.filter((peer: Json) => !isDns(peer)), rule.ports, (peer, port) =>
      peer.ipBlock ? [`outside:${port}`] : peerWorkloads(peer).map((name) => `${name}:${port}`))));
  return [...new Set(flows)].sort();
}

/** The workloads (by name) the policies let into a workload's port, and the namespaces let in. */
function allowedIngress(workload: Json): { from: string[]; namespaces: string[] } {
  const rules = networkPolicies()
    .filter((np) => np.spec.policyTypes?.includes('Ingress') && selects(np.spec.podSelector, podLabels(workload)))
    .flatMap((np) => np.spec.ingress ?? []);
  const from = rules.flatMap((rule: Json) => ruleFlows(rule.from, rule.ports, (peer, port) => peerWorkloads(peer).map((name) => `${name}->${port}`)));
  const namespaces = rules.flatMap((rule: Json) => ruleFlows(rule.from, rule.ports, (peer, port) =>
    peer.namespaceSelector ? [`${peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name']}->${port}`] : []));
  return { from: [...new Set(from)].sort(), namespaces: [...new Set(namespaces)].sort() };
}

const lvConfig: Record<string, string> = find('ConfigMap', 'lv-config')?.data ?? {};
const OPS_PORT = Number(lvConfig.OPS_HTTP_PORT);

describe('deploy consistency: deploy/k8s network policies', () => {
  it('denies every flow of every pod unless a policy allows it (ingress and egress)', () => {
    const denyAll = networkPolicies().find((np) => Object.keys(np.spec.podSelector ?? { x: 1 }).length === 0 && !np.spec.ingress && !np.spec.egress);
    expect(denyAll?.spec.policyTypes?.slice().sort()).toEqual(['Egress', 'Ingress']);
  });

  it('lets each process send exactly what its environment needs, and nothing else', () => {
    const problems: string[] = [];
    for (const w of workloads()) {
      const needed = neededFlows(w);
      const allowed = allowedEgress(w);
      for (const f of needed) if (!allowed.includes(f)) problems.push(`${w.kind} ${w.metadata.name} needs ${f} but no policy lets it send there`);
      for (const f of allowed) if (!needed.includes(f)) problems.push(`${w.kind} ${w.metadata.name} may send to ${f}, which nothing in its environment needs`);
    }
    expect(problems).toEqual([]);
  });

  it('lets into each pod exactly the processes that need it, Prometheus on the ops port and the ingress controller on the public one', () => {
    const problems: string[] = [];
    for (const target of workloads()) {
      const name = target.metadata.name;
      const expectedFrom = workloads().flatMap((w) => neededFlows(w).filter((f) => f.startsWith(`${name}:`)).map((f) => `${w.metadata.name}->${f.split(':')[1]}`));
      const expected = [...new Set(expectedFrom)].sort();
      const { from, namespaces } = allowedIngress(target);
      for (const f of expected) if (!from.includes(f)) problems.push(`${name} refuses ${f}, a flow its peer needs`);
      for (const f of from) if (!expected.includes(f)) problems.push(`${name} admits ${f}, which no process needs`);
      const opsPort = podOf(target).containers.some((c: Json) => resolvePort(c, 'ops') === OPS_PORT);
      const gatewayPort = name === 'gateway' ? [`ingress-nginx->${resolvePort(podOf(target).containers[0], 'http')}`] : [];
      expect({ name, namespaces }).toEqual({ name, namespaces: [...(opsPort ? [`monitoring->${OPS_PORT}`] : []), ...gatewayPort].sort() });
    }
    expect(problems).toEqual([]);
  });
});

describe('deploy consistency: every service definition (apps/*/src/*.definition.ts) is wired everywhere', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('finds the services that run on runService', () => {
    expect(definedServices.map((s) => s.definition.name).sort()).toEqual(expect.arrayContaining(['identity', 'letters', 'vault-media']));
  });

  it('names each one in the manifest, compose, k8s, contracts, Nx and the README', async () => {
    const { SERVICES } = await import('@lv/contracts');
    const problems: string[] = [];
    for (const { dir, file, definition } of definedServices) {
      const { name } = definition;
      const where = `apps/${dir}/src/${file} (${name})`;
      if (name !== dir) problems.push(`${where}: the service is named "${name}" but lives in apps/${dir}: use one name`);
      if (!(SERVICES as readonly string[]).includes(name)) problems.push(`${where}: add "${name}" to SERVICES in libs/contracts/src/services.ts`);
      const main = join(root, 'apps', dir, 'src', 'main.ts');
      if (!existsSync(main) || !readFileSync(main, 'utf8').includes('runService(')) problems.push(`${where}: apps/${dir}/src/main.ts must be runService(<definition>)`);

      const svc = services.find((s) => s.name === name);
      if (!svc) problems.push(`${where}: add an entry to tools/dev/services.mjs (kind 'service', entry apps/${dir}/dist/main.js, its database, config and env)`);
      else {
        if (svc.kind !== 'service') problems.push(`${where}: tools/dev/services.mjs must list it with kind 'service' (is '${svc.kind}'): the gateway's /api/health reports services`);
        if (svc.entry !== `apps/${dir}/dist/main.js`) problems.push(`${where}: tools/dev/services.mjs entry is ${svc.entry}, expected apps/${dir}/dist/main.js`);
        if (!svc.database) problems.push(`${where}: tools/dev/services.mjs must give it a database (runService migrates and opens one)`);
        const mod = await import(join(root, svc.config.module));
        if (mod[svc.config.schema] !== definition.configSchema) problems.push(`${where}: tools/dev/services.mjs config (${svc.config.module} ${svc.config.schema}) is not the definition's configSchema`);
        if (svc.database && !readme.includes(`\`lv_${svc.database}\``)) problems.push(`${where}: add a row for \`lv_${svc.database}\` to the README's "Services and their events"`);
      }

      if (!compose.services?.[name]) problems.push(`${where}: add a "${name}" service to docker-compose.yml`);
      if (!compose.services?.[`${name}-migrate`]) problems.push(`${where}: add a "${name}-migrate" service to docker-compose.yml`);
      if (!find('Deployment', name)) problems.push(`${where}: add a Deployment "${name}" to deploy/k8s (and list its file in kustomization.yaml)`);
      if (!find('Job', `${name}-migrate`)) problems.push(`${where}: add a Job "${name}-migrate" to deploy/k8s`);
      if (!exampleSecrets.some((s: Json) => s.metadata?.name === `lv-${name}-db`)) problems.push(`${where}: describe its database Secret lv-${name}-db in deploy/k8s/secrets.example.yaml`);

      const projectFile = join(root, 'apps', dir, 'project.json');
      const project: Json = existsSync(projectFile) ? JSON.parse(readFileSync(projectFile, 'utf8')) : null;
      if (!project) problems.push(`${where}: add apps/${dir}/project.json (Nx project with its tags)`);
      else if (!(project.tags ?? []).includes('type:app') || !(project.tags ?? []).includes(`scope:${name}`)) problems.push(`${where}: apps/${dir}/project.json needs the tags "type:app" and "scope:${name}" (module boundaries)`);
      if (!existsSync(join(root, 'apps', dir, 'package.json'))) problems.push(`${where}: add apps/${dir}/package.json (the workspace package @lv/${name})`);
      if (!readme.includes(`\`apps/${dir}\``)) problems.push(`${where}: add \`apps/${dir}\` to the README's table of pieces`);
    }
    expect(problems).toEqual([]);
  });

  it('has a definition for every service of the manifest (no service bootstraps itself)', () => {
    const defined = new Set(definedServices.map((s) => s.definition.name));
    const problems = services.filter((s) => s.kind === 'service' && !defined.has(s.name)).map((s) => `${s.name}: tools/dev/services.mjs lists it as a service, but apps/${s.name}/src has no *.definition.ts`);
    expect(problems).toEqual([]);
  });
});
