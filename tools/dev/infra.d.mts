// Types of tools/dev/infra.mjs for TypeScript consumers (specs).
export declare const DEFAULT_URLS: { postgres: string; redis: string; nats: string };
export declare class InfraError extends Error {}
export interface ProvidedInfrastructure {
  urls: { postgres: string; redis: string; nats: string };
  /** Which of postgres, redis, nats were started as private instances. */
  private: string[];
  pids: Record<string, number>;
  stop(): Promise<void>;
}
export declare function provideInfrastructure(options: {
  dataDir: string;
  root: string;
  force?: boolean;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}): Promise<ProvidedInfrastructure>;
export declare function freePort(host?: string): Promise<number>;
export declare function withDatabase(postgresUrl: string, database: string): string;
export declare function withRedisDb(redisUrl: string, db: number): string;
