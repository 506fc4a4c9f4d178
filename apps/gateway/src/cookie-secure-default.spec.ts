import { generateKeyPairSync } from 'node:crypto';
import { gatewayConfigSchema } from './config.js';

const base = {
  JWT_PUBLIC_KEY: generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  WEB_DIST_DIR: '/app/web', DEVICE_COOKIE_SECRET: 'a-device-cookie-secret-of-32-characters-or-more',
};

describe('gateway config: COOKIE_SECURE', () => {
  it.each([
    ['production', true],
    ['test', true],
    ['development', false],
    [undefined, false],
  ])('defaults, with NODE_ENV=%s, to %s', (nodeEnv, secure) => {
    expect(gatewayConfigSchema.parse({ ...base, ...(nodeEnv && { NODE_ENV: nodeEnv }) }).COOKIE_SECURE).toBe(secure);
  });

  it('follows the variable when it is set', () => {
    expect(gatewayConfigSchema.parse({ ...base, NODE_ENV: 'production', COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(false);
    expect(gatewayConfigSchema.parse({ ...base, NODE_ENV: 'development', COOKIE_SECURE: 'true' }).COOKIE_SECURE).toBe(true);
  });
});
