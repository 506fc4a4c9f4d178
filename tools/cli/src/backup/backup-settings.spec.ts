import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICES } from '@lv/contracts';
import { jest } from '@jest/globals';
import { ConfigError } from '@lv/platform/config';
import { backupSettings } from './backup-settings.js';

describe('backup settings', () => {
  let cwd: string;
  const strong = 'b7c1e0f2a9d84c3e8f6a5b4c3d2e1f00aa11bb22';
  beforeEach(() => { cwd = mkdtempSync(join(tmpdir(), 'lv-backup-settings-')); });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('on a developer machine: the running stack, .data/backups and a password the first backup generates beside it', () => {
    mkdirSync(join(cwd, '.data'));
    writeFileSync(join(cwd, '.data', 'stack.json'), JSON.stringify({ postgresUrl: 'postgres://postgres@127.0.0.1:55432/postgres', dbPrefix: 'lv_e2e_', s3Endpoint: 'http://127.0.0.1:9100' }));
    const told = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => backupSettings({}, cwd)).toThrow('BACKUP_PASSWORD: missing');
    const settings = backupSettings({}, cwd, { generatePassword: true });
    expect(told).toHaveBeenCalledWith(expect.stringContaining('keep a copy apart from the backups'));
    told.mockRestore();
    expect(settings.repository.repository).toBe(join(cwd, '.data', 'backups'));
    expect(settings.repository.password).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(cwd, '.data', 'backup-password')).mode & 0o777).toBe(0o600);
    expect(backupSettings({}, cwd).repository.password).toBe(settings.repository.password);
    expect(settings.serverUrl).toBe('postgres://postgres@127.0.0.1:55432/postgres');
    expect(settings.databases).toEqual(SERVICES.map((service) => ({ service, name: `lv_e2e_${service.replace(/-/g, '_')}` })));
    expect(settings.storage.S3_ENDPOINT).toBe('http://127.0.0.1:9100');
    expect(settings.keysDir).toBe(join(cwd, '.data', 'keys'));
  });

  it('takes the password from a file, a remote repository as it is, and the secrets the environment holds', () => {
    writeFileSync(join(cwd, 'pw'), `${strong}\n`);
    const settings = backupSettings({ BACKUP_PASSWORD_FILE: 'pw', BACKUP_REPOSITORY: 's3:https://s3.example.net/lv-backups', BACKUP_SERVICES: 'identity, letters', MEDIA_LINK_SECRET: 'm'.repeat(40) }, cwd);
    expect(settings.repository).toMatchObject({ repository: 's3:https://s3.example.net/lv-backups', password: strong });
    expect(settings.databases.map((d) => d.name)).toEqual(['lv_identity', 'lv_letters']);
    expect(settings.secrets).toEqual({ MEDIA_LINK_SECRET: 'm'.repeat(40) });
    expect(() => readFileSync(join(cwd, '.data', 'backup-password'))).toThrow();
  });

  it('in production: refuses a missing or weak repository password, and never generates one', () => {
    const production = { NODE_ENV: 'production', POSTGRES_URL: `postgres://backup:${strong}@db:5432/postgres`, S3_ENDPOINT: 'https://minio:9000', S3_ACCESS_KEY: 'lv-backup-7f3a9c2e', S3_SECRET_KEY: strong };
    for (const [env, problem] of [[{}, 'BACKUP_PASSWORD: is missing'], [{ BACKUP_PASSWORD: 'hunter2' }, 'BACKUP_PASSWORD: is shorter than 32 characters']] as const) {
      let error: unknown;
      try {
        backupSettings({ ...production, ...env }, cwd);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code).toBe('CONFIG_WEAK_SECRET');
      expect((error as ConfigError).message).toContain(problem);
    }
    expect(() => readFileSync(join(cwd, '.data', 'backup-password'))).toThrow();
    expect(backupSettings({ ...production, BACKUP_PASSWORD: strong }, cwd).repository.password).toBe(strong);
  });

  it('refuses a service it does not know', () => {
    expect(() => backupSettings({ BACKUP_PASSWORD: strong, BACKUP_SERVICES: 'letters,lettres' }, cwd)).toThrow('unknown service lettres');
  });
});
