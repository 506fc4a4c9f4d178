import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RevokedSessions } from '../src/auth/index.js';

// Against the local Redis (127.0.0.1:6379, or REDIS_URL): the revocation cache's promises. Session ids
// are random, so nothing here touches another stack's sessions.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now() - started;
}

describe('RevokedSessions with a cache (real Redis pub/sub)', () => {
  const name = `revocation-spec-${randomUUID()}`;
  let readerRedis: Redis;
  let writerRedis: Redis;
  let reader: RevokedSessions;
  let writer: RevokedSessions;

  beforeEach(async () => {
    readerRedis = new Redis(REDIS_URL, { connectionName: name });
    writerRedis = new Redis(REDIS_URL);
    // A minute of reuse: whatever turns an answer around quickly below is the announcement, not time.
    reader = new RevokedSessions(readerRedis, 60, { cache: { ttlMs: 60_000 } });
    writer = new RevokedSessions(writerRedis, 60);
  });
  afterEach(async () => {
    await reader.close();
    await Promise.all([readerRedis.quit(), writerRedis.quit()]);
  });

  const cacheOf = (sessions: RevokedSessions) => (sessions as unknown as { cache: { isLive: boolean; size: number } }).cache;

  it('reuses "not revoked" answers, and drops one the moment its revocation is announced', async () => {
    const sid = randomUUID();
    expect(await reader.isRevoked(sid)).toBe(false);
    await until(() => cacheOf(reader).isLive);
    expect(await reader.isRevoked(sid)).toBe(false);
    expect(cacheOf(reader).size).toBe(1);
    await writer.revoke(sid);
    const ms = await until(() => reader.isRevoked(sid), 1000);
    expect(ms).toBeLessThan(1000);
    expect(await writerRedis.ttl(`lv:revoked-session:${sid}`)).toBeGreaterThan(0);
  });

  it('an entry written without its announcement (a lost message) is seen once the answer is older than ttlMs', async () => {
    const shortRedis = new Redis(REDIS_URL);
    const short = new RevokedSessions(shortRedis, 60, { cache: { ttlMs: 300 } });
    try {
      const sid = randomUUID();
      await short.isRevoked(sid);
      await until(() => cacheOf(short).isLive);
      expect(await short.isRevoked(sid)).toBe(false);
      await writerRedis.set(`lv:revoked-session:${sid}`, '1', 'EX', 60);
      expect(await short.isRevoked(sid)).toBe(false); // the stale moment the ttl bounds
      const ms = await until(() => short.isRevoked(sid), 2000);
      expect(ms).toBeLessThanOrEqual(1000);
    } finally {
      await short.close();
      await shortRedis.quit();
    }
  });

  it('while its subscription is down it reuses nothing: every answer comes from Redis', async () => {
    const sid = randomUUID();
    await reader.isRevoked(sid);
    await until(() => cacheOf(reader).isLive);
    expect(await reader.isRevoked(sid)).toBe(false);
    // Cut the subscriber's connection (and only ours: found by its name and its subscription).
    const clients = (await writerRedis.client('LIST')) as string;
    const ours = clients.split('\n').filter((line) => line.includes(`name=${name}`) && / sub=[1-9]/.test(line));
    expect(ours).toHaveLength(1);
    const id = /\bid=(\d+)/.exec(ours[0]!)![1]!;
    await writerRedis.client('KILL', 'ID', id);
    await until(() => !cacheOf(reader).isLive);
    expect(cacheOf(reader).size).toBe(0);
    // Written without an announcement, yet seen at once: nothing was reused.
    await writerRedis.set(`lv:revoked-session:${sid}`, '1', 'EX', 60);
    expect(await reader.isRevoked(sid)).toBe(true);
    // It comes back by itself.
    await until(() => cacheOf(reader).isLive, 5000);
  });
});
