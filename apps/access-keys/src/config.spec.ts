import { loadConfig } from '@lv/platform/config';
import { generateTestKeys } from '@lv/testing';
import { accessKeysConfigSchema } from './config.js';

const keys = generateTestKeys();
const env = (extra: Record<string, string>) => ({
  DATABASE_URL: 'postgres://vault:vault@127.0.0.1:5432/vault', JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PRIVATE_KEY: keys.privateKey,
  KEY_MAIL_SECRET: 'a-random-enough-key-mail-secret-for-this-spec-0123456789', ...extra,
});

// The owner's veto window after a trustee's report: a spec may shorten it, production never below 72 hours.
describe('access-keys config: TRUSTEE_REPORT_VETO_HOURS', () => {
  it('defaults to 72 hours; a test may set less', () => {
    expect(loadConfig(accessKeysConfigSchema, env({})).TRUSTEE_REPORT_VETO_HOURS).toBe(72);
    expect(loadConfig(accessKeysConfigSchema, env({ NODE_ENV: 'test', TRUSTEE_REPORT_VETO_HOURS: '0.001' })).TRUSTEE_REPORT_VETO_HOURS).toBe(0.001);
  });

  it('production refuses to boot below 72 hours, naming the variable', () => {
    expect(() => loadConfig(accessKeysConfigSchema, env({ NODE_ENV: 'production', TRUSTEE_REPORT_VETO_HOURS: '71.9' }), 'access-keys'))
      .toThrow(/TRUSTEE_REPORT_VETO_HOURS: must be at least 72 in production/);
    expect(() => loadConfig(accessKeysConfigSchema, env({ NODE_ENV: 'production', TRUSTEE_REPORT_VETO_HOURS: '96' }), 'access-keys')).not.toThrow(/TRUSTEE_REPORT_VETO_HOURS/);
  });
});

// How often the timed jobs are re-derived from the event streams (besides at start).
describe('access-keys config: TIMER_REARM_INTERVAL_SECONDS', () => {
  it('defaults to 10 minutes; takes whole seconds', () => {
    expect(loadConfig(accessKeysConfigSchema, env({})).TIMER_REARM_INTERVAL_SECONDS).toBe(600);
    expect(loadConfig(accessKeysConfigSchema, env({ TIMER_REARM_INTERVAL_SECONDS: '30' })).TIMER_REARM_INTERVAL_SECONDS).toBe(30);
  });

  it('refuses zero, a negative or a fraction, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'often']) {
      expect(() => loadConfig(accessKeysConfigSchema, env({ TIMER_REARM_INTERVAL_SECONDS: bad }), 'access-keys')).toThrow(/TIMER_REARM_INTERVAL_SECONDS/);
    }
  });
});
