import { Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { Db } from '../database/db';
import { CollectionCatalog } from '../model/collection-catalog';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { filterRelationTables, ResolvedFilter } from '../query/resolve-filter';
import { Repositories } from '../repository/repositories';

/** How totalCount is computed (`Prefer: count=...`): exact (default), the planner's estimate, or not at all (null). */
export type CountMode = 'exact' | 'estimated' | 'none';

/** Counts the rows of a WHERE condition (with its bound values); null when not counted. */
export type Counter = (where: string, values: unknown[]) => Promise<number | null>;

/** The counter of a list request for each count mode; exact counts go through the count cache. */
@Injectable()
export class RecordCounts {
  constructor(
    private readonly db: Db,
    private readonly repositories: Repositories,
    private readonly cache: CountCache,
    private readonly catalog: CollectionCatalog,
  ) {}

  /**
   * The counter of a list of `meta` filtered by `filter`. A cached exact count is kept with the
   * versions of every collection the filter reads: its own, and those its relation paths go through
   * (a people count filtered by `company.employees` changes when a company does).
   */
  counter(meta: CollectionMeta, mode: CountMode, filter: ResolvedFilter | undefined, access: Access): Counter {
    const repository = this.repositories.of(meta, access);
    // a key limited to some rows counts only them: its counts are cached apart
    const scope = repository.scope ? `${repository.scope.key}\u0000` : '';
    switch (mode) {
      case 'none':
        return async () => null;
      case 'estimated':
        return (where, values) => repository.estimate(this.db, where, values);
      default: {
        const reads = [
          meta.plural,
          ...filterRelationTables(filter).map((table) => this.catalog.byTableName(table)!.plural),
        ];
        return (where, values) =>
          this.cache.count(reads, `${scope}${where}\u0000${JSON.stringify(values)}`, () =>
            repository.count(this.db, where, values),
          );
      }
    }
  }
}
