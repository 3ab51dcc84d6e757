import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { parseFilter } from './parse-filter';
import { parseShape, Shape } from './record-shape';
import { ResolvedFilter, resolveFilter } from './resolve-filter';

/** A bulk update, delete or restore: its mandatory filter and the shape of the records it returns. */
export interface BulkQuery extends Shape {
  filter: ResolvedFilter;
}

/**
 * `filter` (mandatory: a write over a whole collection must be asked for explicitly, e.g.
 * `id[is]:NOT_NULL`), `depth` and `fields` of a bulk request.
 */
export function parseBulkQuery(
  meta: CollectionMeta,
  params: { filter?: string; depth?: string; fields?: string },
  maxFilterDepth: number,
  access: Access,
): BulkQuery {
  if (params.filter === undefined || params.filter.trim() === '') throw new QueryError('filter is required');
  const filter = parseFilter(params.filter, maxFilterDepth);
  const shape = parseShape(meta, params, access);
  return { ...shape, filter: resolveFilter(meta, filter, access) };
}
