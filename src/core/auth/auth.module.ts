import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ActorDirectory } from '../model/actor-directory';
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
  providers: [
    ApiKeyVerifier,
    RateLimiter,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    // background work on behalf of a key (imports) finds its actor through the model's contract
    { provide: ActorDirectory, useExisting: ApiKeyVerifier },
  ],
  exports: [ApiKeyVerifier, ActorDirectory],
})
export class AuthModule {}
