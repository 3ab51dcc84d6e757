import { q } from '../database/sql';
import { QueryTarget } from '../model/column-ref';
import { FilterOperator } from './parse-filter';
import { relatedValueSql, throughRelations } from './relation-sql';
import { filterMentions, ResolvedFilter, ResolvedPredicate } from './resolve-filter';
import { SqlParams } from './sql-params';

export { relatedValueSql };

/**
 * Turns checked filters into SQL. Column names come only from the collection's metadata (the
 * resolved references), values only as bound parameters, operators only from the table below.
 */
const COMPARISON: Partial<Record<FilterOperator, string>> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  startsWith: 'LIKE',
  endsWith: 'LIKE',
};

function leafSql(column: string, predicate: ResolvedPredicate, params: SqlParams): string {
  const { operator, value } = predicate;
  if (operator === 'in' || operator === 'containsAny') {
    const items = value as unknown[];
    if (items.length === 0) return 'FALSE';
    return operator === 'in' ? `${column} = ANY(${params.add(items)})` : `${column} && ${params.add(items)}`;
  }
  if (operator === 'is') return value === 'NULL' ? `${column} IS NULL` : `${column} IS NOT NULL`;
  return `${column} ${COMPARISON[operator]} ${params.add(value)}`;
}

function predicateSql(target: QueryTarget, predicate: ResolvedPredicate, params: SqlParams): string {
  const { ref } = predicate;
  if (!ref.hops) return leafSql(q(ref.column), predicate, params);
  return throughRelations(target, ref.hops, leafSql(`r${ref.hops.length}.${q(ref.column)}`, predicate, params));
}

/** SQL boolean expression of a checked filter. */
export function filterSql(target: QueryTarget, filter: ResolvedFilter, params: SqlParams): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filter.children.map((c) => filterSql(target, c, params)).join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `NOT (${filterSql(target, filter.child, params)})`;
    case 'predicate':
      return predicateSql(target, filter, params);
  }
}

/**
 * Which records a statement covers, besides its filter: `live` ones (not soft-deleted), the
 * soft-deleted ones only (`deleted`: restores), or live ones unless the filter names `deletedAt`
 * (`filtered`: lists, counts, group by, update and delete many, as API.md section 4 says).
 */
export type RecordScope = 'live' | 'deleted' | 'filtered';

/** The condition a record is live: the one place it is written. */
export const LIVE = '"deletedAt" IS NULL';
const DELETED = '"deletedAt" IS NOT NULL';

/** The WHERE condition of the records of `scope` matching `filter` ('' when it is every record). */
export function whereSql(
  target: QueryTarget,
  filter: ResolvedFilter | undefined,
  scope: RecordScope,
  params: SqlParams,
): string {
  const conditions: string[] = [];
  if (scope === 'deleted') conditions.push(DELETED);
  else if (scope === 'live' || !filterMentions(filter, 'deletedAt')) conditions.push(LIVE);
  if (filter) conditions.push(filterSql(target, filter, params));
  return conditions.join(' AND ');
}
