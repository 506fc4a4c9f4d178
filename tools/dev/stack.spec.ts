import { describeHealth, formatLogLine, needsAsyncContextFrameFlag } from './stack.mjs';
import { databaseName, healthServiceNames, services } from './services.mjs';

// The pure parts of the dev/e2e orchestrator (the rest is exercised by `npm start` and the e2e tier).
describe('stack helpers', () => {
  it('turns the async context frame on where Node has it behind a flag (22.7 to 23), never where it would not start', () => {
    expect(['20.20.2', '22.6.0', '22.7.0', '22.23.3', '23.1.0', '24.0.0'].map(needsAsyncContextFrameFlag)).toEqual([false, false, true, true, true, false]);
  });

  it('names what is down in the gateway health report', () => {
    const body = JSON.stringify({ status: 'down', checks: { nats: { status: 'up', latencyMs: 1 }, identity: { status: 'down', latencyMs: 2000, detail: 'no answer within 2000 ms' } } });
    expect(describeHealth(body)).toBe('down: identity (no answer within 2000 ms)');
    expect(describeHealth('<html>bad gateway</html>')).toBe('<html>bad gateway</html>');
  });

  it('prints pino lines compactly and other lines as they are', () => {
    const line = JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 1, 12, 34, 56), pid: 1, hostname: 'h', name: 'identity', msg: 'slow query', ms: 812 });
    expect(formatLogLine(line)).toBe('12:34:56 WARN  slow query {"ms":812}');
    expect(formatLogLine('plain text')).toBe('plain text');
    expect(formatLogLine('{not json')).toBe('{not json');
  });

  it('derives database names and the services /api/health reports from the manifest', () => {
    expect(databaseName('lv_e2e_', 'vault-media')).toBe('lv_e2e_vault_media');
    expect(healthServiceNames()).toEqual(services.filter((s) => s.kind === 'service').map((s) => s.name));
    expect(services.at(-1)?.kind).toBe('gateway');
  });
});
