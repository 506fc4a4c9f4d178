import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccessTokenSigner, AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import type { Logger } from '@lv/platform/logging';
import { closeServiceCore, openServiceCore, RpcCallerGuard, RpcErrorFilter, type ServiceCore } from '@lv/platform/nest';
import type { IdentityConfig } from './config.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { IdentityController } from './identity.controller.js';
import { IdentityService } from './identity.service.js';
import { identityMigrations } from './migrations.js';

export const IDENTITY_RESOURCES = Symbol('IDENTITY_RESOURCES');

/** Connections the service owns; opened before Nest starts and closed when it stops. */
export type IdentityResources = ServiceCore;

export function openIdentityResources(config: IdentityConfig, logger: Logger): Promise<IdentityResources> {
  return openServiceCore('identity', config, identityMigrations, logger);
}

@Module({})
export class IdentityModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(IDENTITY_RESOURCES) private readonly resources: IdentityResources) {}

  static forRoot(config: IdentityConfig, resources: IdentityResources, keys: { privateKey: string; publicKey: string }): DynamicModule {
    const revokedSessions = new RevokedSessions(resources.redis, Math.max(3600, config.ACCESS_TOKEN_TTL_SECONDS));
    const verifier = new AccessTokenVerifier(keys.publicKey, revokedSessions);
    const service = new IdentityService({
      orm: resources.orm,
      signer: new AccessTokenSigner(keys.privateKey),
      revokedSessions,
      limiter: new SignInLimiter(resources.redis, {
        maxFailuresPerAccountAddress: config.SIGNIN_MAX_FAILURES_PER_ACCOUNT_ADDRESS,
        maxFailuresPerAddress: config.SIGNIN_MAX_FAILURES_PER_ADDRESS,
        maxFailuresPerAccount: config.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
        maxFailuresPerDevice: config.SIGNIN_MAX_FAILURES_PER_DEVICE,
        windowSeconds: config.SIGNIN_WINDOW_SECONDS,
        maxSignUpsPerAddress: config.SIGNUP_MAX_PER_ADDRESS,
        signUpWindowSeconds: config.SIGNUP_WINDOW_SECONDS,
      }, process.env.STACK_ID ? `lv:${process.env.STACK_ID}:signin` : 'lv:signin'),
      accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
      refreshReuseGraceMs: config.REFRESH_REUSE_GRACE_MS,
    });
    return {
      module: IdentityModule,
      controllers: [IdentityController],
      providers: [
        { provide: IDENTITY_RESOURCES, useValue: resources },
        { provide: IdentityService, useValue: service },
        { provide: AccessTokenVerifier, useValue: verifier },
        { provide: APP_GUARD, useClass: RpcCallerGuard },
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

export async function loadKeys(config: IdentityConfig): Promise<{ privateKey: string; publicKey: string }> {
  return { privateKey: await readPem(config.JWT_PRIVATE_KEY), publicKey: await readPem(config.JWT_PUBLIC_KEY) };
}
