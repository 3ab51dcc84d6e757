import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ResolvedSortKey, resolveSort } from './sort-sql';
import { decodeCursor } from './cursor';
import { parseFilter } from './parse-filter';
import { parseOrderBy, sortSignature } from './parse-order-by';
import { parseLimit } from './parse-params';
import { parseShape, Shape } from './record-shape';
import { ResolvedFilter, resolveFilter } from './resolve-filter';

/** A parsed and checked list request: what the list service runs, with no string left to parse. */
export interface ListQuery extends Shape {
  filter?: ResolvedFilter;
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

/** The list parameters of a request, as strings (checked for names and repetition by the caller). */
export interface ListParams {
  filter?: string;
  order_by?: string;
  limit?: string;
  starting_after?: string;
  ending_before?: string;
  depth?: string;
  fields?: string;
}

/** Parses every list parameter against the collection's fields (all errors are QueryErrors: 400). */
export function parseListQuery(
  meta: CollectionMeta,
  params: ListParams,
  limits: ListLimits,
  cursorKey: Buffer,
  access: Access,
): ListQuery {
  const shape = parseShape(meta, params, access);
  const filter = params.filter === undefined ? undefined : parseFilter(params.filter, limits.maxFilterDepth);
  const sort = resolveSort(meta, params.order_by === undefined ? [] : parseOrderBy(params.order_by), access);
  const signature = sortSignature(
    sort.map((k) => ({ path: k.ref.path.split('.'), descending: k.descending, nullsFirst: k.nullsFirst })),
  );
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw new QueryError('starting_after and ending_before cannot be used together');
  }
  const token = params.starting_after ?? params.ending_before;
  const cursor =
    token === undefined
      ? undefined
      : {
          before: params.ending_before !== undefined,
          values: decodeCursor(cursorKey, token, signature, sort.length).v,
        };
  const limit = parseLimit(params.limit, limits.pageSizeDefault, limits.pageSizeMax);
  return {
    ...shape,
    filter: filter && resolveFilter(meta, filter, access),
    sort,
    sortSignature: signature,
    limit,
    cursor,
  };
}
