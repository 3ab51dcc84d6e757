import { q } from '../database/sql';
import { checkPathReadable } from '../model/readable-fields';
import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { ColumnRef, QueryTarget } from '../model/column-ref';
import { SortKey } from './parse-order-by';
import { relatedValueSql } from './relation-sql';
import { SqlParams } from './sql-params';

/**
 * Sorts and keyset pagination in SQL: sort keys resolved against the collection (at parse time,
 * in the pipes), their ORDER BY, and the condition "after the cursor row" as index ranges.
 */

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
export function resolveSort(target: QueryTarget, keys: SortKey[], access?: Access): ResolvedSortKey[] {
  const resolved = keys.map((key, i): ResolvedSortKey => {
    const ref = target.resolve(key.path);
    if (access) checkPathReadable(access, target.plural, key.path, ref);
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
