import { z } from 'zod';
import { findWeakSecrets, markSecret, MIN_SECRET_LENGTH } from './secrets.js';

export { z };
export { findWeakSecrets, markSecret, MIN_SECRET_LENGTH, type SecretKind, type SecretProblem } from './secrets.js';

/**
 * Reads and validates configuration at boot. A missing or malformed variable stops the process with
 * a message naming it, instead of failing later in a request.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env, appName = 'service'): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError('CONFIG_INVALID', `Invalid configuration for ${appName}:\n${problems.join('\n')}`);
  }
  // In production, shipped placeholders and short secrets (the variables the schema marks) stop the process (secrets.ts).
  const data = result.data as Record<string, unknown>;
  if (data.NODE_ENV === 'production') {
    const weak = findWeakSecrets(schema, data);
    if (weak.length) {
      const lines = weak.map((w) => `  ${w.variable}: ${w.problem}; set a random value of at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -hex 32\`)`);
      throw new ConfigError('CONFIG_WEAK_SECRET', `Refusing to start ${appName} in production with weak secrets:\n${lines.join('\n')}`);
    }
  }
  return result.data;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly code: 'CONFIG_INVALID' | 'CONFIG_WEAK_SECRET', message: string) {
    super(message);
  }
}

/** Variables every backend process shares. Apps extend this with their own. */
export const commonConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** This process's NATS user and its password (deploy/nats/auth.conf); unset on the development stack. */
  NATS_USER: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a lower-case user name of deploy/nats/auth.conf').optional(),
  // nats-server reads passwords through its config parser ($NATS_PASSWORD_<USER>): "4e5…" would be a number.
  NATS_PASSWORD: markSecret(z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'must start with a letter and hold only letters, digits, "-" and "_" (e.g. lv$(openssl rand -hex 32))').optional()),
  /** CA certificate (PEM file) of the NATS server's TLS certificate; set, connections require TLS. */
  NATS_TLS_CA: z.string().min(1).optional(),
  REDIS_URL: markSecret(z.string().url().default('redis://127.0.0.1:6379'), 'url-password'),
  /** PEM of the RS256 public key that verifies access tokens, or a path to it. */
  JWT_PUBLIC_KEY: z.string().min(1),
  /**
   * PEM (or path) of the RS256 public key that verifies viewer tokens (view sessions of a vault). Its
   * own key pair, not identity's. Without it the process refuses every viewer token.
   */
  VIEWER_JWT_PUBLIC_KEY: z.string().min(1).optional(),
  /** Replicas of each service's JetStream stream: 1 on a single server, 3 in a NATS cluster. */
  JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Timeout of a request-reply call over NATS, in milliseconds. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /**
   * The internal ops listener (GET /metrics, /health/live, /health/ready); 0 = none (the dev stack).
   * Never the public port: no Service or Ingress routes to it.
   */
  OPS_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * Where the ops listener binds; unset = the loopback (127.0.0.1). 0.0.0.0 in a pod, where the
   * kubelet's probes and Prometheus reach it on the pod's address.
   */
  OPS_HTTP_HOST: z.string().min(1).optional(),
});

/** Variables of a service that owns a PostgreSQL database. */
export const databaseConfigSchema = z.object({
  DATABASE_URL: markSecret(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), 'url-password'),
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  /** The erasure journal's database (default: `<prefix>erasures` beside the service's own, see erasure-journal.ts). */
  ERASURE_JOURNAL_URL: markSecret(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), 'url-password').optional(),
});

/** Variables of a process that talks to object storage. */
export const objectStorageConfigSchema = z.object({
  S3_ENDPOINT: z.string().url(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY: markSecret(z.string().min(1), 'identifier'),
  S3_SECRET_KEY: markSecret(z.string().min(1)),
});

/**
 * Variables of a process that writes or reads the backup repository (restic: a local folder, sftp:,
 * s3:, ...). The repository's password encrypts every copy of every vault: production refuses to
 * start without one, or with a weak one, like any other secret.
 */
export const backupRepositoryConfigSchema = z.object({
  BACKUP_REPOSITORY: z.string().min(1).default('.data/backups'),
  /** The password itself; a process may instead read it from BACKUP_PASSWORD_FILE into this variable. */
  BACKUP_PASSWORD: markSecret(z.string().min(1).optional(), 'secret', { requiredInProduction: true }),
  BACKUP_PASSWORD_FILE: z.string().min(1).optional(),
});

/** Reads a PEM given inline or as a file path (deploy/ mounts keys as files). */
export async function readPem(value: string): Promise<string> {
  if (value.includes('-----BEGIN')) return value;
  const { readFile } = await import('node:fs/promises');
  return readFile(value, 'utf8');
}
