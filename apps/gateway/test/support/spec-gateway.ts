import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pino } from 'pino';
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

/** Listens on a free local port; answers the base URL (127.0.0.1, never a name that may resolve to ::1). */
export async function listenLocally(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
}
