import type { ColumnRef } from './column-ref';

/** The operators of the filter grammar (the parser in query/parse-filter.ts lists them). */
export type FilterOperator =
  | 'eq'
  | 'neq'
  | 'in'
  | 'containsAny'
  | 'is'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'startsWith'
  | 'endsWith'
  | 'like'
  | 'ilike';

/**
 * A filter checked against a collection, as the pipes hand it to the services: every path resolved
 * to its column (through relations where it says so), every operator allowed for the column's
 * type, every value converted to what is bound. The compiler (filter-sql.ts) turns it into SQL
 * without checking anything; a service never sees a filter it could still refuse.
 */
export type ResolvedFilter =
  { kind: 'and' | 'or'; children: ResolvedFilter[] } | { kind: 'not'; child: ResolvedFilter } | ResolvedPredicate;

/**
 * One predicate. `value`: for `is`, `NULL` or `NOT_NULL`; for `in` / `containsAny`, the list of
 * converted values; for `startsWith` / `endsWith`, the LIKE pattern (wildcards of the value escaped);
 * otherwise the converted value.
 */
export interface ResolvedPredicate {
  kind: 'predicate';
  /** The path as written (`company.employees`), its first segment the field of this collection it starts from. */
  path: string[];
  ref: ColumnRef;
  operator: FilterOperator;
  value: unknown;
}
