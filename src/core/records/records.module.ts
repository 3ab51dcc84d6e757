import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { ImportEvents } from '../events/import-events';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RecordEventBus } from '../events/event-bus';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionDefinition } from '../model/collection-definition';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { KeyRing, loadMasterKey } from '../security/keys';
import { SecretBox } from '../security/secret-box';
import { RecordBulkWrites } from './bulk-writes';
import { LiveCounts } from './live-counts';
import { RecordCounts } from './record-counts';
import { RecordMerges } from './record-merges';
import { RecordUpserts } from './record-upserts';
import { RecordDuplicates } from './record-duplicates';
import { RecordGroups } from './record-groups';
import { RecordExports } from './record-exports';
import { RecordSearch } from './record-search';
import { RecordReads } from './record-reads';
import { RecordShaper } from './record-shaper';
import { RecordWrites } from './record-writes';
import { RecordServices } from './record-services';
import { RecordChecks } from './record-checks';
import { RecordReferences } from './record-references';
import { RelationLoader } from './relation-loader';
import { WriteUnit } from './write-unit';

/** A process that starts may follow one that died between a commit and its count-version change. */
@Injectable()
class CountsAtStart implements OnApplicationBootstrap {
  constructor(
    @Inject(CountCache) private readonly counts: CountCache,
    @Inject(CollectionCatalog) private readonly catalog: CollectionCatalog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.counts.changed(this.catalog.all().map((m) => m.plural));
  }
}

/** The services behind the routes and tools, for the edge modules. */
const SERVICES = [
  RecordReads,
  RecordWrites,
  RecordDuplicates,
  RecordBulkWrites,
  RecordUpserts,
  RecordMerges,
  RecordGroups,
  RecordExports,
  RecordSearch,
  RecordServices,
];

/**
 * The record engine: the catalog of collections (built here, once, from the definitions it is
 * given), their statement owners and codecs, the event bus, and the services behind every
 * collection's routes (reads, writes, duplicates). Global: collection modules register with it.
 */
@Global()
@Module({})
export class RecordsModule {
  static forRoot(definitions: CollectionDefinition[]): DynamicModule {
    return {
      module: RecordsModule,
      providers: [
        { provide: CollectionCatalog, useFactory: () => new CollectionCatalog(definitions) },
        {
          provide: KeyRing,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => new KeyRing(loadMasterKey(config)),
        },
        {
          provide: RecordCodecs,
          inject: [KeyRing],
          useFactory: (keys: KeyRing) => new RecordCodecs(new SecretBox(keys.fieldKey)),
        },
        {
          provide: Repositories,
          inject: [CollectionCatalog],
          useFactory: (catalog: CollectionCatalog) => new Repositories(catalog),
        },
        {
          provide: RecordShaper,
          inject: [CollectionCatalog, Repositories, RecordCodecs, APP_CONFIG],
          useFactory: (
            catalog: CollectionCatalog,
            repositories: Repositories,
            codecs: RecordCodecs,
            config: AppConfig,
          ) => new RecordShaper(codecs, new RelationLoader(catalog, repositories, codecs, config.relationLimit)),
        },
        RecordEventBus,
        IdempotencyStore,
        CountCache,
        ImportEvents,
        CountsAtStart,
        RecordCounts,
        LiveCounts,
        WriteUnit,
        RecordChecks,
        RecordReferences,
        ...SERVICES,
      ],
      exports: [
        CollectionCatalog,
        KeyRing,
        RecordCodecs,
        Repositories,
        RecordEventBus,
        RecordChecks,
        CountCache,
        ImportEvents,
        ...SERVICES,
      ],
    };
  }
}
