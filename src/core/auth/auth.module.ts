import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key.verifier';
import { FirstApiKey } from './first-api-key';
import { RateLimitGuard } from '../security/rate-limit.guard';

/** Bearer-token authentication (global guard, deny by default), rate limits per key, first-key bootstrap. */
@Module({
  // global guards run in this order: authenticate, then count the request against its key
  providers: [ApiKeyVerifier, FirstApiKey, { provide: APP_GUARD, useClass: ApiKeyGuard }, { provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [ApiKeyVerifier],
})
export class AuthModule {}
