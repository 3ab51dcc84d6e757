import { Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { Db } from '../database/db';
import { CollectionMeta } from '../model/collection-meta';
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
  ) {}

  counter(meta: CollectionMeta, mode: CountMode): Counter {
    const repository = this.repositories.of(meta);
    switch (mode) {
      case 'none':
        return async () => null;
      case 'estimated':
        return (where, values) => repository.estimate(this.db, where, values);
      default:
        return (where, values) =>
          this.cache.count(meta.plural, `${where}\u0000${JSON.stringify(values)}`, () => repository.count(this.db, where, values));
    }
  }
}
