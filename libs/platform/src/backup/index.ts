/**
 * Backups and restores of a whole stack into a restic repository (README, "Backups and restores"):
 * what `npm run vault -- backup|restore|backup:verify` runs and the worker's scheduled backup runs.
 * They act on the databases and the object storage directly, not through the services.
 */
export * from './backup-error.js';
export * from './backup-settings.js';
export * from './restic.js';
export * from './vault-backup.js';
export * from './vault-restore.js';
export { MANIFEST_FILE, objectFileName } from './manifest.js';
export { removeBucket } from './buckets.js';
export * from './backup-status.js';
