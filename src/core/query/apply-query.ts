import { checkOperator, convertFilterValue, escapeLike } from './filter-values';
import { FilterNode, FilterOperator } from './parse-filter';
import { SortKey } from './parse-order-by';
import { QueryError } from './query-error';
import { ColumnRef, QueryTarget } from './query-target';

/**
 * Turns parsed query trees into SQL fragments. Column names come only from the collection's
 * metadata (through `QueryTarget.resolve`), values only as bound parameters, operators only
 * from the constant table below.
 */

/** Collects bound parameters and hands out their placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(private readonly offset = 0) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }
}

export function col(column: string): string {
  return `"${column.replace(/"/g, '""')}"`;
}

const COMPARISON: Partial<Record<FilterOperator, string>> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
};

function predicateSql(target: QueryTarget, node: Extract<FilterNode, { kind: 'predicate' }>, params: SqlParams): string {
  const ref = target.resolve(node.path);
  checkOperator(ref, node.operator);
  const column = col(ref.column);
  const { operator, value } = node;
  const isList = operator === 'in' || operator === 'containsAny';
  if (isList !== (value.kind === 'list')) {
    throw new QueryError(
      isList
        ? `Operator '${operator}' on '${ref.path}' expects a list, e.g. ${ref.path}[${operator}]:[a,b]`
        : `Operator '${operator}' on '${ref.path}' expects a single value, not a list`,
    );
  }
  if (value.kind === 'list') {
    if (value.items.length === 0) return 'FALSE';
    const items = value.items.map((item) => convertFilterValue(ref, item));
    return operator === 'in' ? `${column} = ANY(${params.add(items)})` : `${column} && ${params.add(items)}`;
  }
  if (operator === 'is') {
    if (value.value.text === 'NULL') return `${column} IS NULL`;
    if (value.value.text === 'NOT_NULL') return `${column} IS NOT NULL`;
    throw new QueryError(`Operator 'is' on '${ref.path}' expects NULL or NOT_NULL, got '${value.value.text}'`);
  }
  const converted = convertFilterValue(ref, value.value);
  if (operator === 'startsWith') return `${column} LIKE ${params.add(`${escapeLike(converted as string)}%`)}`;
  if (operator === 'endsWith') return `${column} LIKE ${params.add(`%${escapeLike(converted as string)}`)}`;
  return `${column} ${COMPARISON[operator]} ${params.add(converted)}`;
}

/** SQL boolean expression of a filter tree. */
export function filterSql(target: QueryTarget, node: FilterNode, params: SqlParams): string {
  switch (node.kind) {
    case 'and':
    case 'or':
      return `(${node.children.map((c) => filterSql(target, c, params)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `NOT (${filterSql(target, node.child, params)})`;
    case 'predicate':
      return predicateSql(target, node, params);
  }
}

/** True when the filter names `deletedAt` anywhere (then soft-deleted rows are not hidden). */
export function filterMentions(node: FilterNode | undefined, field: string): boolean {
  if (!node) return false;
  if (node.kind === 'predicate') return node.path[0] === field;
  if (node.kind === 'not') return filterMentions(node.child, field);
  return node.children.some((c) => filterMentions(c, field));
}

/** A sort key resolved to its column; `id` ends every sort. */
export interface ResolvedSortKey {
  ref: ColumnRef;
  descending: boolean;
  nullsFirst: boolean;
}

const SORTABLE_EXCLUDED = new Set(['RAW_JSON', 'ARRAY', 'MULTI_SELECT']);

/**
 * Resolves sort keys and appends `id` as the final tiebreaker, in the direction of the last key
 * so that a uniform sort can use one (key, id) index in one direction.
 */
export function resolveSort(target: QueryTarget, keys: SortKey[]): ResolvedSortKey[] {
  const resolved = keys.map((key) => {
    const ref = target.resolve(key.path);
    if (SORTABLE_EXCLUDED.has(ref.type)) throw new QueryError(`Cannot order by '${ref.path}' (${ref.type})`);
    return { ref, descending: key.descending, nullsFirst: key.nullsFirst };
  });
  if (!resolved.some((k) => k.ref.column === 'id')) {
    const last = resolved[resolved.length - 1];
    const descending = last?.descending ?? false;
    resolved.push({ ref: target.resolve(['id']), descending, nullsFirst: descending });
  }
  return resolved;
}

/** Reverses a sort (for `ending_before`): every direction and null placement flips. */
export function reverseSort(keys: ResolvedSortKey[]): ResolvedSortKey[] {
  return keys.map((k) => ({ ...k, descending: !k.descending, nullsFirst: !k.nullsFirst }));
}

export function orderBySql(keys: ResolvedSortKey[]): string {
  return keys
    .map((k) => `${col(k.ref.column)} ${k.descending ? 'DESC' : 'ASC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`)
    .join(', ');
}

/** Strictly-after condition of one key for a cursor value, with NULLs placed as the sort says. */
function afterSql(key: ResolvedSortKey, value: unknown, params: SqlParams): string | undefined {
  const column = col(key.ref.column);
  if (value === null) return key.nullsFirst ? `${column} IS NOT NULL` : undefined;
  const cmp = `${column} ${key.descending ? '<' : '>'} ${params.add(value)}`;
  return key.nullsFirst || !key.ref.nullable ? cmp : `(${cmp} OR ${column} IS NULL)`;
}

/**
 * Keyset condition "row comes after the cursor row" for the given sort (already reversed for
 * backward pages). Uniform NOT NULL sorts become one row comparison that an index on the sort
 * columns answers directly; others expand to (k1 > c1) OR (k1 = c1 AND k2 > c2) ... with NULLs.
 */
export function keysetSql(keys: ResolvedSortKey[], values: unknown[], params: SqlParams): string {
  const uniform = keys.every((k) => k.descending === keys[0].descending);
  const noNulls = keys.every((k, i) => !k.ref.nullable && values[i] !== null);
  if (uniform && noNulls) {
    const left = keys.map((k) => col(k.ref.column)).join(', ');
    const right = values.map((v) => params.add(v)).join(', ');
    return `(${left}) ${keys[0].descending ? '<' : '>'} (${right})`;
  }
  const branches: string[] = [];
  const equalities: string[] = [];
  keys.forEach((key, i) => {
    const after = afterSql(key, values[i], params);
    if (after) branches.push([...equalities, after].join(' AND '));
    if (i === keys.length - 1) return; // the last key needs no equality (and no unused parameter)
    equalities.push(values[i] === null ? `${col(key.ref.column)} IS NULL` : `${col(key.ref.column)} = ${params.add(values[i])}`);
  });
  return branches.length === 0 ? 'FALSE' : `(${branches.map((b) => `(${b})`).join(' OR ')})`;
}
