import { q } from '../database/sql';
import { QueryTarget } from '../model/column-ref';
import { whereSql } from './filter-sql';
import { ListQuery } from './list-query';
import { keysetSql, orderBySql, reverseSort } from './sort-sql';
import { SqlParams } from './sql-params';

/**
 * A list request compiled: the page's condition (filter, live records, keyset position), order and
 * limit (one more row than the page, to know whether another follows), the relation sort values it
 * selects for cursors, and the condition its totalCount counts (without the position).
 */
export interface ListStatement {
  where: string;
  orderBy: string;
  limit: number;
  values: unknown[];
  /** `<expr> AS "__sort0"`: relation sort values, read back for the cursors. */
  extraSelect: string[];
  count: { where: string; values: unknown[] };
  /** Whether the page is read backward (`ending_before`): its rows come in reverse order. */
  backward: boolean;
}

export function listSql(target: QueryTarget, query: ListQuery): ListStatement {
  const params = new SqlParams();
  const conditions = [whereSql(target, query.filter, 'filtered', params)].filter(Boolean);
  const count = { where: conditions.join(' AND '), values: [...params.values] };
  const backward = query.cursor?.before === true;
  const order = backward ? reverseSort(query.sort) : query.sort;
  if (query.cursor) conditions.push(keysetSql(order, query.cursor.values, params));
  return {
    where: conditions.join(' AND '),
    orderBy: orderBySql(order),
    limit: query.limit + 1,
    values: params.values,
    extraSelect: query.sort.flatMap((k) => (k.related ? [`${k.related.sql} AS ${q(k.related.output)}`] : [])),
    count,
    backward,
  };
}
