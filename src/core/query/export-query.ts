import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { parseFilter } from './parse-filter';
import { parseOrderBy } from './parse-order-by';
import { parseShape } from './record-shape';
import { ResolvedFilter, resolveFilter } from './resolve-filter';
import { ResolvedSortKey, resolveSort } from './sort-sql';

/** The formats of an export (API.md section 15). */
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A parsed and checked export request: the list's filter, order and projection (checked exactly as
 * a list's, hidden fields refused), records at depth 0, no page.
 */
export interface ExportQuery {
  format: ExportFormat;
  filter?: ResolvedFilter;
  sort: ResolvedSortKey[];
  /** Whether `order_by` was given: without it the records come in storage order (no sort before the first one). */
  ordered: boolean;
  /** Top-level names to keep (id always included), or undefined for every field. */
  fields?: string[];
}

export interface ExportParams {
  format?: string;
  filter?: string;
  order_by?: string;
  fields?: string;
}

/** Parses the export parameters against the collection's fields (all errors are QueryErrors: 400). */
export function parseExportQuery(
  meta: CollectionMeta,
  params: ExportParams,
  maxFilterDepth: number,
  access: Access,
): ExportQuery {
  const format = params.format;
  if (format === undefined) throw new QueryError(`format is required: one of ${EXPORT_FORMATS.join(', ')}`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new QueryError(`format '${format}' is invalid. Should be one of ${EXPORT_FORMATS.join(', ')}`);
  }
  const { fields } = parseShape(meta, { fields: params.fields }, access);
  const filter = params.filter === undefined ? undefined : parseFilter(params.filter, maxFilterDepth);
  const sort = resolveSort(meta, params.order_by === undefined ? [] : parseOrderBy(params.order_by), access);
  return {
    format: format as ExportFormat,
    filter: filter && resolveFilter(meta, filter, access),
    sort,
    ordered: params.order_by !== undefined,
    fields,
  };
}
