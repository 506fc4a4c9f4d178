import { natsConnectionOptions } from './connection.js';

describe('natsConnectionOptions', () => {
  it('keeps the development stack unauthenticated: servers only, reconnecting forever', () => {
    expect(natsConnectionOptions('nats://127.0.0.1:4222,nats://127.0.0.1:4223', 'letters-rpc')).toEqual({
      servers: ['nats://127.0.0.1:4222', 'nats://127.0.0.1:4223'], name: 'letters-rpc', maxReconnectAttempts: -1, reconnectTimeWait: 500,
    });
  });

  it("adds the process's user, its own inbox prefix and the TLS CA in a deployment", () => {
    const options = natsConnectionOptions({ NATS_URL: 'nats://nats:4222', NATS_USER: 'vault-media', NATS_PASSWORD: 'p'.repeat(40), NATS_TLS_CA: '/run/nats-ca/ca.crt' }, 'vault-media-rpc');
    expect(options).toMatchObject({ user: 'vault-media', pass: 'p'.repeat(40), inboxPrefix: '_INBOX_vault-media', tls: { caFile: '/run/nats-ca/ca.crt' } });
  });

  it('refuses a user without a password, and a password without a user', () => {
    expect(() => natsConnectionOptions({ NATS_URL: 'nats://nats:4222', NATS_USER: 'letters' }, 'x')).toThrow(/NATS_USER and NATS_PASSWORD/);
    expect(() => natsConnectionOptions({ NATS_URL: 'nats://nats:4222', NATS_PASSWORD: 'p' }, 'x')).toThrow(/NATS_USER and NATS_PASSWORD/);
  });
});
