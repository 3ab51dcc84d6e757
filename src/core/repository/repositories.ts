import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RecordRepository } from './record-repository';
import { RowScope } from './row-scope';
import { TableSql } from './table-sql';
import { TransactionSteps } from './transaction-steps';
import { WriteStatements } from './write-statements';

/** The statement owner of one collection: its reads, its writes, the steps of its write transactions. */
export interface Owner {
  reads: RecordRepository;
  writes: WriteStatements;
  steps: TransactionSteps;
}

function owner(table: TableSql, scope?: RowScope): Owner {
  return {
    reads: new RecordRepository(table, scope),
    writes: new WriteStatements(table, scope),
    steps: new TransactionSteps(table, scope),
  };
}

/**
 * The statement owners of every collection, built once from the catalog; for a key whose role
 * limits a collection to some rows, owners of that collection built for the key (once per access)
 * that limit every statement to them.
 */
export class Repositories {
  private readonly owners = new Map<CollectionMeta, Owner>();
  private readonly tables = new Map<CollectionMeta, TableSql>();
  private readonly scopedOwners = new WeakMap<Access, Map<CollectionMeta, Owner>>();

  constructor(private readonly catalog: CollectionCatalog) {
    for (const meta of catalog.all()) {
      const table = new TableSql(meta);
      this.tables.set(meta, table);
      this.owners.set(meta, owner(table));
    }
  }

  /** The owner of a collection for a key: the shared one unless the key's grant has a row filter. */
  private ownerFor(meta: CollectionMeta, access?: Access): Owner {
    const rows = access && !access.admin ? access.grant(meta.plural)?.rows : undefined;
    if (!rows) return this.owners.get(meta)!;
    let mine = this.scopedOwners.get(access!);
    if (!mine) this.scopedOwners.set(access!, (mine = new Map()));
    let found = mine.get(meta);
    if (!found) {
      const forbidden = `API key '${access!.keyName}' may only write ${meta.plural} matching its filter`;
      found = owner(this.tables.get(meta)!, new RowScope(meta, rows, forbidden));
      mine.set(meta, found);
    }
    return found;
  }

  /** The reads of a collection (for a key: within its rows). */
  of(meta: CollectionMeta, access: Access | undefined): RecordRepository {
    return this.ownerFor(meta, access).reads;
  }

  /** The writes of a collection: each one statement with its events (for a key: within its rows). */
  writes(meta: CollectionMeta, access: Access | undefined): WriteStatements {
    return this.ownerFor(meta, access).writes;
  }

  /** The statements of a write transaction of several steps on a collection (for a key: within its rows). */
  steps(meta: CollectionMeta, access: Access | undefined): TransactionSteps {
    return this.ownerFor(meta, access).steps;
  }

  /** By plural name; throws for an unknown collection (a programming error, not a request's). */
  get(plural: string): Owner {
    return this.owners.get(this.catalog.require(plural))!;
  }
}
