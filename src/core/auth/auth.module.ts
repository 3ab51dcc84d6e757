import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key.verifier';
import { FirstApiKey } from '../../collections/api-keys/first-api-key';
import { RateLimiter } from './rate-limiter';

/** Bearer-token authentication (global guard, deny by default), rate limits per key, first-key bootstrap. */
@Module({
  // one global guard: authenticate, then count the request against its key
  providers: [ApiKeyVerifier, FirstApiKey, RateLimiter, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyVerifier],
})
export class AuthModule {}
