import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import type { Logger } from '@lv/platform/logging';
import { closeServiceCore, openServiceCore, rpcAuthProviders, RpcErrorFilter, type ServiceCore } from '@lv/platform/nest';
import type { LettersConfig } from './config.js';
import { LettersController } from './letters.controller.js';
import { LettersService } from './letters.service.js';
import { lettersMigrations } from './migrations.js';

export const LETTERS_RESOURCES = Symbol('LETTERS_RESOURCES');

/** Connections the service owns; opened before Nest starts and closed when it stops. */
export type LettersResources = ServiceCore;

export function openLettersResources(config: LettersConfig, logger: Logger): Promise<LettersResources> {
  return openServiceCore('letters', config, lettersMigrations, logger);
}

@Module({})
export class LettersModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(LETTERS_RESOURCES) private readonly resources: LettersResources) {}

  static forRoot(config: LettersConfig, resources: LettersResources, publicKey: string): DynamicModule {
    // Revocations are read with the same lifetime identity writes them with (the longest access token).
    const verifier = new AccessTokenVerifier(publicKey, new RevokedSessions(resources.redis));
    return {
      module: LettersModule,
      controllers: [LettersController],
      providers: [
        { provide: LETTERS_RESOURCES, useValue: resources },
        { provide: LettersService, useValue: new LettersService({ orm: resources.orm }) },
        { provide: AccessTokenVerifier, useValue: verifier },
        ...rpcAuthProviders({ accessTokens: verifier, viewerPublicKey: config.VIEWER_JWT_PUBLIC_KEY, redis: resources.redis }),
        { provide: APP_FILTER, useClass: RpcErrorFilter },
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.resources.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await closeServiceCore(this.resources);
  }
}

export async function loadPublicKey(config: LettersConfig): Promise<string> {
  return readPem(config.JWT_PUBLIC_KEY);
}
