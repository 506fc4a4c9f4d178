import type { Redis } from 'ioredis';

/** The Redis pub/sub channel on which every revocation is announced (its message: the session id). */
export const REVOCATIONS_CHANNEL = 'lv:revocations';
/** What the gateway and the services use: a lost announcement goes unseen for at most 2 s. */
export const REVOCATION_CACHE_MS = 2000;

export interface RevocationCacheOptions {
  /** How long a "not revoked" answer is reused; also the longest a lost announcement can go unseen. */
  ttlMs: number;
  /** Sessions remembered at most (the oldest are forgotten first). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Remembers, for a moment, that a session was not revoked, so that a request does not ask Redis
 * again for every hop (the gateway, then the service). A revocation is announced on
 * REVOCATIONS_CHANNEL the moment it is written, and every cache drops that session when the
 * announcement arrives, so a revoked session stops working everywhere within milliseconds.
 *
 * Answers are reused only while the subscription is live: while it is down (Redis restarting, a
 * network cut) announcements could be missed, so every request asks Redis as before, and whatever
 * was remembered is forgotten. An answer read while an announcement (any) arrived is not
 * remembered: it may predate the revocation. Revoked answers are never cached here: Redis says so.
 */
export class RevocationCache {
  private subscriber: Redis | null = null;
  private live = false;
  /** Bumped by every announcement and every change of the subscription's state. */
  private generation = 0;
  private readonly notRevokedUntil = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly redis: Redis, private readonly options: RevocationCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether answers are being reused (the subscription is live). */
  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.notRevokedUntil.size;
  }

  async isRevoked(sessionId: string, lookUp: () => Promise<boolean>): Promise<boolean> {
    this.subscribe();
    if (this.live) {
      const until = this.notRevokedUntil.get(sessionId);
      if (until !== undefined && until > this.now()) return false;
    }
    const generation = this.generation;
    const revoked = await lookUp();
    if (!revoked && this.live && generation === this.generation) this.remember(sessionId);
    return revoked;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.down();
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private remember(sessionId: string): void {
    this.notRevokedUntil.delete(sessionId);
    if (this.notRevokedUntil.size >= this.maxEntries) {
      const oldest = this.notRevokedUntil.keys().next().value;
      if (oldest !== undefined) this.notRevokedUntil.delete(oldest);
    }
    this.notRevokedUntil.set(sessionId, this.now() + this.options.ttlMs);
  }

  private down(): void {
    this.live = false;
    this.generation++;
    this.notRevokedUntil.clear();
  }

  /** Opens the subscriber connection once; it resubscribes by itself after every reconnect. */
  private subscribe(): void {
    if (this.subscriber || this.closed) return;
    // A connection of its own: a subscribed connection can run no other command. It waits for Redis
    // like the main one (no offline queue), and retries for as long as the process lives.
    const subscriber = this.redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, sessionId: string) => {
      if (channel !== REVOCATIONS_CHANNEL) return;
      this.generation++;
      this.notRevokedUntil.delete(sessionId);
    });
    subscriber.on('error', () => this.down());
    subscriber.on('close', () => this.down());
    subscriber.on('reconnecting', () => this.down());
    subscriber.on('ready', () => {
      // ioredis resubscribes after a reconnect, but says nothing when it is done: subscribe again
      // (harmless when already subscribed) and only then trust the cache.
      subscriber.subscribe(REVOCATIONS_CHANNEL).then(
        () => {
          if (this.subscriber !== subscriber || this.closed) return;
          this.generation++;
          this.live = true;
        },
        () => this.down(),
      );
    });
    subscriber.connect().catch(() => this.down());
  }
}
