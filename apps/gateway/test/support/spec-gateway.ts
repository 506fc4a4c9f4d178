import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { startS3Server, type RunningS3Server } from '../../../../tools/dev/s3-server.mjs';
import type { CreateGatewayOptions } from '../../src/app.factory.js';
import { bridgeEsmOnlyDependencies } from './esm-bridge.js';

/** The device cookie secret every gateway spec signs with (config refuses a short one). */
export const SPEC_DEVICE_COOKIE_SECRET = 'spec-device-cookie-secret-0123456789abcdef';

const SPA_SHELL = '<!doctype html><title>Legacy Vault</title><div id="root"></div>';

/**
 * A spec's scratch folder with the SPA's shell in `web/` (the gateway serves it for page routes).
 * Remove `workDir` when the spec ends.
 */
export async function specWorkDir(name: string, indexHtml = SPA_SHELL): Promise<{ workDir: string; web: string }> {
  const workDir = await mkdtemp(join(tmpdir(), `lv-gateway-${name}-`));
  const web = join(workDir, 'web');
  await mkdir(web, { recursive: true });
  await writeFile(join(web, 'index.html'), indexHtml);
  return { workDir, web };
}

/** A scratch folder (as specWorkDir) with the embedded S3 server keeping its files in it; `close` stops the server and removes the folder. */
export async function specWorkDirWithS3(name: string): Promise<{ workDir: string; web: string; s3: RunningS3Server; close(): Promise<void> }> {
  const { workDir, web } = await specWorkDir(name);
  const s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret', silent: true });
  return {
    workDir, web, s3,
    close: async () => {
      await s3.close();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/**
 * The gateway booted in-process, as main.ts boots it, from `settings` (the environment it would
 * read; the device cookie secret is filled in). Its modules are imported here, after the spec has
 * chosen its STACK_ID: subjects are fixed when they load. Logs are silent unless a logger is given.
 */
export async function createSpecGateway(settings: Record<string, string>, options: CreateGatewayOptions = {}): Promise<NestFastifyApplication> {
  await bridgeEsmOnlyDependencies();
  const { createGatewayApp } = await import('../../src/app.factory.js');
  const { gatewayConfigSchema } = await import('../../src/config.js');
  const config = gatewayConfigSchema.parse({ DEVICE_COOKIE_SECRET: SPEC_DEVICE_COOKIE_SECRET, ...settings });
  return createGatewayApp(config, { logger: pino({ level: 'silent' }), ...options });
}

export interface SpecEdge {
  app: NestFastifyApplication;
  /** Fastify under the app, for `inject`. */
  http: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The gateway in-process (as createSpecGateway) over a scratch folder with the embedded S3 server,
 * serving the SPA's shell from it (WEB_DIST_DIR is filled in); `close` ends the gateway, then the rest.
 */
export async function startSpecEdge(name: string, settings: Record<string, string>, options: CreateGatewayOptions = {}): Promise<SpecEdge> {
  const work = await specWorkDirWithS3(name);
  try {
    const app = await createSpecGateway({ WEB_DIST_DIR: work.web, ...settings }, options);
    return {
      app, http: app.getHttpAdapter().getInstance(),
      close: async () => {
        await app.close();
        await work.close();
      },
    };
  } catch (error) {
    await work.close();
    throw error;
  }
}

/** Listens on a free local port; answers the base URL (127.0.0.1, never a name that may resolve to ::1). */
export async function listenLocally(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
}
