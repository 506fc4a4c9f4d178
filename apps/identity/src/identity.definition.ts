import { AccessTokenSigner, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { defineService } from '@lv/platform/nest';
import { identityConfigSchema } from './config.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { IdentityController } from './identity.controller.js';
import { IdentityService } from './identity.service.js';
import { identityMigrations } from './migrations.js';

/** identity: accounts, sessions, profiles. The only service holding the private key: it mints access tokens. */
export const identityService = defineService({
  name: 'identity',
  configSchema: identityConfigSchema,
  migrations: identityMigrations,
  async setup({ config, core }) {
    // Revocations are written to last as long as the longest access token they cut short.
    const revokedSessions = new RevokedSessions(core.redis, Math.max(3600, config.ACCESS_TOKEN_TTL_SECONDS));
    const service = new IdentityService({
      orm: core.orm,
      signer: new AccessTokenSigner(await readPem(config.JWT_PRIVATE_KEY)),
      revokedSessions,
      limiter: new SignInLimiter(core.redis, {
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
    return { controllers: [IdentityController], providers: [{ provide: IdentityService, useValue: service }] };
  },
});
