import type { ObjectStorageConfig } from '../storage/index.js';
import type { ResticRepository } from './restic.js';

/** Where a backup reads from and a restore writes to, and the repository in between. */
export interface BackupSettings {
  repository: ResticRepository;
  /** Any database URL of the PostgreSQL server the databases are on. */
  serverUrl: string;
  /** The databases a backup takes, by service. */
  databases: { service: string; name: string }[];
  /** A restore's database of each service is `<databasePrefix><service>` (lv_vault_media). */
  databasePrefix: string;
  storage: ObjectStorageConfig;
  keysDir: string;
  /** Sealing and signing secrets of this environment, kept in the snapshot's keys/secrets.json. */
  secrets: Record<string, string>;
  /** Where a backup gathers its files before restic reads them, and a restore unpacks a snapshot. */
  stagingDir: string;
}

/** A service's database name: `<prefix><service>`, PostgreSQL style (lv_vault_media). */
export const serviceDatabase = (prefix: string, service: string): string => `${prefix}${service.replace(/-/g, '_')}`;

/**
 * The secrets that sign or seal what the vault keeps, by their configuration names (apps' config.ts):
 * kept when the operator's environment holds them. The development stack derives all of them from its
 * keys folder (tools/dev/services.mjs devSecret), which every backup holds anyway.
 */
const SECRET_VARIABLES = ['JWT_PRIVATE_KEY', 'VIEWER_JWT_PRIVATE_KEY', 'EVIDENCE_SIGNING_KEY', 'EVIDENCE_PREVIOUS_KEYS', 'MEDIA_LINK_SECRET', 'COURT_LINK_SECRET', 'KEY_MAIL_SECRET', 'DEVICE_COOKIE_SECRET', 'LOCAL_WEBHOOK_SECRET'];

/** The secrets of SECRET_VARIABLES that `env` holds, for the snapshot's keys/secrets.json. */
export const backupSecrets = (env: NodeJS.ProcessEnv): Record<string, string> => Object.fromEntries(SECRET_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
