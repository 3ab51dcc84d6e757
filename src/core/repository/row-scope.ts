import type { ResolvedFilter } from '../model/checked-filter';
import { CollectionMeta } from '../model/collection-meta';
import { filterSql } from '../query/filter-sql';
import { SqlParams } from '../query/sql-params';

/**
 * The rows a key sees and changes in one collection: its role's row filter (API.md section 14).
 * A collection's statement owners built for the key AND it into every statement that reads or
 * writes the table; a write whose result would leave it fails whole (`forbidden`).
 */
export class RowScope {
  private static readonly ids = new Map<string, number>();
  /** The rows' condition as text with its values: the same for every key whose role has the same filter. */
  readonly key: string;
  /**
   * A small number per distinct condition: distinguishes the named statements of scoped owners (a
   * name stands for one text per connection), stable across the keys and lookups of one role.
   */
  readonly id: number;

  constructor(
    readonly meta: CollectionMeta,
    readonly rows: ResolvedFilter,
    /** The message of the 403 when a write would leave the rows: `API key 'x' may only write people matching its filter`. */
    readonly forbidden: string,
  ) {
    const params = new SqlParams();
    this.key = `${meta.plural}\u0000${this.sql(params)}\u0000${JSON.stringify(params.values)}`;
    let id = RowScope.ids.get(this.key);
    if (id === undefined) RowScope.ids.set(this.key, (id = RowScope.ids.size + 1));
    this.id = id;
  }

  /** The rows' condition, its values bound through `params`. */
  sql(params: SqlParams): string {
    return filterSql(this.meta, this.rows, params);
  }

  /** `where` AND the rows' condition, their values appended after `values`. */
  and(where: string, values: unknown[]): { where: string; values: unknown[] } {
    const params = new SqlParams(values.length);
    const rows = this.sql(params);
    return { where: where ? `${where} AND ${rows}` : rows, values: [...values, ...params.values] };
  }
}

/** `where` AND the scope's rows when there is a scope, else as it is. */
export function scoped(scope: RowScope | undefined, where: string, values: unknown[]) {
  return scope ? scope.and(where, values) : { where, values };
}
