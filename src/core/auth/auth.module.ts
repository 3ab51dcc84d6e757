import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key.verifier';
import { RateLimiter } from './rate-limiter';

/**
 * Bearer-token authentication (global guard, deny by default) and rate limits per key. Global:
 * the module that owns the keys registers its store with the verifier.
 */
@Global()
@Module({
  // one global guard: authenticate, then count the request against its key
  providers: [ApiKeyVerifier, RateLimiter, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyVerifier],
})
export class AuthModule {}
