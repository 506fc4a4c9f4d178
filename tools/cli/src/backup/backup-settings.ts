import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { SERVICES } from '@lv/contracts';
import { backupRepositoryConfigSchema, ConfigError, loadConfig, markSecret, objectStorageConfigSchema, z } from '@lv/platform/config';
import { backupSecrets, serviceDatabase, type BackupSettings } from '@lv/platform/backup';
import { runningStack } from '../running-stack.js';

const DEV_S3 = { accessKey: 'legacy-vault', secretKey: 'legacy-vault-dev-secret' };

const backupConfigSchema = backupRepositoryConfigSchema.extend(objectStorageConfigSchema.shape).extend({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** A database URL on the server (a role that reads every service's database; a restore also creates them). */
  POSTGRES_URL: markSecret(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), 'url-password'),
  DATABASE_PREFIX: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and "_"').default('lv_'),
  /** The services whose databases a backup takes (default: every service). */
  BACKUP_SERVICES: z.string().optional(),
  BACKUP_KEYS_DIR: z.string().min(1).default('.data/keys'),
  BACKUP_STAGING_DIR: z.string().min(1).optional(),
});

/** A restic repository given as a plain path (not sftp:, s3:, rest:...) is relative to the checkout. */
const isLocalPath = (repository: string) => !/^[a-z0-9]+:/i.test(repository) || /^[a-z]:[\\/]/i.test(repository);

/**
 * The development stack's repository password: generated once into .data/backup-password by the first
 * backup, beside the repository and never inside it. Production never gets here (BACKUP_PASSWORD is required there).
 */
function devPassword(cwd: string, generate: boolean): string | undefined {
  const file = join(cwd, '.data', 'backup-password');
  if (!existsSync(file)) {
    if (!generate) return undefined;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    console.error(`[backup] generated the repository password in ${file}: keep a copy apart from the backups, or they cannot be read`);
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Settings from the environment, the running stack's .data/stack.json and the dev defaults, validated
 * like a service's configuration: in production a missing or weak repository password refuses the command.
 */
export function backupSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), options: { generatePassword?: boolean } = {}): BackupSettings {
  const stack = runningStack(cwd);
  const production = env.NODE_ENV === 'production';
  const passwordFromFile = env.BACKUP_PASSWORD_FILE ? readFileSync(resolve(cwd, env.BACKUP_PASSWORD_FILE), 'utf8').trim() : undefined;
  const config = loadConfig(
    backupConfigSchema,
    {
      ...env,
      BACKUP_PASSWORD: env.BACKUP_PASSWORD || passwordFromFile || (production ? undefined : devPassword(cwd, options.generatePassword ?? false)),
      POSTGRES_URL: env.POSTGRES_URL ?? stack.postgresUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      DATABASE_PREFIX: env.DATABASE_PREFIX ?? stack.dbPrefix,
      S3_ENDPOINT: env.S3_ENDPOINT ?? stack.s3Endpoint ?? 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: env.S3_ACCESS_KEY ?? (production ? undefined : DEV_S3.accessKey),
      S3_SECRET_KEY: env.S3_SECRET_KEY ?? (production ? undefined : DEV_S3.secretKey),
    },
    'vault backup',
  );
  // Development without a password of its own: only a backup makes one (a restore could open nothing with a new one).
  if (!config.BACKUP_PASSWORD) throw new ConfigError('CONFIG_INVALID', 'BACKUP_PASSWORD: missing: set BACKUP_PASSWORD or BACKUP_PASSWORD_FILE to the repository\'s password (a first backup on a developer machine generates .data/backup-password)');
  const services = config.BACKUP_SERVICES ? config.BACKUP_SERVICES.split(',').map((s) => s.trim()).filter(Boolean) : [...SERVICES];
  const unknown = services.filter((s) => !(SERVICES as readonly string[]).includes(s));
  if (unknown.length) throw new ConfigError('CONFIG_INVALID', `BACKUP_SERVICES: unknown service ${unknown.join(', ')} (the services are ${SERVICES.join(', ')})`);
  return {
    repository: {
      repository: isLocalPath(config.BACKUP_REPOSITORY) && !isAbsolute(config.BACKUP_REPOSITORY) ? resolve(cwd, config.BACKUP_REPOSITORY) : config.BACKUP_REPOSITORY,
      password: config.BACKUP_PASSWORD,
      env,
    },
    serverUrl: config.POSTGRES_URL,
    databases: services.map((service) => ({ service, name: serviceDatabase(config.DATABASE_PREFIX, service) })),
    databasePrefix: config.DATABASE_PREFIX,
    storage: { S3_ENDPOINT: config.S3_ENDPOINT, S3_REGION: config.S3_REGION, S3_ACCESS_KEY: config.S3_ACCESS_KEY, S3_SECRET_KEY: config.S3_SECRET_KEY },
    keysDir: resolve(cwd, config.BACKUP_KEYS_DIR),
    secrets: backupSecrets(env),
    stagingDir: config.BACKUP_STAGING_DIR ? resolve(cwd, config.BACKUP_STAGING_DIR) : tmpdir(),
  };
}
