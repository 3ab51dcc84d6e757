import { Module } from '@nestjs/common';
import { ApiKeyTable } from './api-key.statements';
import { ApiKeysController } from './api-keys.controller';
import { FirstApiKey } from './first-api-key';

/** API keys: the collection, the store the global guard checks tokens against, the first key on a first start. */
@Module({ controllers: [ApiKeysController], providers: [ApiKeyTable, FirstApiKey] })
export class ApiKeysModule {}
