import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { BulkStatements } from './bulk-statements';
import { RecordRepository } from './record-repository';

/** The statement owners of every collection, built once from the catalog. */
export class Repositories {
  private readonly byMeta = new Map<CollectionMeta, RecordRepository>();
  private readonly bulkByMeta = new Map<CollectionMeta, BulkStatements>();

  constructor(private readonly catalog: CollectionCatalog) {
    for (const meta of catalog.all()) {
      const repository = new RecordRepository(meta);
      this.byMeta.set(meta, repository);
      this.bulkByMeta.set(meta, new BulkStatements(repository));
    }
  }

  of(meta: CollectionMeta): RecordRepository {
    return this.byMeta.get(meta)!;
  }

  /** The set-based statements of a collection (bulk writes, upserts, merges). */
  bulk(meta: CollectionMeta): BulkStatements {
    return this.bulkByMeta.get(meta)!;
  }

  /** By plural name; throws for an unknown collection (a programming error, not a request's). */
  get(plural: string): RecordRepository {
    return this.of(this.catalog.require(plural));
  }
}
