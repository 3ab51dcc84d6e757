import { Queryable } from '../database/db';
import {
  filterMentions,
  filterSql,
  keysetSql,
  orderBySql,
  ResolvedSortKey,
  resolveSort,
  reverseSort,
  SqlParams,
} from '../query/apply-query';
import { decodeCursor, encodeCursor } from '../query/cursor';
import { FilterNode, parseFilter } from '../query/parse-filter';
import { parseOrderBy, sortSignature } from '../query/parse-order-by';
import { parseLimit } from '../query/parse-params';
import { QueryError } from '../query/query-error';
import { CollectionMeta } from '../model/collection-meta';
import { parseShape, ROUTE_PARAMS, readParams, RawQuery, Shape } from '../rest/request-params';

/** A parsed and checked list request. */
export interface ListQuery extends Shape {
  filter?: FilterNode;
  sort: ResolvedSortKey[];
  sortSignature: string;
  limit: number;
  /** Keyset position: sort values + id of the cursor record, and the paging direction. */
  cursor?: { before: boolean; values: unknown[] };
}

export interface ListLimits {
  pageSizeDefault: number;
  pageSizeMax: number;
  maxFilterDepth: number;
}

/** Parses every list parameter against the collection's fields (all errors are 400s). */
export function parseListQuery(meta: CollectionMeta, raw: RawQuery, limits: ListLimits, cursorKey: Buffer): ListQuery {
  const params = readParams(raw, ROUTE_PARAMS.findMany);
  const shape = parseShape(meta, params);
  const filter = params.filter === undefined ? undefined : parseFilter(params.filter, limits.maxFilterDepth);
  const sort = resolveSort(meta, params.order_by === undefined ? [] : parseOrderBy(params.order_by));
  const signature = sortSignature(sort.map((k) => ({ path: k.ref.path.split('.'), descending: k.descending, nullsFirst: k.nullsFirst })));
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw new QueryError('starting_after and ending_before cannot be used together');
  }
  const token = params.starting_after ?? params.ending_before;
  const cursor =
    token === undefined
      ? undefined
      : { before: params.ending_before !== undefined, values: decodeCursor(cursorKey, token, signature, sort.length).v };
  return {
    ...shape,
    filter,
    sort,
    sortSignature: signature,
    limit: parseLimit(params.limit, limits.pageSizeDefault, limits.pageSizeMax),
    cursor,
  };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page {
  rows: Record<string, unknown>[];
  pageInfo: PageInfo;
  totalCount: number | null;
}

/** Counts the rows of a WHERE clause (with its bound values); null when not counted. */
export type Counter = (where: string, values: unknown[]) => Promise<number | null>;

/**
 * Runs a list query: the page (limit + 1 rows, to know whether another page exists) and the
 * count of rows matching the filter (by `counter`), in parallel.
 */
export async function findPage(db: Queryable, meta: CollectionMeta, query: ListQuery, cursorKey: Buffer, counter: Counter): Promise<Page> {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!filterMentions(query.filter, 'deletedAt')) conditions.push('"deletedAt" IS NULL');
  if (query.filter) conditions.push(filterSql(meta, query.filter, params));
  const countWhere = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const countParams = [...params.values];

  const backward = query.cursor?.before === true;
  const order = backward ? reverseSort(query.sort) : query.sort;
  if (query.cursor) conditions.push(keysetSql(order, query.cursor.values, params));
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';

  const pageSql = `SELECT ${meta.selectList} FROM ${meta.sqlTable} ${where} ORDER BY ${orderBySql(order)} LIMIT ${query.limit + 1}`;
  const [rows, totalCount] = await Promise.all([db.query(pageSql, params.values), counter(countWhere, countParams)]);
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backward) page.reverse();
  const cursorOf = (row: Record<string, unknown>) =>
    encodeCursor(cursorKey, { s: query.sortSignature, v: query.sort.map((k) => row[k.ref.column] ?? null) });
  return {
    rows: page,
    totalCount,
    pageInfo: {
      hasNextPage: backward ? true : more,
      hasPreviousPage: backward ? more : query.cursor !== undefined,
      startCursor: page.length ? cursorOf(page[0]) : null,
      endCursor: page.length ? cursorOf(page[page.length - 1]) : null,
    },
  };
}
