import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { EventRecorder } from '../events/event-recorder';
import { WebhookDispatcher } from '../../collections/webhooks/webhook-dispatcher';
import { documentRelations } from '../openapi/record-response';
import { KeyRing, loadMasterKey } from '../security/keys';
import { SecretBox } from '../security/secret-box';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { CountCache } from '../cache/count-cache';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionCatalog } from '../model/collection-meta';
import { CrudService } from './crud.service';
import { RecordCodecs } from '../repository/record-codecs';

/** The shared CRUD base: the catalog of collections, their codecs and the generic service. */
@Global()
@Module({})
export class CrudModule {
  static forRoot(definitions: CollectionDefinition[]): DynamicModule {
    return {
      module: CrudModule,
      providers: [
        {
          provide: CollectionCatalog,
          useFactory: () => {
            const catalog = new CollectionCatalog(definitions);
            documentRelations(catalog);
            return catalog;
          },
        },
        { provide: KeyRing, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new KeyRing(loadMasterKey(config)) },
        { provide: RecordCodecs, inject: [KeyRing], useFactory: (keys: KeyRing) => new RecordCodecs(new SecretBox(keys.fieldKey)) },
        EventRecorder,
        WebhookDispatcher,
        IdempotencyStore,
        CountCache,
        CrudService,
      ],
      exports: [CollectionCatalog, KeyRing, RecordCodecs, EventRecorder, CrudService],
    };
  }
}
