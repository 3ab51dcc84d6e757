import { q } from '../database/sql';
import { ColumnRef } from '../model/column-ref';
import { SqlParams } from './sql-params';
import { Aggregate, Dimension, GroupByQuery, GroupOrder } from './group-by-query';

/** The parts of a GROUP BY statement: select expressions (d0.., totalCount, a0..), the number of dimensions, the order. */
export interface GroupStatement {
  select: string[];
  dimensions: number;
  orderBy: string;
}

const TRUNC: Record<string, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', QUARTER: 'quarter', YEAR: 'year' };
const EXTRACT: Record<string, string> = {
  DAY_OF_THE_WEEK: 'isodow',
  MONTH_OF_THE_YEAR: 'month',
  QUARTER_OF_THE_YEAR: 'quarter',
};

/** A dimension's value: the column, or its date in the time zone truncated or taken apart. */
function dimensionSql(dim: Dimension, timezone: string): string {
  const column = q(dim.ref.column);
  if (!dim.granularity) return column;
  const local = dim.ref.type === 'DATE' ? `${column}::timestamp` : `(${column} AT TIME ZONE ${timezone})`;
  if (TRUNC[dim.granularity]) return `date_trunc('${TRUNC[dim.granularity]}', ${local})::date`;
  return `extract(${EXTRACT[dim.granularity]} FROM ${local})::int`;
}

/** "Empty" as merges and aggregates mean it: NULL, an empty text, an empty list. */
function emptySql(ref: ColumnRef): string {
  const column = q(ref.column);
  if (ref.type === 'TEXT' || ref.type === 'RICH_TEXT') return `(${column} IS NULL OR ${column} = '')`;
  if (ref.type === 'ARRAY' || ref.type === 'MULTI_SELECT') return `(${column} IS NULL OR cardinality(${column}) = 0)`;
  return `${column} IS NULL`;
}

function aggregateSql(aggregate: Aggregate): string {
  const column = q(aggregate.ref.column);
  const empty = emptySql(aggregate.ref);
  switch (aggregate.op) {
    case 'countEmpty':
      return `count(*) FILTER (WHERE ${empty})::int`;
    case 'countNotEmpty':
      return `count(*) FILTER (WHERE NOT ${empty})::int`;
    case 'countUniqueValues':
      return `count(DISTINCT ${column}) FILTER (WHERE NOT ${empty})::int`;
    case 'percentageEmpty':
      return `(count(*) FILTER (WHERE ${empty}))::float8 / NULLIF(count(*), 0)`;
    case 'percentageNotEmpty':
      return `(count(*) FILTER (WHERE NOT ${empty}))::float8 / NULLIF(count(*), 0)`;
    case 'countTrue':
      return `count(*) FILTER (WHERE ${column} IS TRUE)::int`;
    case 'countFalse':
      return `count(*) FILTER (WHERE ${column} IS FALSE)::int`;
    case 'avg':
      return `avg(${column})::float8`;
    default:
      return `${aggregate.op}(${column})`;
  }
}

/** Default order of a dimension: SELECT values in the order of their options, others by value; the null group last. */
function dimensionOrder(
  dim: Dimension,
  index: number,
  params: SqlParams,
  descending = false,
  nullsFirst = descending,
): string {
  const value =
    dim.ref.type === 'SELECT' && !dim.granularity
      ? `array_position(${params.add(dim.ref.options)}::text[], ${q(dim.ref.column)}::text)`
      : `"d${index}"`;
  return `${value} ${descending ? 'DESC' : 'ASC'} NULLS ${nullsFirst ? 'FIRST' : 'LAST'}`;
}

function orderSql(order: GroupOrder, query: GroupByQuery, params: SqlParams): string {
  const { target } = order;
  if (target.kind === 'dimension')
    return dimensionOrder(
      query.dimensions[target.index],
      target.index,
      params,
      order.descending,
      order.nullsFirst ?? order.descending,
    );
  const alias =
    target.kind === 'count' ? '"totalCount"' : `"a${query.aggregates.findIndex((a) => a.key === target.key)}"`;
  return `${alias} ${order.descending ? 'DESC' : 'ASC'} NULLS ${(order.nullsFirst ?? order.descending) ? 'FIRST' : 'LAST'}`;
}

/** The dimension expressions alone (the time zone bound once when a date is grouped by granularity). */
export function dimensionExpressions(query: GroupByQuery, params: SqlParams): string[] {
  const timezone = query.dimensions.some((d) => d.granularity && d.ref.type !== 'DATE')
    ? params.add(query.timezone)
    : '';
  return query.dimensions.map((d) => dimensionSql(d, timezone));
}

/**
 * Compiles a group-by request into one `GROUP BY` statement's parts: dimensions `d0..`, the
 * count, aggregates `a0..`; ordered as asked, then by every dimension (so groups come in a
 * stable order). Values (the time zone, option lists) are bound.
 */
export function groupBySql(query: GroupByQuery, params: SqlParams): GroupStatement {
  const dims = dimensionExpressions(query, params);
  const select = [
    ...dims.map((sql, i) => `${sql} AS "d${i}"`),
    'count(*)::int AS "totalCount"',
    ...query.aggregates.map((a, i) => `${aggregateSql(a)} AS "a${i}"`),
  ];
  const explicit = query.order.map((o) => orderSql(o, query, params));
  const ordered = new Set(query.order.flatMap((o) => (o.target.kind === 'dimension' ? [o.target.index] : [])));
  const rest = query.dimensions.flatMap((d, i) => (ordered.has(i) ? [] : [dimensionOrder(d, i, params)]));
  return { select, dimensions: dims.length, orderBy: [...explicit, ...rest].join(', ') || '"totalCount" DESC' };
}
