import { checkReadable } from '../model/readable-fields';
import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ColumnRef } from '../model/column-ref';
import { parseFilter } from './parse-filter';
import { ResolvedFilter, resolveFilter } from './resolve-filter';
import { parseBoolean } from './parse-params';
import { parseOrderBy } from './parse-order-by';
import { ResolvedSortKey, resolveSort } from './sort-sql';

/**
 * Parser of the group-by parameters (API.md section 12). Pure: strings in, a checked query out.
 *
 *   group_by  := JSON [ dim, ... ] (0..3)   dim := {"f":true} | {"f":{"sub":true}} | {"f":{"granularity":G}}
 *   aggregate := JSON [ key, ... ]          key := op Field [Sub], e.g. sumAmountAmountMicros, minCreatedAt
 *   order_by  := JSON [ {"totalCount"|key|field: "ASC"|"DESC"|"AscNullsFirst"|...}, ... ]
 *   limit     := 1..200 (default 50)        timezone := IANA zone (default UTC)
 *   order_by_for_records := the list grammar (parse-order-by.ts), e.g. name.lastName[AscNullsFirst]
 */

export const GRANULARITIES = [
  'DAY',
  'WEEK',
  'MONTH',
  'QUARTER',
  'YEAR',
  'DAY_OF_THE_WEEK',
  'MONTH_OF_THE_YEAR',
  'QUARTER_OF_THE_YEAR',
] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const AGGREGATE_OPS = [
  'countEmpty',
  'countNotEmpty',
  'countUniqueValues',
  'percentageEmpty',
  'percentageNotEmpty',
  'countTrue',
  'countFalse',
  'min',
  'max',
  'avg',
  'sum',
] as const;
export type AggregateOp = (typeof AGGREGATE_OPS)[number];

export interface Dimension {
  ref: ColumnRef;
  granularity?: Granularity;
}

export interface Aggregate {
  key: string;
  op: AggregateOp;
  ref: ColumnRef;
}

export interface GroupOrder {
  /** `totalCount`, an aggregate key, or the index of a dimension. */
  target: { kind: 'count' } | { kind: 'aggregate'; key: string } | { kind: 'dimension'; index: number };
  descending: boolean;
  nullsFirst?: boolean;
}

export interface GroupByQuery {
  dimensions: Dimension[];
  aggregates: Aggregate[];
  filter?: ResolvedFilter;
  order: GroupOrder[];
  limit: number;
  timezone: string;
  sample: boolean;
  /** The order of each group's record sample (`order_by_for_records`, id last), checked like a list's `order_by`. */
  sampleSort: ResolvedSortKey[];
}

const NUMERIC = new Set(['NUMBER', 'NUMERIC', 'POSITION']);
const DATES = new Set(['DATE_TIME', 'DATE']);
/** Which stored types each operation fits. */
function fits(op: AggregateOp, ref: ColumnRef): boolean {
  if (op === 'countTrue' || op === 'countFalse') return ref.type === 'BOOLEAN';
  if (op === 'sum' || op === 'avg') return NUMERIC.has(ref.type);
  if (op === 'min' || op === 'max') return NUMERIC.has(ref.type) || DATES.has(ref.type);
  return ref.type !== 'RAW_JSON';
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Every aggregate key a collection offers (for the OpenAPI document and error messages). */
export function aggregateKeys(meta: CollectionMeta): Map<string, Aggregate> {
  const keys = new Map<string, Aggregate>();
  for (const ref of meta.columnRefs()) {
    const suffix = ref.path.split('.').map(upperFirst).join('');
    for (const op of AGGREGATE_OPS) if (fits(op, ref)) keys.set(`${op}${suffix}`, { key: `${op}${suffix}`, op, ref });
  }
  return keys;
}

function json(name: string, raw: string | undefined): unknown[] {
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new QueryError(
      `${name} must be a JSON array, e.g. ${name === 'group_by' ? '[{"stage":true}]' : '["sumAmountAmountMicros"]'}`,
    );
  }
  if (!Array.isArray(value)) throw new QueryError(`${name} must be a JSON array`);
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function dimension(meta: CollectionMeta, item: unknown, index: number): Dimension {
  const entries = isObject(item) ? Object.entries(item) : [];
  if (entries.length !== 1)
    throw new QueryError(
      `group_by[${index}] must be one field: {"field":true}, {"field":{"sub":true}} or {"field":{"granularity":"MONTH"}}`,
    );
  const [[field, spec]] = entries;
  if (spec === true) return { ref: meta.resolve([field]) };
  const inner = isObject(spec) ? Object.entries(spec) : [];
  if (inner.length === 1 && inner[0][0] === 'granularity') {
    const ref = meta.resolve([field]);
    const granularity = inner[0][1] as Granularity;
    if (!GRANULARITIES.includes(granularity))
      throw new QueryError(`group_by[${index}]: granularity must be one of ${GRANULARITIES.join(', ')}`);
    if (!DATES.has(ref.type))
      throw new QueryError(`group_by[${index}]: '${field}' is not a date, it has no granularity`);
    return { ref, granularity };
  }
  if (inner.length === 1 && inner[0][1] === true) return { ref: meta.resolve([field, inner[0][0]]) };
  throw new QueryError(
    `group_by[${index}] must be one field: {"field":true}, {"field":{"sub":true}} or {"field":{"granularity":"MONTH"}}`,
  );
}

const DIRECTIONS: Record<string, { descending: boolean; nullsFirst?: boolean }> = {
  ASC: { descending: false },
  DESC: { descending: true },
  AscNullsFirst: { descending: false, nullsFirst: true },
  AscNullsLast: { descending: false, nullsFirst: false },
  DescNullsFirst: { descending: true, nullsFirst: true },
  DescNullsLast: { descending: true, nullsFirst: false },
};

function orderItem(item: unknown, index: number, dimensions: Dimension[], aggregates: Aggregate[]): GroupOrder {
  const entries = isObject(item) ? Object.entries(item) : [];
  const direction = entries.length === 1 ? DIRECTIONS[String(entries[0][1])] : undefined;
  if (!direction)
    throw new QueryError(`order_by[${index}] must be {"totalCount"|aggregate|field: "ASC"|"DESC"|"AscNullsLast"|...}`);
  const [name] = entries[0];
  if (name === 'totalCount') return { target: { kind: 'count' }, ...direction };
  if (aggregates.some((a) => a.key === name)) return { target: { kind: 'aggregate', key: name }, ...direction };
  const dim = dimensions.findIndex((d) => d.ref.path === name || d.ref.path.split('.')[0] === name);
  if (dim >= 0) return { target: { kind: 'dimension', index: dim }, ...direction };
  throw new QueryError(
    `order_by[${index}]: '${name}' is neither totalCount, a requested aggregate nor a group_by field`,
  );
}

export interface GroupByParams {
  group_by?: string;
  aggregate?: string;
  filter?: string;
  order_by?: string;
  limit?: string;
  timezone?: string;
  include_records_sample?: string;
  order_by_for_records?: string;
}

export function parseGroupByQuery(
  meta: CollectionMeta,
  params: GroupByParams,
  maxFilterDepth: number,
  access: Access,
): GroupByQuery {
  const dims = json('group_by', params.group_by);
  if (dims.length > 3) throw new QueryError('group_by takes at most 3 dimensions');
  const dimensions = dims.map((d, i) => dimension(meta, d, i));
  const readable = (ref: ColumnRef) => checkReadable(access, meta.plural, ref.path.split('.')[0]);
  dimensions.forEach((d) => readable(d.ref));
  const offered = aggregateKeys(meta);
  const aggregates = [...new Set(json('aggregate', params.aggregate).filter((k) => k !== 'totalCount'))].map((key) => {
    const found = typeof key === 'string' ? offered.get(key) : undefined;
    if (!found)
      throw new QueryError(
        `aggregate '${String(key)}' is not offered by '${meta.def.singular}' (unknown field, or an operation that does not fit its type)`,
      );
    readable(found.ref);
    return found;
  });
  const limit = params.limit === undefined ? 50 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new QueryError(`limit '${params.limit}' is invalid: an integer from 1 to 200`);
  const timezone = params.timezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new QueryError(`timezone '${timezone}' is not an IANA time zone, e.g. Europe/Paris`);
  }
  const filter = params.filter === undefined ? undefined : parseFilter(params.filter, maxFilterDepth);
  const order = json('order_by', params.order_by).map((o, i) => orderItem(o, i, dimensions, aggregates));
  const sample = parseBoolean('include_records_sample', params.include_records_sample);
  const sampleOrder = params.order_by_for_records;
  const sampleSort = resolveSort(meta, sampleOrder === undefined ? [] : parseOrderBy(sampleOrder), access);
  return {
    dimensions,
    aggregates,
    filter: filter && resolveFilter(meta, filter, access),
    order,
    limit,
    timezone,
    sample,
    sampleSort,
  };
}
