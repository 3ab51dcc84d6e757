import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyVerifier } from './api-key.verifier';
import { FirstApiKey } from './first-api-key';

/** Bearer-token authentication: a global guard (deny by default) and the first-key bootstrap. */
@Module({
  providers: [ApiKeyVerifier, FirstApiKey, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyVerifier],
})
export class AuthModule {}
