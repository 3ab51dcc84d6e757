import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RecordRepository } from './record-repository';

/** The statement owner of every collection, built once from the catalog. */
export class Repositories {
  private readonly byMeta = new Map<CollectionMeta, RecordRepository>();

  constructor(private readonly catalog: CollectionCatalog) {
    for (const meta of catalog.all()) this.byMeta.set(meta, new RecordRepository(meta));
  }

  of(meta: CollectionMeta): RecordRepository {
    return this.byMeta.get(meta)!;
  }

  /** By plural name; throws for an unknown collection (a programming error, not a request's). */
  get(plural: string): RecordRepository {
    return this.of(this.catalog.require(plural));
  }
}
