// Types of tools/dev/s3-server.mjs for the TypeScript specs that start it in-process.
export declare const DEFAULT_S3_ACCESS_KEY: string;
export declare const DEFAULT_S3_SECRET_KEY: string;
export interface S3ServerOptions {
  port?: number;
  host?: string;
  directory?: string;
  accessKey?: string;
  secretKey?: string;
  region?: string;
  buckets?: string[];
  silent?: boolean;
}
export interface RunningS3Server {
  endpoint: string;
  host: string;
  port: number;
  accessKey: string;
  secretKey: string;
  region: string;
  directory: string;
  close(): Promise<void>;
}
export declare function startS3Server(options?: S3ServerOptions): Promise<RunningS3Server>;
