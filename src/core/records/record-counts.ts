import { Inject, Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db, Queryable } from '../database/db';
import { CollectionCatalog } from '../model/collection-catalog';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { filterRelationTables, ResolvedFilter } from '../query/resolve-filter';
import { RecordRepository } from '../repository/record-repository';
import { Repositories } from '../repository/repositories';
import { LiveCounts } from './live-counts';

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
    private readonly live: LiveCounts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The counter of a list of `meta` filtered by `filter`, read with `access`. */
  counter(
    meta: CollectionMeta,
    mode: CountMode,
    filter: ResolvedFilter | undefined,
    access: Access,
    reads: Queryable = this.db,
  ): Counter {
    const repository = this.repositories.of(meta, access);
    // a key limited to some rows counts only them: its counts are cached apart
    const scope = repository.scope ? `${repository.scope.key}\u0000` : '';
    if (mode === 'none') return async () => ({ totalCount: null });
    const tables = [
      meta.plural,
      ...filterRelationTables(filter).map((table) => this.catalog.byTableName(table)!.plural),
    ];
    const counter =
      mode === 'estimated'
        ? this.estimated(tables, scope, repository, reads)
        : this.exact(tables, scope, repository, reads);
    // every live record (no filter, a key that reads every row): the maintained count, exact in both modes
    if (filter !== undefined || repository.scope) return counter;
    const flag = mode === 'estimated' ? { estimated: false } : {};
    return async (where, values) => {
      const live = await this.live.count(meta, reads);
      return live === undefined ? counter(where, values) : { totalCount: live, ...flag };
    };
  }

  /**
   * Exact up to the limit (a count that stops at limit + 1); above it the planner's estimate,
   * never below limit + 1: an estimate is never given where the exact number is cheap. Whether a
   * total is an estimate follows from it (above the limit), so the count cache keeps it as it
   * keeps exact counts, under a key of its own (with the limit): a filter on a field without an
   * index reads up to 100,000 rows to find limit + 1 matches, once per version of the collection.
   */
  private estimated(tables: string[], scope: string, repository: RecordRepository, reads: Queryable): Counter {
    const limit = this.config.countExactLimit;
    const compute = async (where: string, values: unknown[]) => {
      const upTo = await repository.countUpTo(reads, where, values, limit);
      return upTo <= limit ? upTo : Math.max(await repository.estimate(reads, where, values), upTo);
    };
    return async (where, values) => {
      const key = `estimated\u0000${limit}\u0000${scope}${where}\u0000${JSON.stringify(values)}`;
      const totalCount = await this.cached(reads, tables, key, () => compute(where, values));
      return { totalCount, estimated: totalCount > limit };
    };
  }

  /**
   * A cached exact count is kept with the versions of every collection the filter reads: its own,
   * and those its relation paths go through (a people count filtered by `company.employees`
   * changes when a company does).
   */
  private exact(tables: string[], scope: string, repository: RecordRepository, reads: Queryable): Counter {
    return async (where, values) => ({
      totalCount: await this.cached(reads, tables, `${scope}${where}\u0000${JSON.stringify(values)}`, () =>
        repository.count(reads, where, values),
      ),
    });
  }

  /** `compute`, through the count cache, except on a replica: its count may be older than the collections' versions. */
  private cached(reads: Queryable, tables: string[], key: string, compute: () => Promise<number>): Promise<number> {
    return reads !== this.db ? compute() : this.cache.count(tables, key, compute);
  }
}
