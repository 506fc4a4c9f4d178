// Types of tools/dev/stack.mjs for TypeScript consumers (specs, scripts of the e2e suite).
import type { RunningS3Server } from './s3-server.mjs';
import type { RunningSmtpCatcher } from './smtp-catcher.mjs';
export declare const root: string;
export declare class StackError extends Error {}
export declare function nodeBinary(): string;
export declare const SERVICE_NODE_FLAGS: string[];
export declare const SERVICE_HEAP_FLAGS: string[];
export declare function needsAsyncContextFrameFlag(version: string): boolean;
export declare function assertPortFree(port: number, host: string, what: string): Promise<void>;
export declare function formatLogLine(line: string): string;
export declare function describeHealth(body: string): string;
export interface StackOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  dbPrefix?: string;
  fresh?: boolean;
  stackId?: string;
  redisDb?: number;
  s3Port?: number;
  smtpPort?: number;
  mailHttpPort?: number;
  logLevel?: string;
  nodeEnv?: string;
  healthTimeoutMs?: number;
  stopTimeoutMs?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
  appRoot?: string;
  /** Servers already provided (tools/dev/infra.mjs); without it the stack provides them itself. */
  infra?: InfraUrls;
  /** Private PostgreSQL/Redis/NATS even when the machine runs its own (LV_PRIVATE_INFRA=1). */
  privateInfra?: boolean;
  /** Restart a process that dies after the stack is ready, with backoff (default true). */
  supervise?: boolean;
  /** First restart delay (default 1000 ms), doubled per restart up to restartBackoffMaxMs (default 30 s). */
  restartBackoffMs?: number;
  restartBackoffMaxMs?: number;
  /** Where POSTGRES_URL, REDIS_URL and NATS_URL are read from (default process.env). */
  infraEnv?: Record<string, string | undefined>;
  /** Processes per service (default 1), e.g. { identity: 3 }: replicas share the service's NATS queue group. */
  replicas?: Record<string, number>;
  /** Node flags for one service's processes. */
  nodeArgs?: Record<string, string[]>;
  /** The S3-protocol server's key (default the dev key, which NODE_ENV=production refuses). */
  s3Credentials?: { accessKey: string; secretKey: string };
  /** Variables set over a process's own environment (its migration's too), by process name; undefined unsets one. */
  processEnv?: (name: string, env: Record<string, string | undefined>) => Record<string, string | undefined>;
}
export interface InfraUrls {
  postgres: string;
  redis: string;
  nats: string;
}
export interface RunningStack {
  url: string;
  mailUrl: string;
  s3Endpoint: string;
  smtpPort: number;
  stackId: string;
  dbPrefix: string;
  /** Each process's ops listener (GET /metrics, /health/live, /health/ready), by process name. */
  opsPorts: Record<string, number>;
  redisUrl: string;
  natsUrl: string;
  postgresUrl: string;
  /** Which of postgres, redis, nats this stack started itself. */
  privateInfra: string[];
  /** Their process ids. */
  privateInfraPids: Record<string, number>;
  pid: number;
  children: { name: string; pid: number }[];
  /** The live processes: `pid` changes when a supervised process is restarted. */
  processes: { name: string; kind: string; readonly pid: number }[];
  mail: RunningSmtpCatcher;
  s3: RunningS3Server;
  onExit(listener: (exit: { name: string; code: number | null; signal: string | null }) => void): void;
  stop(): Promise<void>;
}
export declare function startStack(options?: StackOptions): Promise<RunningStack>;
