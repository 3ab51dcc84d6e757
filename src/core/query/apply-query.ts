import { q } from '../database/sql';
import { checkOperator, convertFilterValue, escapeLike } from './filter-values';
import { FilterNode, FilterOperator } from './parse-filter';
import { SortKey } from './parse-order-by';
import { QueryError } from '../errors/query-error';
import { ColumnRef, QueryTarget } from '../model/column-ref';
import { relatedValueSql, throughRelations } from './relation-sql';

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

function predicateSql(
  target: QueryTarget,
  node: Extract<FilterNode, { kind: 'predicate' }>,
  params: SqlParams,
): string {
  const ref = target.resolve(node.path);
  checkOperator(ref, node.operator);
  if (!ref.hops) return leafSql(ref, q(ref.column), node, params);
  return throughRelations(target, ref.hops, leafSql(ref, `r${ref.hops.length}.${q(ref.column)}`, node, params));
}

function leafSql(
  ref: ColumnRef,
  column: string,
  node: Extract<FilterNode, { kind: 'predicate' }>,
  params: SqlParams,
): string {
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

/** The tables a filter reads through relation paths (`company.employees` reads `company`), each once. */
export function filterRelationTables(target: QueryTarget, node: FilterNode | undefined): string[] {
  const tables = new Set<string>();
  const visit = (n: FilterNode): void => {
    if (n.kind === 'predicate') target.resolve(n.path).hops?.forEach((hop) => tables.add(hop.table));
    else if (n.kind === 'not') visit(n.child);
    else n.children.forEach(visit);
  };
  if (node) visit(node);
  return [...tables];
}

/** True when the filter names `deletedAt` anywhere (then soft-deleted rows are not hidden). */
export function filterMentions(node: FilterNode | undefined, field: string): boolean {
  if (!node) return false;
  if (node.kind === 'predicate') return node.path[0] === field;
  if (node.kind === 'not') return filterMentions(node.child, field);
  return node.children.some((c) => filterMentions(c, field));
}

/**
 * A sort key resolved to its column; `id` ends every sort. `nullsFirst` is the placement asked
 * for; on a NOT NULL column it changes nothing, and the SQL leaves it out (see `orderBySql`).
 */
export interface ResolvedSortKey {
  ref: ColumnRef;
  descending: boolean;
  nullsFirst: boolean;
  /**
   * A key through many-to-one relations (`company.name`): the related value as a scalar subquery
   * (null without a live related record), and the name the page selects it as, for cursors.
   */
  related?: { sql: string; output: string };
}

/** The SQL of a sort key: its column, or the related value. */
function sortSql(key: ResolvedSortKey): string {
  return key.related?.sql ?? q(key.ref.column);
}

const SORTABLE_EXCLUDED = new Set(['RAW_JSON', 'ARRAY', 'MULTI_SELECT']);

/**
 * Resolves sort keys and appends `id` as the final tiebreaker, in the direction of the last key:
 * a sort by one key then runs on the (key, id) index, forward or backward (a backward scan
 * reverses every column, so `id` must go the key's way).
 */
export function resolveSort(target: QueryTarget, keys: SortKey[]): ResolvedSortKey[] {
  const resolved = keys.map((key, i): ResolvedSortKey => {
    const ref = target.resolve(key.path);
    if (SORTABLE_EXCLUDED.has(ref.type)) throw new QueryError(`Cannot order by '${ref.path}' (${ref.type})`);
    if (!ref.hops) return { ref, descending: key.descending, nullsFirst: key.nullsFirst };
    if (ref.hops.some((hop) => hop.kind !== 'MANY_TO_ONE')) {
      throw new QueryError(`Cannot order by '${ref.path}': order_by follows many-to-one relations only`);
    }
    // a record without the related record sorts as a null, whatever the column's own nullability
    return {
      ref: { ...ref, nullable: true },
      descending: key.descending,
      nullsFirst: key.nullsFirst,
      related: { sql: relatedValueSql(target, ref), output: `__sort${i}` },
    };
  });
  if (!resolved.some((k) => !k.related && k.ref.column === 'id')) {
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

/**
 * ORDER BY of a sort. A NULLS clause only on nullable columns: on a NOT NULL column it changes
 * no row's place, but the planner matches it against the index order all the same, and
 * `"createdAt" ASC NULLS FIRST` cannot use the ("createdAt", id) index (a sequential scan and a
 * sort of the whole table instead). Nullable sortable columns have an index for each placement.
 */
export function orderBySql(keys: ResolvedSortKey[]): string {
  return keys
    .map((k) => {
      const direction = `${sortSql(k)} ${k.descending ? 'DESC' : 'ASC'}`;
      return k.ref.nullable ? `${direction} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}` : direction;
    })
    .join(', ');
}

/**
 * Whether "after (v1, v2, ...)" is exactly the row comparison `(k1, k2, ...) > (v1, v2, ...)`
 * (`<` when descending): one direction, and no NULL that the comparison would drop while the
 * sort places it after the cursor. A NULL compares as unknown, so the row comparison excludes
 * rows with a NULL key: right when the sort puts NULLs first, wrong when it puts them last.
 */
function rowComparable(keys: ResolvedSortKey[], values: unknown[]): boolean {
  return keys.every(
    (k, i) => k.descending === keys[0].descending && values[i] !== null && (!k.ref.nullable || k.nullsFirst),
  );
}

function rowComparison(keys: ResolvedSortKey[], values: unknown[], params: SqlParams): string {
  const operator = keys[0].descending ? '<' : '>';
  if (keys.length === 1) return `${sortSql(keys[0])} ${operator} ${params.add(values[0])}`;
  const left = keys.map(sortSql).join(', ');
  const right = values.map((v) => params.add(v)).join(', ');
  return `(${left}) ${operator} (${right})`;
}

/**
 * Keyset condition "row comes after the cursor row" for the given sort (already reversed for
 * backward pages), as index ranges wherever the sort allows: the longest tail of keys that is
 * row-comparable becomes one row comparison, which a (k1, ..., id) btree index in the sort's
 * order answers as an index condition; keys before it expand to
 * (k1 after c1) OR (k1 = c1 AND <rest after>), with NULLs placed as the sort says.
 */
export function keysetSql(keys: ResolvedSortKey[], values: unknown[], params: SqlParams): string {
  if (rowComparable(keys, values)) return rowComparison(keys, values, params);
  const [key, ...restKeys] = keys;
  const [value, ...restValues] = values;
  const column = sortSql(key);
  const rest = () => keysetSql(restKeys, restValues, params);
  if (value === null) {
    // within the NULLs of this key, the rest decides; if NULLs come first, every value follows
    const sameNull = restKeys.length ? `(${column} IS NULL AND ${rest()})` : 'FALSE';
    return key.nullsFirst ? `(${column} IS NOT NULL OR ${sameNull})` : sameNull;
  }
  // the NULLs of a nullable key that the sort puts last all follow a non-null cursor value
  const nullsAfter = key.ref.nullable && !key.nullsFirst ? ` OR ${column} IS NULL` : '';
  if (restKeys.length && rowComparable(restKeys, restValues) && restKeys[0].descending === key.descending) {
    // (k, rest) after (v, rest values) is one row comparison but for this key's trailing NULLs
    return `(${rowComparison(keys, values, params)}${nullsAfter})`;
  }
  const after = `${column} ${key.descending ? '<' : '>'} ${params.add(value)}`;
  if (!restKeys.length) return `(${after}${nullsAfter})`;
  return `(${after}${nullsAfter} OR (${column} = ${params.add(value)} AND ${rest()}))`;
}
