import { randomBytes } from 'node:crypto';
import { backupRepositoryConfigSchema, commonConfigSchema, ConfigError, databaseConfigSchema, loadConfig, markSecret, objectStorageConfigSchema, z } from './index.js';
import { findWeakSecrets } from './secrets.js';

// A service like vault-media: a database, object storage and a link-signing secret, each marked by
// the schema that declares it. Court-journal's link secret and evidence key are marked the same way.
const schema = commonConfigSchema.extend(databaseConfigSchema.shape).extend(objectStorageConfigSchema.shape).extend({
  MEDIA_LINK_SECRET: markSecret(z.string().min(32)),
  COURT_LINK_SECRET: markSecret(z.string().optional()),
  EVIDENCE_SIGNING_KEY: markSecret(z.string().optional(), 'identifier'),
  LOCAL_WEBHOOK_SECRET: markSecret(z.string().optional()),
  DEVICE_COOKIE_SECRET: markSecret(z.string()).optional(),
  /** Not marked: the platform checks only what a schema marks, whatever the name says. */
  PUBLIC_GREETING_SECRET: z.string().optional(),
});

const strong = () => randomBytes(32).toString('hex');
const goodEnv = () => ({
  NODE_ENV: 'production',
  JWT_PUBLIC_KEY: '/run/keys/public/jwt-public.pem',
  DATABASE_URL: `postgres://lv_media:${strong()}@db.internal:5432/lv_vault_media`,
  S3_ENDPOINT: 'http://minio:9000',
  S3_ACCESS_KEY: 'lv-7f3a9c2e41b8d605',
  S3_SECRET_KEY: strong(),
  MEDIA_LINK_SECRET: strong(),
  NATS_USER: 'vault-media',
  NATS_PASSWORD: `lv${strong()}`,
});

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(schema, env, 'vault-media');
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('loadConfig accepted the configuration');
}

describe('loadConfig in production: weak secrets', () => {
  it('starts with random secrets of at least 32 characters', () => {
    expect(loadConfig(schema, goodEnv(), 'vault-media').MEDIA_LINK_SECRET).toHaveLength(64);
  });

  // The values docker-compose.yml and deploy/k8s shipped before they were generated.
  it.each([
    ['MEDIA_LINK_SECRET', { MEDIA_LINK_SECRET: 'legacy-vault-compose-media-link-secret-change-me' }],
    ['MEDIA_LINK_SECRET', { MEDIA_LINK_SECRET: 'CHANGE-ME-64-hex-characters-from-openssl-rand' }],
    ['S3_SECRET_KEY', { S3_SECRET_KEY: 'legacy-vault-minio-secret' }],
    ['S3_ACCESS_KEY', { S3_ACCESS_KEY: 'legacy-vault' }],
    ['S3_ACCESS_KEY', { S3_ACCESS_KEY: 'minioadmin' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://postgres:legacy-vault@postgres:5432/lv_vault_media' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://lv_vault_media:CHANGE-ME@db.example.com:5432/lv_vault_media?sslmode=require' }],
    ['NATS_PASSWORD', { NATS_PASSWORD: 'hunter2-hunter2' }],
    ['REDIS_URL', { REDIS_URL: 'redis://:changeme@redis:6379' }],
    ['MEDIA_LINK_SECRET', { MEDIA_LINK_SECRET: 'a'.repeat(64) }],
    ['COURT_LINK_SECRET', { COURT_LINK_SECRET: 'CHANGE-ME-64-hex-characters-from-openssl-rand' }],
    ['COURT_LINK_SECRET', { COURT_LINK_SECRET: 'short-court-secret' }],
    ['EVIDENCE_SIGNING_KEY', { EVIDENCE_SIGNING_KEY: 'CHANGE-ME: the Ed25519 evidence key (PKCS#8 PEM)' }],
    // The local payment provider's webhook secret signs "payments": forged, it hands out paid plans.
    ['LOCAL_WEBHOOK_SECRET', { LOCAL_WEBHOOK_SECRET: 'CHANGE-ME-64-hex-characters-from-openssl-rand' }],
    ['LOCAL_WEBHOOK_SECRET', { LOCAL_WEBHOOK_SECRET: 'b'.repeat(40) }],
  ])('refuses a shipped or weak %s, naming it and never echoing the value', (variable, override) => {
    const error = refusal({ ...goodEnv(), ...override });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('CONFIG_WEAK_SECRET');
    expect(error.message).toContain(`${variable}:`);
    for (const value of Object.values(override)) expect(error.message).not.toContain(value);
  });

  it('refuses a short database password and a short DEVICE_COOKIE_SECRET where a process has one', () => {
    expect(findWeakSecrets(schema, { DATABASE_URL: 'postgres://u:s3cr3t@db:5432/x', DEVICE_COOKIE_SECRET: 'x'.repeat(10) + 'y' })).toEqual([
      { variable: 'DEVICE_COOKIE_SECRET', problem: 'is shorter than 32 characters' },
      { variable: 'DATABASE_URL', problem: 'has a password that is shorter than 32 characters' },
    ]);
  });

  it('accepts a database URL without a password (certificate or IAM authentication)', () => {
    expect(findWeakSecrets(schema, { DATABASE_URL: 'postgres://lv_letters@db:5432/lv_letters?sslmode=verify-full' })).toEqual([]);
  });

  it('lists every weak secret at once', () => {
    const error = refusal({ ...goodEnv(), MEDIA_LINK_SECRET: 'legacy-vault-compose-media-link-secret-change-me', S3_SECRET_KEY: 'legacy-vault-minio-secret' });
    expect(error.message).toMatch(/S3_SECRET_KEY:[^\n]*\n[^\n]*MEDIA_LINK_SECRET:/);
  });

  it('checks only the variables a schema marks as secrets', () => {
    expect(findWeakSecrets(schema, { PUBLIC_GREETING_SECRET: 'hello' })).toEqual([]);
    expect(findWeakSecrets(z.object({ SOME_TOKEN: markSecret(z.string().default('x')) }), { SOME_TOKEN: 'change-me-please' })).toEqual([
      { variable: 'SOME_TOKEN', problem: 'looks like a placeholder to replace' },
    ]);
  });

  it('leaves development and test alone (the dev stack derives its own secrets)', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(() => loadConfig(schema, { ...goodEnv(), NODE_ENV, S3_SECRET_KEY: 's', S3_ACCESS_KEY: 'minioadmin' })).not.toThrow();
    }
  });

  it('still reports schema problems with their own code', () => {
    const { MEDIA_LINK_SECRET: _omitted, ...env } = goodEnv();
    expect(refusal(env).code).toBe('CONFIG_INVALID');
  });
});

describe('loadConfig in production: the backup repository password', () => {
  const backupSchema = commonConfigSchema.extend(backupRepositoryConfigSchema.shape);
  const env = (extra: Record<string, string>) => ({ NODE_ENV: 'production', JWT_PUBLIC_KEY: '/run/keys/public/jwt-public.pem', ...extra });
  const refused = (extra: Record<string, string>) => {
    try {
      loadConfig(backupSchema, env(extra), 'vault-backup');
    } catch (error) {
      return error as ConfigError;
    }
    throw new Error('loadConfig accepted the configuration');
  };

  it('refuses to start without one, naming it', () => {
    const error = refused({});
    expect(error.code).toBe('CONFIG_WEAK_SECRET');
    expect(error.message).toContain('BACKUP_PASSWORD: is missing');
  });

  it('refuses a weak one without echoing it', () => {
    const error = refused({ BACKUP_PASSWORD: 'restic-pw-2026' });
    expect(error.message).toContain('BACKUP_PASSWORD: is shorter than 32 characters');
    expect(error.message).not.toContain('restic-pw-2026');
    expect(refused({ BACKUP_PASSWORD: 'CHANGE-ME-64-hex-characters-from-openssl-rand' }).message).toContain('BACKUP_PASSWORD: looks like a placeholder');
  });

  it('starts with a strong one, and development does without', () => {
    expect(loadConfig(backupSchema, env({ BACKUP_PASSWORD: strong() })).BACKUP_REPOSITORY).toBe('.data/backups');
    expect(() => loadConfig(backupSchema, { ...env({}), NODE_ENV: 'development' })).not.toThrow();
  });
});
