import { Inject, Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db } from '../database/db';
import { CollectionCatalog } from '../model/collection-catalog';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { filterRelationTables, ResolvedFilter } from '../query/resolve-filter';
import { Repositories } from '../repository/repositories';

/**
 * How totalCount is computed (`Prefer: count=...`, API.md sections 4 and 18): exact (default),
 * estimated (exact up to COUNT_EXACT_LIMIT matches, the planner's estimate above), or not at all (null).
 */
export type CountMode = 'exact' | 'estimated' | 'none';

/** A list's `totalCount`: null when not counted; `estimated` under `Prefer: count=estimated` (whether it is an estimate). */
export interface Count {
  totalCount: number | null;
  estimated?: boolean;
}

/** Counts the rows of a WHERE condition (with its bound values). */
export type Counter = (where: string, values: unknown[]) => Promise<Count>;

/** The counter of a list request for each count mode; exact counts go through the count cache. */
@Injectable()
export class RecordCounts {
  constructor(
    private readonly db: Db,
    private readonly repositories: Repositories,
    private readonly cache: CountCache,
    private readonly catalog: CollectionCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
        return async () => ({ totalCount: null });
      case 'estimated':
        // exact up to the limit (a count that stops at limit + 1); above it the planner's estimate,
        // never below limit + 1: an estimate is never given where the exact number is cheap
        return async (where, values) => {
          const upTo = await repository.countUpTo(this.db, where, values, this.config.countExactLimit);
          if (upTo <= this.config.countExactLimit) return { totalCount: upTo, estimated: false };
          const estimate = await repository.estimate(this.db, where, values);
          return { totalCount: Math.max(estimate, upTo), estimated: true };
        };
      default: {
        const reads = [
          meta.plural,
          ...filterRelationTables(filter).map((table) => this.catalog.byTableName(table)!.plural),
        ];
        return async (where, values) => ({
          totalCount: await this.cache.count(reads, `${scope}${where}\u0000${JSON.stringify(values)}`, () =>
            repository.count(this.db, where, values),
          ),
        });
      }
    }
  }
}
