// Types of tools/dev/services.mjs for TypeScript consumers (the deploy consistency spec).
export interface StackContext {
  natsUrl: string;
  redisUrl: string;
  stackId: string;
  logLevel: string;
  nodeEnv: string;
  databaseUrl(suffix: string): string;
  jwt: { publicKey: string; privateKey: string };
  /** court-journal's Ed25519 evidence key (PEM text). */
  evidenceKey: { publicKey: string; privateKey: string };
  /** The viewer tokens' RS256 pair: access-keys signs with the private key, every process verifies. */
  viewerJwt: { publicKey: string; privateKey: string };
  s3: { endpoint: string; region: string; accessKey: string; secretKey: string };
  smtp: { host: string; port: number };
  http: { host: string; port: number };
  webDistDir: string;
  healthServices: string[];
  /** Ports the stack picked for services' internal HTTP listeners (vault-media's and court-journal's byte streams). */
  internalPorts?: Record<string, number>;
}
export interface ServiceEntry {
  name: string;
  kind: 'service' | 'worker' | 'gateway';
  entry: string;
  database: string | null;
  config: { module: string; schema: string };
  env(ctx: StackContext): Record<string, string>;
}
export declare const services: ServiceEntry[];
export declare function commonEnv(ctx: StackContext): Record<string, string>;
export declare function databaseEnv(ctx: StackContext, suffix: string): Record<string, string>;
export declare function s3Env(ctx: StackContext): Record<string, string>;
export declare function smtpEnv(ctx: StackContext): Record<string, string>;
export declare function mediaHttp(ctx: StackContext): { host: string; port: number };
export declare function courtHttp(ctx: StackContext): { host: string; port: number };
export declare function devSecret(ctx: StackContext, purpose: string): string;
export declare function healthServiceNames(): string[];
export declare function databaseName(prefix: string, suffix: string): string;
