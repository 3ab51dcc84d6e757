import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RecordRepository } from './record-repository';
import { TableSql } from './table-sql';
import { TransactionSteps } from './transaction-steps';
import { WriteStatements } from './write-statements';

/** The statement owner of one collection: its reads, its writes, the steps of its write transactions. */
export interface Owner {
  reads: RecordRepository;
  writes: WriteStatements;
  steps: TransactionSteps;
}

/** The statement owners of every collection, built once from the catalog. */
export class Repositories {
  private readonly owners = new Map<CollectionMeta, Owner>();

  constructor(private readonly catalog: CollectionCatalog) {
    for (const meta of catalog.all()) {
      const table = new TableSql(meta);
      this.owners.set(meta, {
        reads: new RecordRepository(table),
        writes: new WriteStatements(table),
        steps: new TransactionSteps(table),
      });
    }
  }

  /** The reads of a collection. */
  of(meta: CollectionMeta): RecordRepository {
    return this.owners.get(meta)!.reads;
  }

  /** The writes of a collection: each one statement with its events. */
  writes(meta: CollectionMeta): WriteStatements {
    return this.owners.get(meta)!.writes;
  }

  /** The statements of a write transaction of several steps on a collection (locks, Node-evented writes). */
  steps(meta: CollectionMeta): TransactionSteps {
    return this.owners.get(meta)!.steps;
  }

  /** By plural name; throws for an unknown collection (a programming error, not a request's). */
  get(plural: string): Owner {
    return this.owners.get(this.catalog.require(plural))!;
  }
}
