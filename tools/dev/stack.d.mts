// Types of tools/dev/stack.mjs for TypeScript consumers (specs, scripts of the e2e suite).
import type { RunningS3Server } from './s3-server.mjs';
import type { RunningSmtpCatcher } from './smtp-catcher.mjs';
export declare const root: string;
export declare class StackError extends Error {}
export declare const INFRA: Record<'postgres' | 'redis' | 'nats', { label: string; port: number; start: string }>;
export declare function nodeBinary(): string;
export declare function checkInfrastructure(host?: string): Promise<void>;
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
}
export interface RunningStack {
  url: string;
  mailUrl: string;
  s3Endpoint: string;
  smtpPort: number;
  stackId: string;
  dbPrefix: string;
  redisUrl: string;
  pid: number;
  children: { name: string; pid: number }[];
  mail: RunningSmtpCatcher;
  s3: RunningS3Server;
  onExit(listener: (exit: { name: string; code: number | null; signal: string | null }) => void): void;
  stop(): Promise<void>;
}
export declare function startStack(options?: StackOptions): Promise<RunningStack>;
