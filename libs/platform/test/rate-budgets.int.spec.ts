import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DomainError } from '../src/errors/index.js';
import { InMemoryRateBudgets, RedisRateBudgets, takeOrRefuse, type RateBudgets } from '../src/limits/index.js';

// The one limiter's rules, held by both implementations: the Redis one every replica shares and the
// in-memory one the use-case specs run on. Each case uses fresh keys, so runs never meet.

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
afterAll(() => redis.quit());

describe.each([
  ['in Redis', () => new RedisRateBudgets(redis, `lv:spec:budgets:${randomUUID()}`)],
  ['in memory', () => new InMemoryRateBudgets()],
] as const)('RateBudgets %s', (_where, make: () => RateBudgets) => {
  it('counts attempts up to the limit, then refuses with the seconds left in the window', async () => {
    const budgets = make();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await budgets.take([{ key: 'a', limit: 3 }], 60));
    expect(results.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(results[3]).toMatchObject({ allowed: false });
    const refused = results[3];
    expect(refused && !refused.allowed && refused.retryAfter).toBeGreaterThan(55);
    expect(await budgets.peek('a')).toMatchObject({ count: 3 });
  });

  it('counts an attempt against every budget or none: one spent budget leaves the others untouched', async () => {
    const budgets = make();
    await budgets.take([{ key: 'narrow', limit: 1 }], 60);
    expect(await budgets.take([{ key: 'wide', limit: 10 }, { key: 'narrow', limit: 1 }], 60)).toMatchObject({ allowed: false });
    expect((await budgets.peek('wide')).count).toBe(0);
  });

  it('lets exactly the limit through when attempts come all at once', async () => {
    const budgets = make();
    const results = await Promise.all(Array.from({ length: 60 }, () => budgets.take([{ key: 'burst', limit: 5 }], 60)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect((await budgets.peek('burst')).count).toBe(5);
  });

  it('gives attempts back (never below zero) and empties the keys asked to be cleared', async () => {
    const budgets = make();
    for (let i = 0; i < 2; i++) await budgets.take([{ key: 'own', limit: 5 }, { key: 'shared', limit: 5 }], 60);
    await budgets.giveBack(['own', 'shared'], 1);
    expect([(await budgets.peek('own')).count, (await budgets.peek('shared')).count]).toEqual([0, 1]);
    await budgets.giveBack(['shared', 'shared']);
    expect((await budgets.peek('shared')).count).toBe(0);
    await budgets.clear(['shared']);
    expect(await budgets.peek('shared')).toEqual({ count: 0, retryAfter: 0 });
  });

  it('throws RATE_LIMITED with the message and Retry-After through takeOrRefuse', async () => {
    const budgets = make();
    await takeOrRefuse(budgets, [{ key: 'r', limit: 1 }], 3600, 'Too many.');
    await expect(takeOrRefuse(budgets, [{ key: 'r', limit: 1 }], 3600, 'Too many.')).rejects.toMatchObject({ code: 'RATE_LIMITED', message: 'Too many.' });
    const refusal: unknown = await takeOrRefuse(budgets, [{ key: 'r', limit: 1 }], 3600, 'Too many.').catch((err: unknown) => err);
    expect(refusal instanceof DomainError && refusal.toBody().retryAfter).toBeGreaterThan(3500);
  });
});

describe('InMemoryRateBudgets on a clock', () => {
  it('opens a budget again when its window, started by its first attempt, ends', async () => {
    let now = 1_000_000;
    const budgets = new InMemoryRateBudgets(() => now);
    await budgets.take([{ key: 'w', limit: 1 }], 60);
    now += 30_000;
    expect(await budgets.take([{ key: 'w', limit: 1 }], 60)).toEqual({ allowed: false, retryAfter: 30 });
    now += 30_000;
    expect(await budgets.take([{ key: 'w', limit: 1 }], 60)).toEqual({ allowed: true });
  });
});
